#!/bin/bash
# s37 device run 8: registers a work-item (-cl-nv-verbose) and times of direct.cl -DBLOCK=4
# as kept (kF) and without the register-blocked fallback for border blocks (kG), and tiled 2x4
D=$PWD/devbench/s37
for k in kF kG; do
  echo "== $k"
  LT_VERBOSE=1 LT_SRC=direct.cl LT_ENTRY=convolve_direct LT_DENSE=1 $D/lt $D/$k 1920 1080 41 < $D/cfgV.txt
done 2>&1 | grep -E "==|us \(|registers|spill|lmem"
LT_VERBOSE=1 LT_SRC=tiled.cl LT_ENTRY=convolve_tiled LT_DENSE=1 $D/lt $D/kF 1920 1080 41 < $D/cfgVT.txt 2>&1 | grep -E "us \(|registers|spill|lmem"
