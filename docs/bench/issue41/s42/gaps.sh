#!/bin/bash
# s42 device run (issue 41): live-change gaps and the first frame with tsep on by default (1)
# against GST_CLCONVOLVE_TENSOR=0, large blurs at 1080p, three fresh-cache rounds each, NVIDIA's
# compute cache off so that cold is cold; the plugin of devbench/s41/hb (1f8765c).
D=${GAPS_DEVBENCH:-$PWD/devbench/s41}
mkdir -p build/gst build/tools build/tests/bench
cp $D/hb/libgstclconvolve.so build/gst/; cp $D/hb/clconvolve-warmup build/tools/
cp $D/clconvolve-gaps build/tests/bench/
export GST_REGISTRY=/tmp/reg-gaps.bin CUDA_CACHE_DISABLE=1
SCHED="size=31,size=63,kernel=box size=31,kernel=gaussian size=47,size=15,size=63"
for t in ${TS:-0 1}; do
  GST_CLCONVOLVE_TENSOR=$t RUNS=${RUNS:-3} timeout ${GT:-270} tests/bench/gaps.sh --res 1920x1080 --every 30 \
    --schedule "$SCHED" > $OUT/gaps-t$t.txt 2>&1
  tail -1 $OUT/gaps-t$t.txt
  grep -o '"cache":"[a-z]*","run":[0-9]*\|"first_frame_ms":[0-9.]*\|"worst_gap_ms":[0-9.]*' $OUT/gaps-t$t.txt | paste - - - | head -8
done
