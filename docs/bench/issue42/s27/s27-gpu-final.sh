#!/bin/bash
# device run (issue 42, session 27), the final build (the rule compiled in on GPUs, an argument
# on CPUs): formats cases and the clconvolve suite on the GPU, then kernel alone on the GPU,
# old (f7a92b0) and new builds alternating, 3 rounds (as s27-border.sh)
D=$PWD/devbench/s27
mkdir -p build/gst build/tools
use () {
  cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/
  rm -f /tmp/reg.bin
}
use new
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
(
  cd /tmp
  export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  for c in blurs regions rgb sparse; do
    CK_RUN_CASE=$c timeout 75 $D/test_formats > $OUT/formats-$c.log 2>&1
    echo "rc=$?" >> $OUT/formats-$c.log
  done
  timeout 70 $D/test_clconvolve > $OUT/clconvolve.log 2>&1; echo "rc=$?" >> $OUT/clconvolve.log
)
B=$D/clconvolve-bench
S="--runs 3 --seconds 0.3 --min-frames 10 --res 1920x1080"
for round in 1 2 3; do
  for build in old new; do
    use $build
    for border in mirror constant; do
      $B $S --sizes 7 -l gpu-$build-$border-tiled --element "clconvolve method=tiled kernel=motionblur size={size} border=$border bands=1 profiling=true"
      $B $S --sizes 15,31 -l gpu-$build-$border-sep --element "clconvolve method=separable kernel=gaussian size={size} border=$border bands=1 profiling=true"
      $B $S --sizes 15 -l gpu-$build-$border-box --element "clconvolve method=separable kernel=box size={size} border=$border bands=1 profiling=true"
    done
  done
done > $OUT/ab.jsonl 2> $OUT/ab.log
