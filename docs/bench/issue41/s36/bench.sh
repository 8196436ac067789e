#!/bin/bash
# s36 device run 3: kernel alone (bands=1 profiling=true), old (bdce516) against new (lsep's
# wide tiles and vertical steps of 4 rows), builds alternating, 2 rounds: gaussian at 1080p and
# 4K and unsharp at 1080p, sizes 3-63, method=auto (tuned afresh)
D=$PWD/devbench/s36
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
      timeout 100 $B $S --res $res -l $build-auto-gaussian --element "clconvolve method=auto kernel=gaussian size={size} bands=1 profiling=true"
    done
    timeout 100 $B $S --res 1920x1080 -l $build-auto-unsharp --element "clconvolve method=auto kernel=unsharp size={size} bands=1 profiling=true"
  done
done > $OUT/kern.jsonl 2> $OUT/kern.log
