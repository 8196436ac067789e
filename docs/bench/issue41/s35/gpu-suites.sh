#!/bin/bash
# s35 on the device: the memory, clconvolve and formats (blurs, regions) suites of 700a8d8 on the
# H200 (csep's fixed point and the regions' blocks are CPU paths: nothing of them may change a
# GPU's results). Binaries in devbench/s35; logs under $OUT. Per-suite limits keep the call under
# the device's 600 s.
D=$PWD/devbench/s35
mkdir -p build/gst build/tools
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
nvidia-smi -L > $OUT/gpu.txt 2>&1
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=memory timeout 100 $D/test_memory > $OUT/t-memory.log 2>&1; echo "rc=$?" >> $OUT/t-memory.log
  timeout 120 $D/test_clconvolve > $OUT/t-clconvolve.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve.log
  for c in blurs regions; do CK_RUN_CASE=$c timeout 110 $D/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log; done )
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-220
