#!/bin/bash
# s44 device run (issue 46): a 50-region frame moved whole in three builds, a cold round then
# two alternating: s43b (2c6f0ff: a gather and a scatter launch per kernel size, edge windows
# launched alone), s43a (c76d802: one gather launch), s44 (this session: edge windows
# gathered through the border rule into the batches, one scatter launch of the regions cut
# where a later size overlaps them); 50 regions of mixed sizes, 10 regions, 50 all at size
# 15, and the whole frame at gaussian 15 (the same in all three); frames from the element's
# pool. devbench/s41/clconvolve-bench from build/tests/bench. V: the builds.
D=$PWD/devbench
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
for r in 0 1 2; do
  for v in ${V:-s43b s43a s44}; do
    case $v in s43b) B=$D/s43/before;; s43a) B=$D/s43/after;; s44) B=$D/s44/after;; esac
    P=/tmp/p-s44-$v; mkdir -p $P; cp $B/libgstclconvolve.so $P/
    export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-s44-$v.bin
    export GST_CLCONVOLVE_HELPER=$B/clconvolve-warmup
    for n in 10 50; do
      timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 1 -l r$r-$v-regions-$n \
        --element "$R"
    done
    timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 1 -l r$r-$v-regions-50-size15 \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true"
    timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --runs 1 --seconds 1 -l r$r-$v-whole \
      --element "clconvolve kernel=gaussian size={size}"
  done
done 2>/dev/null | grep '"kind":"element"' > $OUT/ab-s44.jsonl
python3 docs/bench/issue46/s42/summary.py $OUT/ab-s44.jsonl
