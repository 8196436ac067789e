#!/bin/bash
# s42 device run 2 (issue 46): a host frame's regions moved whole in pageable memory (a pool of
# plain memory handed over, --system-memory --hand-over) up through pinned staging (stg, as
# 669c2ef) and down through it as well (sd: staged-down.patch); 50 regions, and the whole frame
# at gaussian 15 from pageable memory (the path the element's whole frames take); a cold round
# then two, builds alternating (devbench/s41). V: the builds.
D=$PWD/devbench/s41
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
for r in 0 1 2; do
  for v in ${V:-stg sd}; do
    P=/tmp/p-$v; mkdir -p $P; cp $D/$v/libgstclconvolve.so $P/
    export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-$v.bin
    export GST_CLCONVOLVE_HELPER=$D/$v/clconvolve-warmup
    timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --system-memory --hand-over --regions 50 --runs 1 --seconds 1 -l r$r-$v-regions-50-pageable \
      --element "$R"
    timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --system-memory --hand-over --runs 1 --seconds 1 -l r$r-$v-whole-pageable \
      --element "clconvolve kernel=gaussian size={size}"
  done
done 2>/dev/null | grep '"kind":"element"' > $OUT/ab2.jsonl
python3 docs/bench/issue46/s42/summary.py $OUT/ab2.jsonl
