#!/bin/bash
# s28 device run 3: kernel alone (bands=1 profiling=true), old (8f8d43b) against new (lsep tiles),
# builds alternating, 2 rounds; gaussian and unsharp 3-63 at 1080p and 4K, method=auto (tuned)
# and method=separable; then the 4K gaussian 31 element against the transfer limit
D=$PWD/devbench/s28
mkdir -p build/gst build/tools
use () {
  cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/
  rm -f /tmp/reg.bin
}
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
B=$D/clconvolve-bench
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 3,7,15,31,63"
for round in 1 2; do
  for build in old new; do
    use $build
    for res in 1920x1080 3840x2160; do
      $B $S --res $res -l $build-auto-gaussian --element "clconvolve method=auto kernel=gaussian size={size} bands=1 profiling=true"
      $B $S --res $res -l $build-sep-gaussian --element "clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true"
    done
    $B $S --res 1920x1080 -l $build-auto-unsharp --element "clconvolve method=auto kernel=unsharp size={size} bands=1 profiling=true"
  done
done > $OUT/kern.jsonl 2> $OUT/kern.log
for round in 1 2 3; do
  for build in old new; do
    use $build
    $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what transfer,element -l $build-elem
  done
done > $OUT/elem.jsonl 2> $OUT/elem.log
