#!/bin/bash
# s35 on the device: the memory, clconvolve and formats (blurs, regions) suites of 700a8d8 on the
# H200 (csep's fixed point and the regions' blocks are CPU paths: nothing of them may change a
# GPU's results). Binaries in devbench/s35; logs under $OUT; 110 s a suite keeps the call under
# the device's 600 s (the run itself used the same steps written out, with 100 s for memory).
D=$PWD/devbench/s35
mkdir -p build/gst build/tools
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
nvidia-smi -L > $OUT/gpu.txt 2>&1
bash docs/bench/gpu-suites.sh $D 110
