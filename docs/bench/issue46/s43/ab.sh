#!/bin/bash
# s43 device run (issue 46, not run in session 43: no device lent): one gather launch for all
# sizes of a regions frame (8f35ec5, devbench/s43/after) against the build before it
# (2c6f0ff, devbench/s43/before); 50 regions of mixed sizes (the frame moved whole, batches
# gathered and scattered on the device), 50 all at size 15 (one group: nothing changes, the
# control), 10 regions; frames from the element's pool, a cold round then three alternating.
# devbench/s41/clconvolve-bench from build/tests/bench. Reused by later A/Bs: BUILDS (a folder
# of one folder a build), V (the builds), ROUNDS, OUTF (the output's name under $OUT), WHOLE=1
# (the whole frame at gaussian 15 as well).
D=$PWD/devbench
BUILDS=${BUILDS:-$D/s43}
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1"
for r in ${ROUNDS:-0 1 2 3}; do
  for v in ${V:-before after}; do
    P=/tmp/p-ab-$v; mkdir -p $P; cp $BUILDS/$v/libgstclconvolve.so $P/
    export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-ab-$v.bin
    export GST_CLCONVOLVE_HELPER=$BUILDS/$v/clconvolve-warmup
    for n in 10 50; do
      timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 1 -l r$r-$v-regions-$n \
        --element "$R"
    done
    timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 1 -l r$r-$v-regions-50-size15 \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true"
    if [ -n "$WHOLE" ]; then
      timeout 20 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --runs 1 --seconds 1 -l r$r-$v-whole \
        --element "clconvolve kernel=gaussian size={size}"
    fi
  done
done 2>/dev/null | grep --line-buffered '"kind":"element"' > $OUT/${OUTF:-ab-s43.jsonl}
python3 docs/bench/issue46/s42/summary.py $OUT/${OUTF:-ab-s43.jsonl}
