#!/bin/bash
# s41 device run 8 (issue 46): a host frame's windows batched (hb: each window up into the
# batch image, one launch a group and view, each region down out of it) against one launch a
# window (head, 70f2223): 10 regions and 8 of 200 pixels (windows moved alone), 50 (the frame
# moved whole: the same path in both, a control), a cold round then three alternating. V: the
# builds (directories of devbench/s41) to alternate, default "head hb"; next.sh adds tab (the
# head with s41-table-on-up.patch, for the 50 regions).
D=$PWD/devbench/s41
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
for r in 0 1 2 3; do
  for v in ${V:-head hb}; do
    P=/tmp/p-$v; mkdir -p $P; cp $D/$v/libgstclconvolve.so $P/
    export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-$v.bin
    export GST_CLCONVOLVE_HELPER=$D/$v/clconvolve-warmup
    for n in 10 50; do
      timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 1 -l r$r-$v-regions-$n \
        --element "$R"
    done
    timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 47 --hand-over --regions 8 --region-side 200 --runs 1 --seconds 1 -l r$r-$v-regions-8x200-47 \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1"
  done
done 2>/dev/null | grep '"kind":"element"' > $OUT/host-batches.jsonl
python3 -c "
import json,collections
d=collections.defaultdict(list)
for l in open('$OUT/host-batches.jsonl'):
    r=json.loads(l); d[r['label'].split('-',1)[1]].append(round(r['fps']['median']))
for k,v in sorted(d.items()): print(k, v)
"
