#!/bin/bash
# session 29, device run D (2 GPUs): three alternating rounds of the two GPUs' transfer limit
# together, the default launch line (2-16 streams, max-inflight 1 and 3) and all on one GPU.
D=$PWD/devbench/s29/now
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin XDG_CACHE_HOME=/tmp/cD
unset GST_CLCONVOLVE_HELPER
B=build/tests/bench/clconvolve-bench
S="-r 1920x1080 -s 7 -k motionblur -m auto -t 1 --runs 1 --streams 1,2,4,8,16"
for r in 1 2 3; do
  timeout 30 $B --what none --transfer-together 0:0,0:1 -r 1920x1080 -t 1 >> $OUT/d.jsonl 2>> $OUT/d.err
  timeout 100 $B $S -l default-r$r >> $OUT/d.jsonl 2>> $OUT/d.err
  timeout 100 $B $S --max-inflight 3 -l default-mi3-r$r >> $OUT/d.jsonl 2>> $OUT/d.err
  timeout 100 $B $S -d 0:0 -l one-r$r >> $OUT/d.jsonl 2>> $OUT/d.err
  timeout 100 $B $S -d 0:0 --max-inflight 3 -l one-mi3-r$r >> $OUT/d.jsonl 2>> $OUT/d.err
done
grep -h "fps\|transfer" $OUT/d.err | cut -c1-150
