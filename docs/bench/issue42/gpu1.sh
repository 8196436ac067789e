#!/bin/bash
# device run 1 (issue 42, session 25): the restructured element on an NVIDIA GPU: the
# clconvolve, formats and memory suites; then tests/bench/before-after.sh, 1080p RGBA 7x7
# (motionblur, auto) with max-inflight 1 and 3, and 4 streams, before (4801430) and after
D=$PWD/devbench/s25
mkdir -p build/gst build/tools
cp $D/after/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
nvidia-smi -L > $OUT/gpu.txt
(
  cd /tmp
  export GST_PLUGIN_PATH_1_0=$OLDPWD/build/gst GST_PLUGIN_PATH=$OLDPWD/build/gst CK_FORK=no \
    GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_SYNC_BUILDS=1 \
    GST_CLCONVOLVE_HELPER=$OLDPWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg-suite.bin
  $D/test_settings > $OUT/settings.txt 2>&1; echo "rc=$?" >> $OUT/settings.txt
  timeout 200 $D/test_formats > $OUT/formats.txt 2>&1; echo "rc=$?" >> $OUT/formats.txt
  timeout 120 $D/test_clconvolve > $OUT/clconvolve.txt 2>&1; echo "rc=$?" >> $OUT/clconvolve.txt
  CK_EXCLUDE_TAGS=devices timeout 120 $D/test_memory > $OUT/memory.txt 2>&1; echo "rc=$?" >> $OUT/memory.txt
)
S="-r 1920x1080 -s 7 -k motionblur -m auto -t 0.5"
OUT=$OUT bash $D/before-after.sh devbench/s25 gpu 3 $S --max-inflight 1 --streams 1,4 -l mi1 2> $OUT/ba.log
OUT=$OUT bash $D/before-after.sh devbench/s25 gpu 3 $S --max-inflight 3 --streams 1,4 -l mi3 2>> $OUT/ba.log
ls -la $OUT
