#!/bin/bash
# s33 GPU: the suites with the session's final build (618cc94)
D=$PWD/devbench/s33f
mkdir -p build/gst build/tools
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
bash docs/bench/gpu-suites.sh $D
