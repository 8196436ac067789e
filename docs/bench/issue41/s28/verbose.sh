#!/bin/bash
# s28 device run 5: register limits and partial unrolling of the vertical pass
cd $PWD/devbench/s28
LT_VERBOSE=1 LT_DEV=gpu timeout 300 ./lt $PWD/k 1920 1080 15 < cfg-regs.txt > $OUT/regs.txt 2>&1; echo rc=$? >> $OUT/regs.txt
grep -E "us \(min" $OUT/regs.txt
