#!/bin/bash
# The next session's device run, prepared in session 41 (no machine was left for it):
# 1. issue 46: a host frame's windows batched against one launch a window
#    (docs/bench/issue46/s41-host-batches.sh, needs devbench/s41/head and devbench/s41/hb);
# 2. issue 41: the live-change gaps and the first frame with tsep on by default against
#    GST_CLCONVOLVE_TENSOR=0, on a schedule of large blurs, three fresh-cache rounds each
#    (tests/bench/gaps.sh; NVIDIA's compute cache off so that cold is cold).
# 1b. issue 46: the copies' table uploaded on the upload queue (tab: the head with
#    docs/bench/issue46/s41-table-on-up.patch), for the 50 regions that move the frame whole;
#    a pageable write on the kernels' queue may hold the next frame until the kernels before
#    it end (the stages of a 50-region frame did not overlap in session 41's profile).
# devbench is not committed; to rebuild it: devbench/s41/head/ the plugin and helper built at
# 70f2223 (before the host batches: git worktree add /tmp/old 70f2223; meson setup and ninja
# there), devbench/s41/hb/ those of the head, devbench/s41/tab/ those of the head with the
# patch applied, devbench/s41/clconvolve-bench and
# devbench/s41/clconvolve-gaps from the head's build/tests/bench. Call with carry
# [".devgst", "devbench"]: . .devgst/activate.sh >/dev/null 2>&1; bash docs/bench/issue41/s41/next.sh
V="head hb tab" bash docs/bench/issue46/s41-host-batches.sh
D=$PWD/devbench/s41
mkdir -p build/gst build/tools build/tests/bench
cp $D/hb/libgstclconvolve.so build/gst/; cp $D/hb/clconvolve-warmup build/tools/
cp $D/clconvolve-gaps build/tests/bench/
export GST_REGISTRY=/tmp/reg-gaps.bin CUDA_CACHE_DISABLE=1
SCHED="size=31,size=63,kernel=box size=31,kernel=gaussian size=47,size=15,size=63"
for t in 0 1; do
  GST_CLCONVOLVE_TENSOR=$t RUNS=3 timeout 280 tests/bench/gaps.sh --res 1920x1080 --every 30 \
    --schedule "$SCHED" > $OUT/gaps-t$t.txt 2>&1
  tail -1 $OUT/gaps-t$t.txt
done
