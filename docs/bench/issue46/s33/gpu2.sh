#!/bin/bash
# s33 GPU: regions in flight, the session's build: the whole-frame threshold (10 regions moved
# whole with GST_CLCONVOLVE_REGION_WHOLE=1 against window by window) and max-inflight 3 against
# the default 2, 1080p RGBA, roi-scale=0.2 roi-margin-scale=0.1, 3 alternating rounds
D=$PWD/devbench/s33
mkdir -p build/gst build/tools build/tests/bench
cp $D/b/clconvolve-bench $D/b/libcltime.so build/tests/bench/
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
B=build/tests/bench/clconvolve-bench
E_="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
run () {  # label regions [env] [extra properties]
  env $3 $B --res 1920x1080 --sizes 15 --hand-over --regions $2 --runs 1 --seconds 2 --label $1 \
    --element "$E_ $4" 2>/dev/null | grep '"kind":"element"' >> $OUT/gpu2.jsonl
}
for r in 1 2 3; do
  run r10 10; run r10-whole 10 GST_CLCONVOLVE_REGION_WHOLE=1
  run r10-if3 10 "" max-inflight=3; run r10-whole-if3 10 GST_CLCONVOLVE_REGION_WHOLE=1 max-inflight=3
  run r50 50; run r50-if3 50 "" max-inflight=3; run r50-if1 50 "" max-inflight=1
done
python3 - $OUT/gpu2.jsonl <<'P' | tee $OUT/gpu2.txt
import json, statistics, sys
by = {}
for l in open(sys.argv[1]):
    r = json.loads(l); by.setdefault(r['label'], []).append(r['fps']['median'])
for k, v in by.items(): print('%-16s %s  median %.1f' % (k, ' '.join('%.1f' % x for x in v), statistics.median(v)))
P
