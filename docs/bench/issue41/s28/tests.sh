#!/bin/bash
# s28 device run 2: the tile form of lsep, GPU suites (formats blurs, regions, yuv, deep; tune; clconvolve)
D=$PWD/devbench/s28
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
cd /tmp
export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
for c in blurs regions yuv deep; do
  CK_RUN_CASE=$c timeout 90 $D/new/test_formats > $OUT/formats-$c.log 2>&1
  echo "rc=$?" >> $OUT/formats-$c.log
done
timeout 100 $D/new/test_tune > $OUT/tune.log 2>&1; echo "rc=$?" >> $OUT/tune.log
timeout 120 $D/new/test_clconvolve > $OUT/clconvolve.log 2>&1; echo "rc=$?" >> $OUT/clconvolve.log
for f in $OUT/*.log; do echo "$f: $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
