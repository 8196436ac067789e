#!/bin/bash
# session 29, device run E (1 GPU): clconvolve-gaps' default schedule of live changes at 1080p
# (sizes, kernels, methods, angles, NV12 and back), cold caches and a change a second; then
# warm caches with the helper idled out before each change (GST_CLCONVOLVE_HELPER_IDLE=2, a
# change every 4 s).
D=$PWD/devbench/s29/now
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
cp $D/clconvolve-gaps build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin XDG_CACHE_HOME=/tmp/cE
unset GST_CLCONVOLVE_HELPER
G=build/tests/bench/clconvolve-gaps
timeout 100 $G --res 1920x1080 --fps 60 --every 60 > $OUT/e-cold.jsonl 2> $OUT/e-cold.txt
GST_CLCONVOLVE_HELPER_IDLE=2 timeout 150 $G --res 1920x1080 --fps 60 --every 240 > $OUT/e-idle.jsonl 2> $OUT/e-idle.txt
tail -22 $OUT/e-cold.txt; tail -22 $OUT/e-idle.txt
