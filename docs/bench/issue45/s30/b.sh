#!/bin/bash
# s30 device run B (2 GPUs): issue 45's matrix (run-bench --parts gpus) with frames in flight
# sent on when done and max-inflight automatic (2): the default launch line against all on one
# GPU, 1-16 streams, at the default and max-inflight 3, the GPUs' transfer limit alone and
# together, a staggered start.
D=$PWD/devbench/s30/new
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin XDG_CACHE_HOME=/tmp/cB
unset GST_CLCONVOLVE_HELPER
nvidia-smi -L > $OUT/info.txt
timeout 450 python3 tests/bench/run-bench --parts gpus --res 1920x1080 --seconds 1 --runs 3 --out $OUT/gpus.jsonl > $OUT/gpus.log 2>&1
echo "run-bench rc=$?" >> $OUT/gpus.log
grep "^gpus:" $OUT/gpus.log; tail -3 $OUT/gpus.log
