#!/bin/bash
# the tune suite on the GPU with the meson environment's fresh context
D=$PWD/devbench/s28
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg-tune.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024 GST_CLCONVOLVE_KEEP_CONTEXT=0 XDG_CACHE_HOME=/tmp/tune-home
  timeout 150 $D/new/test_tune > $OUT/tune.log 2>&1; echo "rc=$?" >> $OUT/tune.log )
grep -E '^[0-9]+%' $OUT/tune.log
