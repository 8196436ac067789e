#!/bin/bash
# s28 device run 7: the 4K gaussian 31 element (3d554b8) against the transfer limit with bands
# 0 (auto: about 8), 8, 12, 16, 24, 32, and max-inflight 2; 3 rounds
D=$PWD/devbench/s28
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
B=$D/clconvolve-bench
for round in 1 2 3; do
  $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what transfer -l t
  for b in 0 8 12 16 24 32; do
    $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 -l bands$b --element "clconvolve kernel=gaussian size={size} bands=$b"
  done
  $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 -l inflight2 --element "clconvolve kernel=gaussian size={size} max-inflight=2"
  $B --runs 1 --seconds 1 --min-frames 10 --res 1920x1080 --sizes 15 -l hd-bands0 --element "clconvolve kernel=gaussian size={size}"
  $B --runs 1 --seconds 1 --min-frames 10 --res 1920x1080 --sizes 15 -l hd-bands16 --element "clconvolve kernel=gaussian size={size} bands=16"
  $B --runs 1 --seconds 1 --min-frames 10 --res 1920x1080 --sizes 15 --kernels gaussian --methods auto --what transfer -l t
done > $OUT/bands.jsonl 2> $OUT/bands.log
grep -E "fps|limit" $OUT/bands.log | awk '{print $1, $2, $(NF-8), $(NF-7), $(NF-6), $(NF-1), $NF}'
