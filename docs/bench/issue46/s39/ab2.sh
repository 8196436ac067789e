#!/bin/bash
# A/B of the windows launched one by one writing their region's rows alone (session 39):
# B = /tmp/abB (the blocks' change only), C = /tmp/abC (with this change); ROUNDS alternating
# rounds. usage: ab2.sh OUT.jsonl [ROUNDS], from the repository root
OUT=$1 ROUNDS=${2:-3}
B=build/tests/bench/clconvolve-bench
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
for r in $(seq $ROUNDS); do
  for v in B C; do
    export GST_PLUGIN_PATH=/tmp/ab$v GST_REGISTRY=/tmp/reg-$v.bin
    $B --res 1920x1080 --sizes 47 --hand-over --regions 1 --region-side 200 --runs 1 --seconds 2 --label "$v-1x200-size-47" \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
    GST_CLCONVOLVE_DISCRETE=1 $B --res 1920x1080 --sizes 15 --hand-over --regions 10 --runs 1 --seconds 2 --label "$v-discrete-regions-10" \
      --element "clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
  done
done > $OUT
python3 "$(dirname "$0")/summary.py" "$OUT"
