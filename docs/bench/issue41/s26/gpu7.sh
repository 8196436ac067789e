#!/bin/bash
# device run 7 (issue 41, session 26): running sums for a box on the GPU (convolve_box
# -DGBOX_TW=64 -DGBOX_MX=2 -DSTRIP=16): the blurs and regions formats cases on the GPU; kernel
# alone (bands=1 profiling=true, method=auto, tuned) for box and gaussian 3-63 at 1080p and 4K
# with the same run's floor; the element (default bands) for box 15 and 63 at 1080p and 4K
# against the same run's transfer limit
D=$PWD/devbench/s26
mkdir -p build/gst build/tools
cp $D/gbox/libgstclconvolve.so build/gst/; cp $D/gbox/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
B=$D/clconvolve-bench
(
  cd /tmp
  export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH CK_FORK=no GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_SYNC_BUILDS=1
  for c in blurs regions; do CK_RUN_CASE=$c timeout 120 $D/gbox/test_formats > $OUT/formats-$c.log 2>&1; echo "rc=$?" >> $OUT/formats-$c.log; done
)
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 3,7,15,31,63"
for res in 1920x1080 3840x2160; do
  for k in box gaussian unsharp; do
    $B $S --res $res -l gpu-$k --element "clconvolve method=auto kernel=$k size={size} bands=1 profiling=true"
  done
done > $OUT/gpu-kern.jsonl 2> $OUT/gpu-kern.log
for res in 1920x1080 3840x2160; do
  $B --runs 3 --seconds 0.5 --min-frames 10 --res $res --sizes 15,63 --kernels box --methods auto --what transfer,element -l elem
done > $OUT/elem.jsonl 2> $OUT/elem.log
