#!/bin/bash
ST=$PWD/devbench/st
mkdir -p build/gst build/tools
cp $ST/libgstclconvolve.so build/gst/
cp $ST/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
B=$ST/clconvolve-bench
R="roi-x=1888 roi-y=1048 roi-width=64 roi-height=64"
{
for f in RGBA NV12; do
  $B -r 3840x2160 -f $f -s 7 -k gaussian --runs 5 --hand-over -l whole -e "clconvolve device=gpu kernel=gaussian size={size}"
  $B -r 3840x2160 -f $f -s 7 -k gaussian --runs 5 --hand-over -l region64 -e "clconvolve device=gpu kernel=gaussian size={size} $R"
  $B -r 3840x2160 -f $f -s 7 -k gaussian --runs 5 -l region64-held -e "clconvolve device=gpu kernel=gaussian size={size} $R"
done
} > $OUT/bench.txt 2>&1
cd /tmp
export GST_PLUGIN_PATH_1_0=$GST_PLUGIN_PATH CK_FORK=no GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_SYNC_BUILDS=1
CK_RUN_CASE=regions timeout 300 $ST/test_formats > $OUT/test_regions.txt 2>&1; echo "rc=$?" >> $OUT/test_regions.txt
