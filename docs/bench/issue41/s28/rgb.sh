#!/bin/bash
# s28 device run 13: lsep without the copied alpha's sums (-DLSEP_RGB, RGBA with channels=auto)
# against 91708e9: harness (k, k0), formats blurs on the GPU, kernel alone (builds alternating)
D=$PWD/devbench/s28
cd $D
for k in k0 k; do echo "== $k"; LT_DEV=gpu timeout 60 ./lt $D/$k 1920 1080 15 < cfg-rgb.txt 2>&1 | grep -E "us \(min"; done > $OUT/rgb-harness.txt
cd - > /dev/null
mkdir -p build/gst build/tools
use () {
  cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/
  rm -f /tmp/reg.bin
}
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
use new
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=blurs timeout 90 $D/new/test_formats > $OUT/formats-blurs.log 2>&1; echo "rc=$?" >> $OUT/formats-blurs.log
  grep -E '^[0-9]+%' $OUT/formats-blurs.log )
B=$D/clconvolve-bench
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 7,15,31,63"
for build in old new old new; do
  use $build
  for res in 1920x1080 3840x2160; do
    $B $S --res $res -l $build-sep-gaussian --element "clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true"
  done
done > $OUT/kern.jsonl 2> $OUT/kern.log
grep -E "x floor" $OUT/kern.log | awk '{print $1, $3, $4, $(NF-4)}' | paste - - - - - - - -
awk '/^==/{k=$2} /us \(min/{for(i=1;i<=NF;i++) if($i=="us") print k, $1, $2$3, $(i-1)}' $OUT/rgb-harness.txt | paste - - - - - - - -
