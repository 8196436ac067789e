#!/bin/bash
# The next session's device run, prepared in session 42 (no device time was left for it):
# 1. issue 46: the staged download (ab2.sh: stg, as 669c2ef, against sd, + staged-down.patch);
# 2. issue 46: the device timeline of 50 regions in the element's pinned pool (the plugin of
#    8f35ec5, session 43's one gather launch), to see why a
#    regions frame's upload, kernels and download do not overlap across frames (session 41's
#    profile) when the whole frame's do: the TRACE lines of tests/bench/timeline.py, kept
#    under $OUT (draw them here with timeline.py);
# 3. issue 41: the gaps and first frame with tsep on at the head (the tuner leaves it out
#    below 17 since 7860597), against GST_CLCONVOLVE_TENSOR=0.
# devbench/s41/{stg,sd,hb}: the plugin and helper of 669c2ef, of 669c2ef with
# staged-down.patch, of the head; devbench/s41/clconvolve-bench and clconvolve-gaps from the
# head's build/tests/bench (gaps.sh takes hb). Call with carry [".devgst", "devbench"]:
#   . .devgst/activate.sh >/dev/null 2>&1; bash docs/bench/issue46/s42/next.sh
D=$PWD/devbench/s41
# session 43 (no device lent then): its one gather launch first (docs/bench/issue46/s43/ab.sh,
# builds in devbench/s43/{before,after})
timeout 110 bash docs/bench/issue46/s43/ab.sh
timeout 150 bash docs/bench/issue46/s42/ab2.sh
P=/tmp/p-tl; mkdir -p $P; cp $D/../s43/after/libgstclconvolve.so $P/
GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-tl.bin \
  GST_CLCONVOLVE_HELPER=$D/../s43/after/clconvolve-warmup GST_DEBUG=clconvolve:TRACE GST_DEBUG_NO_COLOR=1 \
  GST_DEBUG_FILE=/tmp/tl.log timeout 60 $D/clconvolve-bench --res 1920x1080 --sizes 15 \
  --hand-over --regions 50 --runs 1 --seconds 0.3 --element "clconvolve kernel=gaussian \
  roi-meta=true roi-scale=0.2 roi-margin-scale=0.1 profiling=true" > /dev/null 2>&1
grep 'timeline frame=' /tmp/tl.log | tail -3000 > $OUT/tl-regions-50.log
wc -l $OUT/tl-regions-50.log
RUNS=2 GT=100 bash docs/bench/issue41/s42/gaps.sh
