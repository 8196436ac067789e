#!/bin/bash
# s30 device run C: the GPU box's strip height (16, 32, 64, 128 rows) at sizes 7-63, kernel alone
# in the s28 harness (lt.c: builds common.cl + box.cl, checks one RGBA frame against a float
# reference, times with events), 1080p and 4K, two rounds; the floor (a frame copied) from
# clconvolve-bench in the same run.
D=$PWD/devbench/s30
gcc -O2 -o /tmp/lt $D/lt.c -lOpenCL -lm || exit 1
for r in 1 2; do
  for res in "1920 1080" "3840 2160"; do
    echo "== round $r $res"
    LT_SRC=box.cl LT_ENTRY=convolve_box LT_BOX=1 LT_DEV=gpu timeout 120 /tmp/lt $PWD/kernels $res 15 < $D/cfg-strip.txt 2>&1
  done
done > $OUT/strip.txt
grep -E 'us \(min|FAIL|err|max diff' $OUT/strip.txt | head -80
