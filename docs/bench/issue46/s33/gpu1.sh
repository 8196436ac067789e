#!/bin/bash
# s33 GPU: issue 46's region bench, the build before regions went in flight ("old", 807132c)
# and after ("new"), alternating, 3 rounds; then the GPU suites with the new build
D=$PWD/devbench/s33
mkdir -p build/gst build/tools build/tests/bench
cp $D/b/clconvolve-bench $D/b/libcltime.so build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
use () { cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/; rm -f /tmp/reg.bin; }
for r in 1 2 3; do for b in old new; do
  use $b
  bash docs/bench/issue46/s32/regions.sh $OUT/regions-$b.jsonl 1 > /dev/null
done; done
for b in old new; do echo "== $b"; python3 - $OUT/regions-$b.jsonl <<'P'
import json, statistics, sys
by = {}
for l in open(sys.argv[1]):
    r = json.loads(l); by.setdefault(r['label'], []).append(r['fps']['median'])
for k, v in by.items(): print('%-20s %s  median %.1f' % (k, ' '.join('%.1f' % x for x in v), statistics.median(v)))
P
done | tee $OUT/regions.txt
use new
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=memory timeout 150 $D/new/test_memory > $OUT/t-memory.log 2>&1; echo "rc=$?" >> $OUT/t-memory.log
  timeout 150 $D/new/test_clconvolve > $OUT/t-clconvolve.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve.log
  for c in blurs regions; do CK_RUN_CASE=$c timeout 150 $D/new/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log; done )
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-220
