#!/bin/bash
# s32 GPU: batched region windows (d) against 05f0f17-like per-window launches (c), 10 and 50
# regions, alternating; then the regions suite with the batching build
D=$PWD/devbench/s32
mkdir -p build/gst build/tools build/tests/bench
cp $D/b/clconvolve-bench $D/b/libcltime.so build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
run () { # label binary-dir regions scale
  cp $D/$2/libgstclconvolve.so build/gst/; cp $D/$2/clconvolve-warmup build/tools/
  build/tests/bench/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $3 --runs 1 --seconds 2 --label "$1-$3-$4" \
    --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-scale=$4 roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"' >> $OUT/batch.jsonl
}
for r in 1 2 3; do
  for n in 10 50; do
    run perwindow c $n 0.2; run batched d $n 0.2; run perwindow c $n 0; run batched d $n 0
  done
done
python3 - $OUT/batch.jsonl <<'PY'
import json, statistics, sys
by = {}
for l in open(sys.argv[1]):
    r = json.loads(l); by.setdefault(r['label'], []).append(r['fps']['median'])
for k, v in sorted(by.items()):
    print('%-22s %s median %.1f' % (k, ' '.join('%.1f' % x for x in v), statistics.median(v)))
PY
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=regions timeout 200 $D/d/test_formats > $OUT/t-regions.log 2>&1; echo "rc=$?" >> $OUT/t-regions.log )
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-220
