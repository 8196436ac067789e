#!/bin/bash
# s41 device run 7 (issue 46): frames in flight for regions on a GPU: 50 regions (the frame up
# and down whole) and 8 of 200 pixels at max-inflight 2 (the default), 3 and 4, two rounds.
D=$PWD/devbench/s41
P=/tmp/p-head; mkdir -p $P; cp $D/head/libgstclconvolve.so $P/
export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-head.bin
export GST_CLCONVOLVE_HELPER=$D/head/clconvolve-warmup
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
timeout 30 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 0.5 -l warm --element "$R" > /dev/null 2>&1
for r in 1 2; do
  for m in 2 3 4; do
    timeout 30 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 1 -l r$r-m$m-regions-50 \
      --element "$R max-inflight=$m"
    timeout 30 $D/clconvolve-bench --res 1920x1080 --sizes 47 --hand-over --regions 8 --region-side 200 --runs 1 --seconds 1 -l r$r-m$m-regions-8x200-47 \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1 max-inflight=$m"
  done
done 2>/dev/null | grep '"kind":"element"' > $OUT/inflight.jsonl
python3 -c "
import json,collections
d=collections.defaultdict(list)
for l in open('$OUT/inflight.jsonl'):
    r=json.loads(l); d[r['label'].split('-',1)[1]].append(round(r['fps']['median']))
for k,v in sorted(d.items()): print(k, v)
"
