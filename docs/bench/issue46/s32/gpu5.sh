#!/bin/bash
# s32 GPU: the copy kernel 16 bytes a work-item (f) against a byte each (e): 50 regions, and the
# regions suite with f
D=$PWD/devbench/s32
mkdir -p build/gst build/tools build/tests/bench
cp $D/b/clconvolve-bench $D/b/libcltime.so build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
run () { # label binary-dir scale
  cp $D/$2/libgstclconvolve.so build/gst/; cp $D/$2/clconvolve-warmup build/tools/
  build/tests/bench/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 2 --label "$1-$3" \
    --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-scale=$3 roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"' >> $OUT/copy16.jsonl
}
for r in 1 2 3; do run byte e 0.2; run vec16 f 0.2; run byte e 0; run vec16 f 0; done
python3 - $OUT/copy16.jsonl <<'PY'
import json, statistics, sys
by = {}
for l in open(sys.argv[1]):
    r = json.loads(l); by.setdefault(r['label'], []).append(r['fps']['median'])
for k, v in sorted(by.items()):
    print('%-12s %s median %.1f' % (k, ' '.join('%.1f' % x for x in v), statistics.median(v)))
PY
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=regions timeout 150 $D/f/test_formats > $OUT/t-regions.log 2>&1; echo "rc=$?" >> $OUT/t-regions.log )
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-220
