#!/bin/bash
# device run 5 (issue 41, session 24): the final build: formats and clconvolve suites on the
# GPU; kernel alone (bands=1 profiling=true) for gaussian and box 3-63 (method=auto, tuned)
# and the dense 7x7 (motionblur, tiled) at 1080p and 4K, each with the same run's floor (one
# frame copied on the device); the 4K gaussian 31 element against the transfer limit
D=$PWD/devbench/s24
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/; cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
B=$PWD/build/tests/bench/clconvolve-bench
(
  cd /tmp
  export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH CK_FORK=no GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_SYNC_BUILDS=1
  timeout 250 $D/test_formats > $OUT/formats.txt 2>&1; echo "rc=$?" >> $OUT/formats.txt
  timeout 120 $D/test_clconvolve > $OUT/clconvolve.txt 2>&1; echo "rc=$?" >> $OUT/clconvolve.txt
)
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 3,7,15,31,63"
for res in 1920x1080 3840x2160; do
  for k in gaussian box; do
    $B $S --res $res -l auto-$k --element "clconvolve method=auto kernel=$k size={size} bands=1 profiling=true"
  done
  $B --runs 3 --seconds 0.3 --min-frames 10 --sizes 7 --res $res -l dense7 --element "clconvolve method=auto kernel=motionblur size={size} bands=1 profiling=true"
done > $OUT/kern.jsonl 2> $OUT/kern.log
for i in 1 2 3; do
  $B --runs 3 --seconds 0.5 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what transfer,element -l def
  $B --runs 3 --seconds 0.5 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --max-inflight 3 -l inflight3
done > $OUT/elem4k.jsonl 2> $OUT/elem4k.log
