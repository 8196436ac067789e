#!/bin/bash
# s38 device run: tensor-core probe, then the element with tsep forced (GST_CLCONVOLVE_TENSOR=2)
# against lsep (=0): kernel alone, and the formats suites with tsep forced
D=$PWD/devbench/s38
nvidia-smi -L > $OUT/gpu.txt 2>&1
( cd $D && timeout 20 ./mma1 && for K in 15 63; do timeout 20 ./tc 1920 1080 $K gauss 30; done
  for K in 3 15 31 63; do timeout 20 ./tc 3840 2160 $K gauss 30; done ) > $OUT/probe.txt 2>&1
cat $OUT/probe.txt
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_REGISTRY=/tmp/reg.bin GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
S="--runs 3 --seconds 0.3 --min-frames 10 --sizes 3,7,15,31,63"
for t in 2 0; do
  for res in 1920x1080 3840x2160; do
    GST_CLCONVOLVE_TENSOR=$t timeout 60 $D/clconvolve-bench $S --res $res -l t$t-gaussian --element "clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true"
  done
  GST_CLCONVOLVE_TENSOR=$t timeout 60 $D/clconvolve-bench $S --res 1920x1080 -l t$t-box --element "clconvolve method=separable kernel=box size={size} bands=1 profiling=true"
done > $OUT/kern.jsonl 2> $OUT/kern.log
grep -E "kernel|error|ERROR" $OUT/kern.log | cut -c1-200 | head -40
cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024 GST_CLCONVOLVE_TENSOR=2
for c in blurs regions yuv rgb; do
  (GST_REGISTRY=/tmp/reg-$c.bin CK_RUN_CASE=$c timeout 140 $D/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log) &
done
wait
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-300 | head -20
