#!/bin/bash
# s36 device run 6: c0ce04a (vector/vsplit edge blocks as vectors) on the H200: formats cases
# vector, rgb, blurs and the clconvolve suite, in parallel (150 s each); logs under $OUT
D=$PWD/devbench/s36
mkdir -p build/gst build/tools
cp $D/new2/libgstclconvolve.so build/gst/; cp $D/new2/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
for c in vector rgb blurs; do
  (GST_REGISTRY=/tmp/reg-$c.bin CK_RUN_CASE=$c timeout 150 $D/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log) &
done
(GST_REGISTRY=/tmp/reg-c.bin timeout 150 $D/test_clconvolve > $OUT/t-clconvolve.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve.log) &
wait
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-300
