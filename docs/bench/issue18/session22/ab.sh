#!/bin/bash
# device run: A/B of plugin builds (old/new), alternating rounds, 1080p RGBA motionblur 7
# devbench/ab/ holds clconvolve-bench, clconvolve-warmup and each build's plugin as NAME.so
AB=$PWD/devbench/ab
B=$AB/clconvolve-bench
export GST_CLCONVOLVE_HELPER=$AB/clconvolve-warmup
nvidia-smi -L > $OUT/gpu.txt 2>&1
use() { mkdir -p /tmp/p-$1; cp $AB/$1.so /tmp/p-$1/libgstclconvolve.so;
  export GST_PLUGIN_PATH=/tmp/p-$1 GST_REGISTRY=/tmp/reg-$1.bin; }
C="--min-frames 10 --res 1920x1080 --sizes 7 --methods auto --kernels motionblur --device gpu"
for v in ${BUILDS:-old new}; do use $v; $B --runs 1 --seconds 0.3 $C >/dev/null 2>&1; done
for r in $(seq ${ROUNDS:-3}); do
  for v in ${BUILDS:-old new}; do
    use $v
    $B --runs 3 --seconds 0.5 $C -w transfer -l "$v-limit"
    $B --runs 3 --seconds 1 $C -l "$v"

    $B --runs 3 --seconds 0.5 $C -l "$v" --streams ${STREAMS:-2,4,8,16}
    [ -n "$NONV12" ] || $B --runs 3 --seconds 0.5 $C -l "$v" -f NV12 --streams 1,4
  done
done > $OUT/ab.jsonl 2>$OUT/ab.err
