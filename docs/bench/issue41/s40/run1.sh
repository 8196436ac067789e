#!/bin/bash
# s40 device run 1: the committed tsep (498d136 onwards) forced (GST_CLCONVOLVE_TENSOR=2) through
# the formats blurs and regions cases, regions and rgb with it off (session 39's row bands on a
# GPU), then kernel alone: tsep against lsep, gaussian and box
. docs/bench/issue41/s40/setup.sh
(cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
for c in blurs:2 regions:2 regions:0 rgb:0; do
  n=${c%:*}; t=${c#*:}
  (GST_CLCONVOLVE_TENSOR=$t GST_REGISTRY=/tmp/reg-$n$t.bin CK_RUN_CASE=$n timeout 200 $D/test_formats > $OUT/t-formats-$n-t$t.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$n-t$t.log) &
done
wait)
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | grep -v "expected separable box" | cut -c1-260 | head -12
export GST_REGISTRY=/tmp/reg.bin
S="--runs 3 --seconds 0.2 --min-frames 10"
G='clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true'
B='clconvolve method=separable kernel=box size={size} bands=1 profiling=true'
for t in 2 0; do
  GST_CLCONVOLVE_TENSOR=$t timeout 40 $D/clconvolve-bench $S --sizes 3,15,31,63 --res 1920x1080 -l t$t-gaussian --element "$G"
  GST_CLCONVOLVE_TENSOR=$t timeout 40 $D/clconvolve-bench $S --sizes 3,15,31,63 --res 3840x2160 -l t$t-gaussian --element "$G"
  GST_CLCONVOLVE_TENSOR=$t timeout 30 $D/clconvolve-bench $S --sizes 15,63 --res 1920x1080 -l t$t-box --element "$B"
done > $OUT/kern.jsonl 2> $OUT/kern.log
grep -E "floor|kernel|error|ERROR" $OUT/kern.log | cut -c1-200 | head -40
# issue 46 on a GPU: regions, a plugin at f9ba7d0 (old) against this tree's (new: the s39 row
# bands, the region copies' fixed work-groups), two alternating rounds, frames handed over
unset GST_CLCONVOLVE_TENSOR
for r in 1 2; do
  for v in old new; do
    P=/tmp/p-$v; mkdir -p $P; cp $D/$v/libgstclconvolve.so $P/
    export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-$v.bin
    export GST_CLCONVOLVE_HELPER=$D/$v/clconvolve-warmup
    for n in 10 50; do
      timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 1 -l $v-regions-$n \
        --element "clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
    done
    timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 47 --hand-over --regions 8 --region-side 200 --runs 1 --seconds 1 -l $v-regions-8x200-47 \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
    timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --runs 1 --seconds 1 -l $v-whole \
      --element "clconvolve kernel=gaussian size={size}" 2>/dev/null | grep '"kind":"element"'
  done
done > $OUT/regions.jsonl
python3 -c "
import json,sys,collections
d=collections.defaultdict(list)
for l in open('$OUT/regions.jsonl'):
    r=json.loads(l); d[r.get('label')].append(r['fps']['median'])
for k,v in d.items(): print(k, v)
"
