#!/bin/bash
# s28 device run 12: the GPU box's running sums with the next row's loads issued a row ahead and
# the first window's rows unrolled by 4 ("new") against 903aa43 ("old"): harness (kb, kb0) and
# the plugin (kernel alone, builds alternating, 2 rounds); formats blurs on the GPU
D=$PWD/devbench/s28
cd $D
for r in 1 2; do for k in kb0 kb; do
  echo "== $k"; LT_SRC=box.cl LT_ENTRY=convolve_box LT_BOX=1 LT_DEV=gpu timeout 60 ./lt $D/$k 1920 1080 15 < cfg-box.txt 2>&1 | grep -E "us \(min"
done; done > $OUT/box-harness.txt
cd - > /dev/null
mkdir -p build/gst build/tools
use () {
  cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/
  rm -f /tmp/reg.bin
}
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
use new
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
  CK_RUN_CASE=blurs timeout 90 $D/new/test_formats > $OUT/formats-blurs.log 2>&1; echo "rc=$?" >> $OUT/formats-blurs.log
  grep -E '^[0-9]+%' $OUT/formats-blurs.log )
B=$D/clconvolve-bench
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 3,7,15,31,63"
for round in 1 2; do
  for build in old new; do
    use $build
    for res in 1920x1080 3840x2160; do
      $B $S --res $res -l $build-auto-box --element "clconvolve method=auto kernel=box size={size} bands=1 profiling=true"
    done
  done
done > $OUT/kern.jsonl 2> $OUT/kern.log
grep -E "x floor" $OUT/kern.log | awk '{print $1, $3, $4, $(NF-8), $(NF-7), $(NF-6), $(NF-4)}'
awk '/^==/{k=$2} /us \(min/{for(i=1;i<=NF;i++) if($i=="us") print k, $1, $2$3, $(i-1)}' $OUT/box-harness.txt | sort -k2,3 | paste - - - -
