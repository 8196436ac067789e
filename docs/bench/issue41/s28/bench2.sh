#!/bin/bash
# s28 device run 6: lsep's vertical loop unrolled by 2 from size 15 ("new") against 3d2eeef
# ("mid"): formats blurs and regions on the GPU; kernel alone, builds alternating, 2 rounds
D=$PWD/devbench/s28
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
  for c in blurs regions; do
    CK_RUN_CASE=$c timeout 90 $D/new/test_formats > $OUT/formats-$c.log 2>&1; echo "rc=$?" >> $OUT/formats-$c.log
    grep -E '^[0-9]+%' $OUT/formats-$c.log
  done )
B=$D/clconvolve-bench
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 7,15,31,63"
for round in 1 2; do
  for build in mid new; do
    use $build
    for res in 1920x1080 3840x2160; do
      $B $S --res $res -l $build-sep-gaussian --element "clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true"
    done
  done
done > $OUT/kern.jsonl 2> $OUT/kern.log
for round in 1 2 3; do
  for build in mid new; do
    use $build
    $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what transfer,element -l $build-elem
  done
done > $OUT/elem.jsonl 2> $OUT/elem.log
grep -E "x floor" $OUT/kern.log $OUT/elem.log | sed 's/.*log://' | awk '{print $1, $4, $5, $6, $(NF-3), $(NF-2)}'
