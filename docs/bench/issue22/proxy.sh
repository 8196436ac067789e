#!/bin/bash
# device run (issue 22): a stand-in for two GPUs, PoCL's CPU device listed twice with 8 threads
# each on the 16 cores; N streams with device=auto:cpu against the same on one device
D=$PWD/devbench/mg
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/; cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg-mg.bin
export POCL_DEVICES="pthread pthread" POCL_MAX_PTHREAD_COUNT=${THREADS:-8}
B=$PWD/build/tests/bench/clconvolve-bench
nproc > $OUT/nproc.txt
P="--min-frames 10 --res 1280x720 --sizes 7 --methods auto --kernels motionblur"
for i in 1 2 3; do
  $B --runs 3 --seconds 1 $P --device auto:cpu --streams 1,2 -l cpu-auto
  $B --runs 3 --seconds 1 $P --device cpu --streams 2 -l cpu-one
done > $OUT/cpu-proxy.jsonl 2>$OUT/cpu-proxy.log
