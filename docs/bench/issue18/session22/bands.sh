#!/bin/bash
# device run: the bands property at one stream, alternating, with this build
# devbench/ab/ holds clconvolve-bench, clconvolve-warmup and each build's plugin as NAME.so
AB=$PWD/devbench/ab
B=$AB/clconvolve-bench
export GST_CLCONVOLVE_HELPER=$AB/clconvolve-warmup
mkdir -p /tmp/p; cp $AB/shift.so /tmp/p/libgstclconvolve.so; export GST_PLUGIN_PATH=/tmp/p
C="--min-frames 10 --res 1920x1080 --sizes 7 --methods auto --kernels motionblur --device gpu"
$B --runs 1 --seconds 0.3 $C >/dev/null 2>&1
for r in 1 2 3 4 5; do
  $B --runs 3 --seconds 0.5 $C -w transfer -l limit
  for b in 0 4 6 8 10 12; do
    $B --runs 3 --seconds 1 $C -l "bands$b" -e "clconvolve device=gpu kernel=motionblur size={size} bands=$b"
  done
done > $OUT/bands.jsonl 2>$OUT/bands.err
