#!/bin/bash
# s30 device run D: the GPU box with strips of 64 as a tuner candidate from size 15.
# 1) the harness (lt.c) checks strips of 64 at every border on odd frames and 1080p;
# 2) the kernel alone in the element (bands=1 profiling=true, method=auto tuned), 1080p and 4K,
#    box 7-63, before (new: c6aac34's candidates) and after (new2), alternating, two rounds;
# 3) the formats suite's blurs case on the GPU with new2.
D=$PWD/devbench/s30
gcc -O2 -o /tmp/lt $D/lt.c -lOpenCL -lm || exit 1
for res in "97 61" "33 200" "1920 1080"; do
  echo "== $res"
  LT_SRC=box.cl LT_ENTRY=convolve_box LT_BOX=1 LT_DEV=gpu timeout 60 /tmp/lt $PWD/kernels $res 5 < $D/cfg-borders.txt 2>&1
done > $OUT/borders.txt
mkdir -p build/gst build/tools
use () { cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/; rm -f /tmp/reg.bin; }
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
export GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 7,15,31,63"
for round in 1 2; do
  for b in new new2; do
    use $b
    for res in 1920x1080 3840x2160; do
      $D/new2/clconvolve-bench $S --res $res -l $b-box --element "clconvolve method=auto kernel=box size={size} bands=1 profiling=true"
    done
  done
done > $OUT/kern.jsonl 2> $OUT/kern.log
use new2
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=blurs timeout 120 $D/new2/test_formats > $OUT/formats-blurs.log 2>&1; echo "rc=$?" >> $OUT/formats-blurs.log )
grep -E '^[0-9]+%|rc=' $OUT/formats-blurs.log
grep -c 'maxdiff 0 bad 0' $OUT/borders.txt; grep -v 'maxdiff 0 bad 0' $OUT/borders.txt | head
grep -E "x floor" $OUT/kern.log | awk '{print $1, $4, $5, $(NF-8), $(NF-7), $(NF-6), $(NF-4)}'
