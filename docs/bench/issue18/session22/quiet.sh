#!/bin/bash
# device run: limit, 1 to 16 streams and NV12 with this build, 3 rounds
# devbench/ab/ holds clconvolve-bench, clconvolve-warmup and each build's plugin as NAME.so
AB=$PWD/devbench/ab
B=$AB/clconvolve-bench
export GST_CLCONVOLVE_HELPER=$AB/clconvolve-warmup
mkdir -p /tmp/p; cp $AB/shift.so /tmp/p/libgstclconvolve.so; export GST_PLUGIN_PATH=/tmp/p
C="--min-frames 10 --res 1920x1080 --sizes 7 --methods auto --kernels motionblur --device gpu"
$B --runs 1 --seconds 0.3 $C >/dev/null 2>&1
for r in 1 2 3; do
  $B --runs 3 --seconds 0.5 $C -w transfer -l limit
  $B --runs 3 --seconds 1 $C -l default
  $B --runs 3 --seconds 0.5 $C -l default --streams 2,4,8,16
  $B --runs 3 --seconds 0.5 $C -l inflight3 --max-inflight 3 -f NV12
done > $OUT/quiet.jsonl 2>$OUT/quiet.err
