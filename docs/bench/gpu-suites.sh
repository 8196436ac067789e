#!/bin/bash
# The suites a device run checks with a build's test programs (DIR: test_memory, test_clconvolve,
# test_formats), the plugin and helper already in build/gst and build/tools: logs and a line
# each under $OUT, then the failures. usage: gpu-suites.sh DIR [SECONDS a suite, default 150]
D=$1 T=${2:-150}
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=memory timeout $T $D/test_memory > $OUT/t-memory.log 2>&1; echo "rc=$?" >> $OUT/t-memory.log
  timeout $T $D/test_clconvolve > $OUT/t-clconvolve.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve.log
  for c in blurs regions; do CK_RUN_CASE=$c timeout $T $D/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log; done )
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-220
