#!/bin/bash
# session 29, device run B (2 GPUs): issue 45's matrix through run-bench --parts gpus (default
# launch line against all on one GPU, 1-16 streams, max-inflight 1 and 3, the transfer limit of
# the GPUs alone and together, staggered starts); a kernel-bound case (gaussian 31 tiled); a live
# change after the helper idled out (GST_CLCONVOLVE_HELPER_IDLE=2).
D=$PWD/devbench/s29/now
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
cp $D/clconvolve-bench $D/clconvolve-gaps build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin XDG_CACHE_HOME=/tmp/cB
unset GST_CLCONVOLVE_HELPER
B=build/tests/bench/clconvolve-bench
timeout 400 python3 tests/bench/run-bench --parts gpus --res 1920x1080 --seconds 1 --runs 3 --out $OUT/gpus.jsonl > $OUT/gpus.log 2>&1
echo "run-bench rc=$?" >> $OUT/gpus.log
H="-r 1920x1080 -s 31 -k gaussian -m tiled -t 1 --runs 3 --streams 1,2"
timeout 60 $B $H -l heavy-default > $OUT/heavy.jsonl 2> $OUT/heavy.err
timeout 60 $B $H -d 0:0 -l heavy-one >> $OUT/heavy.jsonl 2>> $OUT/heavy.err
GST_CLCONVOLVE_HELPER_IDLE=2 GST_DEBUG=clworker:4,clcontext:4 GST_DEBUG_FILE=$OUT/idle.log timeout 60 \
  build/tests/bench/clconvolve-gaps --res 1920x1080 --fps 60 --every 240 \
  --schedule "size=9,size=11,size=13" -d 0:0 > $OUT/idle.jsonl 2> $OUT/idle.err
echo "gaps rc=$?" >> $OUT/idle.err
grep "^gpus:" $OUT/gpus.log; grep fps $OUT/heavy.err; tail -25 $OUT/idle.err
