#!/bin/bash
# device run 2 (issue 41, session 24): lsep with 1, 2 or 4 rows per work-item and step: the
# blurs suite; kernel-alone gaussian 3-63 at 1080p and 4K (fixed rule: the most rows that
# fit); method=auto's timed candidates (cltuner log); the 4K gaussian 31 element against the
# transfer limit
D=$PWD/devbench/s24
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/; cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
export GST_CLCONVOLVE_SYNC_BUILDS=1
B=$PWD/build/tests/bench/clconvolve-bench
(
  cd /tmp
  export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH CK_FORK=no GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
  CK_RUN_CASE=blurs timeout 200 $D/test_formats > $OUT/blurs.txt 2>&1; echo "rc=$?" >> $OUT/blurs.txt
)
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 3,7,15,31,63"
for res in 1920x1080 3840x2160; do
  $B $S --res $res -l lsep-gaussian --element "clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true autotune=false"
done > $OUT/kern.jsonl 2> $OUT/kern.log
GST_DEBUG=cltuner:4 $B $S --res 1920x1080 -l auto-gaussian --element "clconvolve method=auto kernel=gaussian size={size} bands=1 profiling=true" > $OUT/auto.jsonl 2> $OUT/auto.log
for i in 1 2 3; do
  $B --runs 3 --seconds 0.5 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods separable --what transfer,element
done > $OUT/elem4k.jsonl 2> $OUT/elem4k.log
