#!/bin/bash
# A/B of the regions' blocks (session 39): plugins in ADIR (A) and BDIR (B), ROUNDS alternating
# rounds (run 1: A a plugin built at f9ba7d0, B the first change; run 3: B the blocks' span).
# usage: ab.sh OUT.jsonl [ROUNDS] [ADIR] [BDIR], from the repository root
OUT=$1 ROUNDS=${2:-3} ADIR=${3:-/tmp/abA} BDIR=${4:-/tmp/abB}
B=build/tests/bench/clconvolve-bench
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
for r in $(seq $ROUNDS); do
  for v in A B; do
    if [ $v = A ]; then export GST_PLUGIN_PATH=$ADIR; else export GST_PLUGIN_PATH=$BDIR; fi
    export GST_REGISTRY=/tmp/reg-$v-$(basename $GST_PLUGIN_PATH).bin
    for n in 10 50; do
      $B --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 2 --label "$v-regions-$n" \
        --element "clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
    done
    $B --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 2 --label "$v-regions-50-size-15" \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
    $B --res 1920x1080 --sizes 47 --hand-over --regions 8 --region-side 200 --runs 1 --seconds 2 --label "$v-regions-8x200-size-47" \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
    $B --res 1920x1080 --sizes 15 --hand-over --runs 1 --seconds 2 --label "$v-whole-frame" \
      --element "clconvolve kernel=gaussian size={size}" 2>/dev/null | grep '"kind":"element"'
  done
done > $OUT
python3 "$(dirname "$0")/summary.py" "$OUT"
