#!/bin/bash
# s36 run 4: the GPU box with rows of column sums batched (GBOX_RB) and horizontal tasks of
# GBOX_HX outputs, in the harness, 1080p (checked) and 4K (unchecked)
cd devbench/s36
export LT_SRC=box.cl LT_ENTRY=convolve_box LT_BOX=1
for res in "1920 1080" "3840 2160"; do
  [ "$res" = "3840 2160" ] && export LT_NOCHECK=1
  timeout 250 ./lt kb $res 15 < cfg-box-gpu.txt >> $OUT/run4-box.txt 2>&1
done
