#!/bin/bash
# device run 2 (issue 42, session 25): the formats suite's eight cases at once, and the memory
# (leaks tracer on, as meson runs it), devices, cache and tune suites, on the NVIDIA GPU
D=$PWD/devbench/s25
R=$PWD
mkdir -p build/gst build/tools
cp $D/after/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
cd /tmp
export GST_PLUGIN_PATH_1_0=$R/build/gst GST_PLUGIN_PATH=$R/build/gst CK_FORK=no \
  GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_SYNC_BUILDS=1 \
  GST_CLCONVOLVE_HELPER=$R/build/tools/clconvolve-warmup
for c in vector yuv deep rgb sparse combine regions blurs; do
  (GST_REGISTRY_1_0=/tmp/reg-f-$c.bin CK_RUN_CASE=$c timeout 400 $D/test_formats > $OUT/formats-$c.txt 2>&1; echo "rc=$?" >> $OUT/formats-$c.txt) &
done
T='leaks(filters="GstBuffer,GstMemory,GstBufferPool,GstAllocator")'
(GST_TRACERS=$T GST_REGISTRY_1_0=/tmp/reg-m.bin CK_EXCLUDE_TAGS=devices timeout 300 $D/test_memory > $OUT/memory.txt 2>&1; echo "rc=$?" >> $OUT/memory.txt) &
(GST_TRACERS=$T GST_REGISTRY_1_0=/tmp/reg-d.bin CK_RUN_CASE=devices POCL_DEVICES="pthread pthread" timeout 300 $D/test_memory > $OUT/devices.txt 2>&1; echo "rc=$?" >> $OUT/devices.txt) &
(mkdir -p /tmp/ch; GST_CLCONVOLVE_KEEP_CONTEXT=0 XDG_CACHE_HOME=/tmp/ch GST_REGISTRY_1_0=/tmp/reg-c.bin timeout 300 $D/test_cache > $OUT/cache.txt 2>&1; echo "rc=$?" >> $OUT/cache.txt) &
(mkdir -p /tmp/th; GST_CLCONVOLVE_KEEP_CONTEXT=0 XDG_CACHE_HOME=/tmp/th GST_REGISTRY_1_0=/tmp/reg-t.bin timeout 300 $D/test_tune > $OUT/tune.txt 2>&1; echo "rc=$?" >> $OUT/tune.txt) &
wait
grep -h "Checks\|rc=" $OUT/*.txt
