#!/bin/bash
# s37 device run 3: float4 with 4 pixels a work-item and 16-byte accesses (direct.cl,
# DIRECT_WIDE) against tiled and what method=auto tunes to, kernel alone (bands=1
# profiling=true), gaussian and box at 3, 5, 7, 1080p and 4K; one build (devbench/s37/new),
# so every ratio is of the same run. usage: gpu-float4.sh [KERNELS [RESOLUTIONS [METHODS]]]
D=$PWD/devbench/s37
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
nvidia-smi -L > $OUT/gpu.txt 2>&1
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 3,5,7"
for res in ${2:-1920x1080 3840x2160}; do
  for k in ${1:-gaussian box}; do
    for m in ${3:-tiled float4 auto}; do
      timeout 100 $D/clconvolve-bench $S --res $res -l $m-$k \
        --element "clconvolve method=$m kernel=$k size={size} bands=1 profiling=true"
    done
  done
done > $OUT/kern.jsonl 2> $OUT/kern.log
