#!/bin/bash
# s32 GPU: many regions on a discrete device: fce77f4 (b) against no region events (c, whole
# off) and the frame moved whole (c, REGION_WHOLE=1), 10 and 50 regions, alternating rounds
D=$PWD/devbench/s32  # b: fce77f4's plugin and bench, c: the change (built here, copied there)
mkdir -p build/gst build/tools build/tests/bench
cp $D/b/clconvolve-bench $D/b/libcltime.so build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
run () { # label binary-dir whole regions
  cp $D/$2/libgstclconvolve.so build/gst/; cp $D/$2/clconvolve-warmup build/tools/
  GST_CLCONVOLVE_REGION_WHOLE=$3 build/tests/bench/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $4 --runs 1 --seconds 2 --label "$1-$4" \
    --element "clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"' >> $OUT/whole.jsonl
}
for r in 1 2 3; do
  for n in 10 50; do
    run before b 100000 $n; run no-events c 100000 $n; run whole c 1 $n
  done
  cp $D/c/libgstclconvolve.so build/gst/
  build/tests/bench/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --runs 1 --seconds 2 --label whole-frame \
    --element "clconvolve kernel=gaussian size={size}" 2>/dev/null | grep '"kind":"element"' >> $OUT/whole.jsonl
done
python3 - $OUT/whole.jsonl <<'PY'
import json, statistics, sys
by = {}
for l in open(sys.argv[1]):
    r = json.loads(l); by.setdefault(r['label'], []).append(r['fps']['median'])
for k, v in by.items():
    print('%-16s %s median %.1f' % (k, ' '.join('%.1f' % x for x in v), statistics.median(v)))
PY
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  for w in 1 100000; do GST_CLCONVOLVE_REGION_WHOLE=$w CK_RUN_CASE=regions timeout 150 $D/c/test_formats > $OUT/t-regions-whole$w.log 2>&1; echo "rc=$?" >> $OUT/t-regions-whole$w.log; done )
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-220
