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
bash docs/bench/gpu-suites.sh $D/new
