#!/bin/bash
# s32 GPU, the session's build: issue 46's region bench and the GPU suites
D=$PWD/devbench/s32
mkdir -p build/gst build/tools build/tests/bench
cp $D/e/libgstclconvolve.so build/gst/; cp $D/e/clconvolve-warmup build/tools/
cp $D/b/clconvolve-bench $D/b/libcltime.so build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
bash docs/bench/issue46/s32/regions.sh $OUT/gpu-regions-final.jsonl 3 | tee $OUT/gpu-regions-final.txt
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=memory timeout 150 $D/e/test_memory > $OUT/t-memory.log 2>&1; echo "rc=$?" >> $OUT/t-memory.log
  timeout 150 $D/e/test_clconvolve > $OUT/t-clconvolve.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve.log
  for c in blurs regions; do CK_RUN_CASE=$c timeout 150 $D/e/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log; done )
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-220
