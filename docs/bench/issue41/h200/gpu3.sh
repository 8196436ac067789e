#!/bin/bash
# device run 3 (issue 41, session 24): the formats, tune and clconvolve suites on the GPU with
# the final kernels; the 4K gaussian 31 element (default and max-inflight 3) against the same
# run's transfer limit, three rounds
D=$PWD/devbench/s24
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/; cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
B=$PWD/build/tests/bench/clconvolve-bench
(
  cd /tmp
  export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH CK_FORK=no GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_SYNC_BUILDS=1
  timeout 240 $D/test_formats > $OUT/formats.txt 2>&1; echo "rc=$?" >> $OUT/formats.txt
  mkdir -p /tmp/tunehome; XDG_CACHE_HOME=/tmp/tunehome GST_CLCONVOLVE_KEEP_CONTEXT=0 timeout 120 $D/test_tune > $OUT/tune.txt 2>&1; echo "rc=$?" >> $OUT/tune.txt
  timeout 150 $D/test_clconvolve > $OUT/clconvolve.txt 2>&1; echo "rc=$?" >> $OUT/clconvolve.txt
)
for i in 1 2 3; do
  $B --runs 3 --seconds 0.5 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what transfer,element -l def
  $B --runs 3 --seconds 0.5 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --max-inflight 3 -l inflight3
done > $OUT/elem4k.jsonl 2> $OUT/elem4k.log
