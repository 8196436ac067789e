#!/bin/bash
# device run (issues 42/41, session 27): the border as a kernel argument instead of -DBORDER.
# kernel alone (bands=1 profiling=true), old (f7a92b0) and new builds alternating, 3 rounds,
#    on the GPU (tiled dense 7x7, lsep gaussian 15/31, the GPU box 15) and on 2 cores of the
#    host's CPU through PoCL (vector split 7x7, csep gaussian 31, box 15), borders mirror and
#    constant, 1080p RGBA.
D=$PWD/devbench/s27
mkdir -p build/gst build/tools
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
use () {
  cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/
  rm -f /tmp/reg.bin
}
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
B=$D/clconvolve-bench
S="--runs 3 --seconds 0.3 --min-frames 10 --res 1920x1080"
for round in 1 2 3; do
  for build in old new; do
    use $build
    for border in mirror constant; do
      $B $S --sizes 7 -l gpu-$build-$border-tiled --element "clconvolve method=tiled kernel=motionblur size={size} border=$border bands=1 profiling=true"
      $B $S --sizes 15,31 -l gpu-$build-$border-sep --element "clconvolve method=separable kernel=gaussian size={size} border=$border bands=1 profiling=true"
      $B $S --sizes 15 -l gpu-$build-$border-box --element "clconvolve method=separable kernel=box size={size} border=$border bands=1 profiling=true"
      C="env POCL_MAX_PTHREAD_COUNT=2 taskset -c 2,3 $B --device cpu --runs 1 --seconds 1 --min-frames 5 --res 1920x1080"
      $C --sizes 7 -l cpu-$build-$border-vector --element "clconvolve device=cpu method=vector kernel=motionblur size={size} border=$border profiling=true"
      $C --sizes 31 -l cpu-$build-$border-sep --element "clconvolve device=cpu method=separable kernel=gaussian size={size} border=$border profiling=true"
      $C --sizes 15 -l cpu-$build-$border-box --element "clconvolve device=cpu method=separable kernel=box size={size} border=$border profiling=true"
    done
  done
done > $OUT/ab.jsonl 2> $OUT/ab.log
