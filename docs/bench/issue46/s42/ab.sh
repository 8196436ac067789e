#!/bin/bash
# s42 device run (issue 46): regions frames on a GPU, builds alternating (directories of
# devbench/s41): head (70f2223, before the host-frame batches), hb (1f8765c, with them), tab
# (hb with the copies' table on the upload queue, docs/bench/issue46/s41-table-on-up.patch),
# stg (hb with a pageable frame moved whole staged through pinned memory), st2 (stg + tab).
# 10 regions and 8 of 200 pixels at 47 (windows alone: head against the others), 50 regions
# (the frame moved whole), also from a pool of pageable memory (--system-memory --hand-over,
# which stg stages), a cold round then three. V: the builds, default all five.
D=$PWD/devbench/s41
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
for r in 0 1 2 3; do
  for v in ${V:-head hb tab stg st2}; do
    P=/tmp/p-$v; mkdir -p $P; cp $D/$v/libgstclconvolve.so $P/
    export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-$v.bin
    export GST_CLCONVOLVE_HELPER=$D/$v/clconvolve-warmup
    for n in 10 50; do
      timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 1 -l r$r-$v-regions-$n \
        --element "$R"
    done
    timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --system-memory --hand-over --regions 50 --runs 1 --seconds 1 -l r$r-$v-regions-50-pageable \
      --element "$R"
    timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 47 --hand-over --regions 8 --region-side 200 --runs 1 --seconds 1 -l r$r-$v-regions-8x200-47 \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1"
  done
done 2>/dev/null | grep '"kind":"element"' > $OUT/ab.jsonl
python3 docs/bench/issue46/s42/summary.py $OUT/ab.jsonl
