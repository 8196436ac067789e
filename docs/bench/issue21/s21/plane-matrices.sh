#!/bin/bash
ST=$PWD/devbench/st
mkdir -p build/gst build/tools
cp $ST/libgstclconvolve.so build/gst/
cp $ST/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
B=$ST/clconvolve-bench
{
  $B -r 1920x1080 -f I420 -s 7 -k gaussian --runs 5 --hand-over -l one-matrix -e "clconvolve device=gpu kernel=gaussian size={size} planes=y+u+v"
  $B -r 1920x1080 -f I420 -s 7 -k gaussian --runs 5 --hand-over -l plane-matrices -e "clconvolve device=gpu kernel=gaussian size={size} planes=y+u+v plane-matrices=\"|1 2 1; 2 4 2; 1 2 1|1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1; 1 1 1 1 1\""
} > $OUT/bench.txt 2>&1
cd /tmp
export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH CK_FORK=no GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_SYNC_BUILDS=1
CK_RUN_CASE=regions timeout 300 $ST/test_formats > $OUT/test_regions.txt 2>&1; echo "rc=$?" >> $OUT/test_regions.txt
$ST/test_layout > $OUT/test_layout.txt 2>&1; echo "rc=$?" >> $OUT/test_layout.txt
