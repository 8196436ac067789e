#!/bin/bash
# device run (issue 22): listing, the devices/memory/clconvolve suites, one-GPU auto vs gpu
D=$PWD/devbench/mg
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/; cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg-mg.bin
B=$PWD/build/tests/bench/clconvolve-bench
nvidia-smi -L > $OUT/gpu.txt 2>&1
{ clinfo -l; POCL_DEVICES="pthread pthread" clinfo -l; } > $OUT/clinfo.txt 2>&1
POCL_DEVICES="pthread pthread" build/tools/clconvolve-warmup --list > $OUT/list.txt 2>&1
(
  cd /tmp
  export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH CK_FORK=no GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_SYNC_BUILDS=1
  L='leaks(filters="GstBuffer,GstMemory,GstBufferPool,GstAllocator")'
  POCL_DEVICES="pthread pthread" CK_RUN_CASE=devices GST_TRACERS=$L timeout 150 $D/test_memory > $OUT/devices.txt 2>&1; echo "rc=$?" >> $OUT/devices.txt
  CK_EXCLUDE_TAGS=devices GST_TRACERS=$L timeout 200 $D/test_memory > $OUT/memory.txt 2>&1; echo "rc=$?" >> $OUT/memory.txt
  timeout 150 $D/test_clconvolve > $OUT/clconvolve.txt 2>&1; echo "rc=$?" >> $OUT/clconvolve.txt
)
C="--min-frames 10 --res 1920x1080 --sizes 7 --methods auto --kernels motionblur"
for i in 1 2 3; do
  $B --runs 3 --seconds 0.5 $C --device gpu -w transfer -l limit
  $B --runs 3 --seconds 1 $C --device gpu --streams 1,4 -l gpu
  $B --runs 3 --seconds 1 $C --device auto --streams 1,4 -l auto
done > $OUT/one-gpu.jsonl 2>$OUT/one-gpu.log
