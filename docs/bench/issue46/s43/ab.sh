#!/bin/bash
# s43 device run (issue 46, not run in session 43: no device lent): one gather launch for all
# sizes of a regions frame (8f35ec5, devbench/s43/after) against the build before it
# (2c6f0ff, devbench/s43/before); 50 regions of mixed sizes (the frame moved whole, batches
# gathered and scattered on the device), 50 all at size 15 (one group: nothing changes, the
# control), 10 regions; frames from the element's pool, a cold round then three alternating.
# devbench/s41/clconvolve-bench from build/tests/bench.
D=$PWD/devbench
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
for r in 0 1 2 3; do
  for v in ${V:-before after}; do
    P=/tmp/p-s43-$v; mkdir -p $P; cp $D/s43/$v/libgstclconvolve.so $P/
    export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-s43-$v.bin
    export GST_CLCONVOLVE_HELPER=$D/s43/$v/clconvolve-warmup
    for n in 10 50; do
      timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 1 -l r$r-$v-regions-$n \
        --element "$R"
    done
    timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 1 -l r$r-$v-regions-50-size15 \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true"
  done
done 2>/dev/null | grep '"kind":"element"' > $OUT/ab-s43.jsonl
python3 docs/bench/issue46/s42/summary.py $OUT/ab-s43.jsonl
