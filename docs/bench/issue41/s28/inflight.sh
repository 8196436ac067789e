#!/bin/bash
# s28 device run 11: max-inflight automatic (0: 2 on a GPU from a source not live): memory,
# clconvolve and formats suites on the GPU; the element at the default against max-inflight=1
D=$PWD/devbench/s28
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  timeout 150 $D/new/test_memory > $OUT/memory.log 2>&1; echo "rc=$?" >> $OUT/memory.log
  timeout 150 $D/new/test_clconvolve > $OUT/clconvolve.log 2>&1; echo "rc=$?" >> $OUT/clconvolve.log
  for c in rgb blurs; do CK_RUN_CASE=$c timeout 90 $D/new/test_formats > $OUT/formats-$c.log 2>&1; echo "rc=$?" >> $OUT/formats-$c.log; done
  for f in $OUT/*.log; do echo "$f: $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done )
B=$D/clconvolve-bench
for round in 1 2 3; do
  for m in 1 0; do
    $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --max-inflight $m --what transfer,element -l inflight$m
    $B --runs 1 --seconds 1 --min-frames 10 --res 1920x1080 --sizes 7,15 --kernels gaussian,motionblur --methods auto --max-inflight $m --what transfer,element -l inflight$m
  done
done > $OUT/elem.jsonl 2> $OUT/elem.log
grep -E "fps \(|limit" $OUT/elem.log | awk '{print $1, $2, $3, $4, $5, $6, $7}' | head -40
