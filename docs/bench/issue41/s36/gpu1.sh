#!/bin/bash
# s36 run 1: lsep experiments in the s28 harness (lt.c), 1080p (checked) and 4K (unchecked)
cd devbench/s36
nvidia-smi -L > $OUT/run1.txt
for res in "1920 1080" "3840 2160"; do
  [ "$res" = "3840 2160" ] && export LT_NOCHECK=1
  LT_SRC=lsep0.cl timeout 100 ./lt k $res 15 < <(grep '^b ' cfg-gpu.txt | sed 's/^b /b0 /') >> $OUT/run1.txt 2>&1
  timeout 220 ./lt k $res 15 < cfg-gpu.txt >> $OUT/run1.txt 2>&1
done
unset LT_NOCHECK
LT_VERBOSE=1 timeout 60 ./lt k 1920 1080 2 < <(grep -E '^(b|f4vy4|f2vy4|vy4) ' cfg-gpu.txt) > $OUT/run1-verbose.txt 2>&1
