#!/bin/bash
# s44's shortest device call (issue 46), for a budget under 300 s: ab.sh's cases for s43a and
# s44 only, a cold round then two alternating, then the 50-region profile of s44 (--runs 2).
D=$PWD/devbench
nvidia-smi -L > $OUT/gpu.txt 2>&1
mkdir -p $D/s44/ab
ln -sfn $D/s43/after $D/s44/ab/s43a
ln -sfn $D/s44/after $D/s44/ab/s44
BUILDS=$D/s44/ab V="s43a s44" ROUNDS="0 1 2" OUTF=ab-s44-mini.jsonl WHOLE=1 \
  timeout 130 bash docs/bench/issue46/s43/ab.sh
P=/tmp/p-ab-s44
export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-ab-s44.bin
export GST_CLCONVOLVE_HELPER=$D/s44/after/clconvolve-warmup
timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 2 --seconds 1 -l prof-s44-regions-50 \
  --element "clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1 profiling=true" 2>/dev/null | \
  grep '"kind":"element"' > $OUT/profile.jsonl
python3 -c "
import json
for l in open('$OUT/profile.jsonl'):
    r=json.loads(l)
    print(r['label'], round(r['fps']['median']), 'up', r.get('upload_ms'), 'kern', r.get('kernel_ms'), 'down', r.get('download_ms'), 'ovl', r.get('overlap_fraction'))
"
