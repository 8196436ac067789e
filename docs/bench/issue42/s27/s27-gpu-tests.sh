#!/bin/bash
# device run (issues 42/41, session 27): the border as a kernel argument; the new build's
# formats cases and clconvolve suite on the GPU (NVIDIA's OpenCL)
D=$PWD/devbench/s27
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH_1_0=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
cd /tmp
for c in blurs regions rgb combine sparse yuv deep; do
  CK_RUN_CASE=$c timeout 75 $D/test_formats > $OUT/formats-$c.log 2>&1
  echo "rc=$?" >> $OUT/formats-$c.log
done
timeout 70 $D/test_clconvolve > $OUT/clconvolve.log 2>&1; echo "rc=$?" >> $OUT/clconvolve.log
