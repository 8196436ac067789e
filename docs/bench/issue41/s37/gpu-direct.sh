#!/bin/bash
# s37 device run 5: the s28 harness (lt.c with lt.patch and s37/lt-dense.patch: LT_DENSE, the
# outer product as a dense matrix) over direct.cl with -DBLOCK=4 (DIRECT_WIDE) in several
# work-group shapes, -DBLOCK=1, and tiled 2x4, gaussian 3/5/7, 1080p and 4K RGBA
D=$PWD/devbench/s37
for res in "1920 1080" "3840 2160"; do
  LT_SRC=direct.cl LT_ENTRY=convolve_direct LT_DENSE=1 $D/lt $D/kF $res 41 < $D/cfgF.txt
  LT_SRC=tiled.cl LT_ENTRY=convolve_tiled LT_DENSE=1 $D/lt $D/kF $res 41 < $D/cfgT.txt
done 2>&1 | grep -v warning
