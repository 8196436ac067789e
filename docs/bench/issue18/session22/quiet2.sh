#!/bin/bash
# device run: limits, frames in flight and chains with this build, 3 rounds
# devbench/ab/ holds clconvolve-bench, clconvolve-warmup and each build's plugin as NAME.so
AB=$PWD/devbench/ab
B=$AB/clconvolve-bench
export GST_CLCONVOLVE_HELPER=$AB/clconvolve-warmup
mkdir -p /tmp/p; cp $AB/shift.so /tmp/p/libgstclconvolve.so; export GST_PLUGIN_PATH=/tmp/p
C="--min-frames 10 --res 1920x1080 --sizes 7 --device gpu"
one="clconvolve device=gpu kernel=motionblur size={size}"
for r in 1 2 3; do
  $B --runs 3 --seconds 0.5 $C -w transfer
  $B --runs 3 --seconds 0.5 $C -w transfer -f NV12
  $B --runs 3 --seconds 1 $C --methods auto --kernels motionblur -l default
  $B --runs 3 --seconds 1 $C --methods auto --kernels motionblur -l inflight3 --max-inflight 3
  $B --runs 3 --seconds 0.5 $C --methods auto --kernels motionblur -l inflight3 --max-inflight 3 --streams 16
  $B --runs 3 --seconds 0.5 $C --methods auto --kernels motionblur -l default -f NV12
  $B --runs 3 --seconds 0.5 $C --methods auto --kernels motionblur -l inflight3 --max-inflight 3 -f NV12
  $B --runs 3 --seconds 0.5 $C -l chain1-inflight3 -e "$one max-inflight=3"
  $B --runs 3 --seconds 0.5 $C -l chain3-inflight3 -e "$one max-inflight=3 ! $one max-inflight=3 ! $one max-inflight=3"
done > $OUT/quiet2.jsonl 2>$OUT/quiet2.err
