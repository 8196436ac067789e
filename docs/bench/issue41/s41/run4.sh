#!/bin/bash
# s41 device run 4: the register-window separable probe (devbench/s41/k/rsep.cl, kept as
# docs/bench/issue41/s41/rsep.cl) against lsep in the s28 harness (lt.c), gaussian 3, 7, 15,
# RGBA with alpha copied, clamp border: 1080p every configuration, 4K a subset. Each line: the
# median of 41 launches, the largest difference from the harness's reference.
D=$PWD/devbench/s41
cd $D/k
LT_SRC=lsep.cl LT_DEV=gpu timeout 60 ../lt . 1920 1080 41 < <(grep ^lsep ../cfg-rsep.txt) > $OUT/probe-1080.txt 2>&1
LT_SRC=rsep.cl LT_ENTRY=convolve_rsep LT_DEV=gpu timeout 120 ../lt . 1920 1080 41 < <(grep ^rsep ../cfg-rsep.txt) >> $OUT/probe-1080.txt 2>&1
LT_SRC=lsep.cl LT_DEV=gpu timeout 60 ../lt . 3840 2160 41 < <(grep ^lsep ../cfg-rsep4k.txt) > $OUT/probe-4k.txt 2>&1
LT_SRC=rsep.cl LT_ENTRY=convolve_rsep LT_DEV=gpu timeout 120 ../lt . 3840 2160 41 < <(grep ^rsep ../cfg-rsep4k.txt) >> $OUT/probe-4k.txt 2>&1
for f in $OUT/probe-*.txt; do echo "== $(basename $f)"; grep -E "floor|us \(min|FAIL|err" $f | sed 's/ *\[.*//' | cut -c1-80; done
