#!/bin/bash
# s37 device run 9: direct.cl -DBLOCK=4 in a second form (kH: every work-item with 4 pixels in
# the row maps its columns and rows through the border and loads the middle 4 as 16 bytes; no
# interior test) against tiled 2x4, the s28 harness, gaussian 3/5/7 mirror, 1080p and 4K
D=$PWD/devbench/s37
for res in "1920 1080" "3840 2160"; do
  LT_SRC=direct.cl LT_ENTRY=convolve_direct LT_DENSE=1 $D/lt $D/kH $res 41 < $D/cfgH.txt
  LT_SRC=tiled.cl LT_ENTRY=convolve_tiled LT_DENSE=1 $D/lt $D/kH $res 41 < $D/cfgT1.txt
done 2>&1 | grep -v warning
