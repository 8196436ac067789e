#!/bin/bash
# device run (issue 41, session 24): the blurs suite on the GPU; kernel-alone time of
# gaussian and box 3-63 at 1080p and 4K for lsep (method=separable), the two passes
# (GST_CLCONVOLVE_BLOCK=1) and tiled, each with the same run's device-copy floor; the 4K
# gaussian 31 element against the transfer limit
D=$PWD/devbench/s24
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/; cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
export GST_CLCONVOLVE_SYNC_BUILDS=1
B=$PWD/build/tests/bench/clconvolve-bench
nvidia-smi -L > $OUT/gpu.txt 2>&1
(
  cd /tmp
  export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH CK_FORK=no GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
  CK_RUN_CASE=blurs timeout 200 $D/test_formats > $OUT/blurs.txt 2>&1; echo "rc=$?" >> $OUT/blurs.txt
)
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 3,7,15,31,63"
for res in 1920x1080 3840x2160; do
  for k in gaussian box; do
    $B $S --res $res -l lsep-$k --element "clconvolve method=separable kernel=$k size={size} bands=1 profiling=true autotune=false"
    GST_CLCONVOLVE_BLOCK=1 $B $S --res $res -l twopass-$k --element "clconvolve method=separable kernel=$k size={size} bands=1 profiling=true autotune=false"
    $B $S --res $res -l tiled-$k --element "clconvolve method=tiled kernel=$k size={size} bands=1 profiling=true autotune=false"
  done
  $B --runs 3 --seconds 0.3 --min-frames 10 --sizes 7 --res $res -l tiled-motionblur --element "clconvolve method=tiled kernel=motionblur size={size} bands=1 profiling=true autotune=false"
done > $OUT/kern.jsonl 2> $OUT/kern.log
for i in 1 2 3; do
  $B --runs 3 --seconds 0.5 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods separable,auto --what transfer,element
done > $OUT/elem4k.jsonl 2> $OUT/elem4k.log
