#!/bin/bash
# s41 device run 6 (issue 46): where a regions frame's time goes on a GPU. The commands of
# regions.sh with profiling=true (per-stage device times, the overlap of the transfer queues),
# and the regions path's plan of one 50-region frame from the debug log.
D=$PWD/devbench/s41
P=/tmp/p-head; mkdir -p $P; cp $D/head/libgstclconvolve.so $P/
export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-head.bin
export GST_CLCONVOLVE_HELPER=$D/head/clconvolve-warmup
nvidia-smi -L > $OUT/gpu.txt 2>&1
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
for pr in false true; do
  for n in 10 50; do
    timeout 30 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 3 --seconds 1 -l p$pr-regions-$n \
      --element "$R profiling=$pr"
  done
  timeout 30 $D/clconvolve-bench --res 1920x1080 --sizes 47 --hand-over --regions 8 --region-side 200 --runs 3 --seconds 1 -l p$pr-regions-8x200-47 \
    --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1 profiling=$pr"
  timeout 30 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --runs 3 --seconds 1 -l p$pr-whole \
    --element "clconvolve kernel=gaussian size={size} profiling=$pr"
done > $OUT/profile.jsonl 2> $OUT/profile.log
python3 -c "
import json
for l in open('$OUT/profile.jsonl'):
    r=json.loads(l)
    if r.get('kind')!='element': continue
    print(r['label'], round(r['fps']['median']), 'up', r.get('upload_ms'), 'kern', r.get('kernel_ms'), 'down', r.get('download_ms'), 'ovl', r.get('overlap_fraction'), 'cpu', r.get('cpu_ms_per_frame',{}).get('median'), 'paths', r.get('input_path'), r.get('output_path'))
"
GST_DEBUG=clconvolve:6 timeout 30 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 0.2 -l dbg \
  --element "$R" 2>&1 >/dev/null | grep -E "regions: [0-9]+ parts" | sort | uniq -c | head -5
