#!/bin/bash
# s36 device runs 2, 6 and 7: a build's formats cases and the clconvolve suite on the H200, in
# parallel (150 s each); logs under $OUT. usage: suites.sh BUILD CASES
#   run 2: suites.sh new "blurs regions yuv deep"  (lsep's wide tiles, f5568c6)
#   run 6: suites.sh new2 "vector rgb blurs"       (vector/vsplit edge blocks, c0ce04a)
#   run 7: suites.sh new3 "vector rgb"             (edge blocks in rolled loops, 5537564)
D=$PWD/devbench/s36
mkdir -p build/gst build/tools
cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
nvidia-smi -L > $OUT/gpu.txt 2>&1
cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
for c in $2; do
  (GST_REGISTRY=/tmp/reg-$c.bin CK_RUN_CASE=$c timeout 150 $D/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log) &
done
(GST_REGISTRY=/tmp/reg-c.bin timeout 150 $D/test_clconvolve > $OUT/t-clconvolve.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve.log) &
wait
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-300
