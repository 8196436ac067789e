#!/bin/bash
# device run 4 (issue 41, session 24): lsep strips of 64 rows against 128 (two builds that
# differ only in LSEP_STRIP), alternating: 1080p kernel alone and the 4K gaussian 31 element at
# the default against the same run's transfer limit
D=$PWD/devbench/s24
mkdir -p build/gst build/tools build/tests/bench b64/gst b64/tools
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/; cp $D/clconvolve-bench build/tests/bench/
cp $D/strip64/libgstclconvolve.so b64/gst/; cp $D/strip64/clconvolve-warmup b64/tools/
B=$PWD/build/tests/bench/clconvolve-bench
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 7,15,31"
for i in 1 2; do
  for v in build b64; do
    export GST_PLUGIN_PATH=$PWD/$v/gst GST_CLCONVOLVE_HELPER=$PWD/$v/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg-$v.bin
    $B $S --res 1920x1080 -l k-$v --element "clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true autotune=false"
    $B --runs 3 --seconds 0.5 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods separable --what transfer,element -l e-$v
  done
done > $OUT/strip.jsonl 2> $OUT/strip.log
