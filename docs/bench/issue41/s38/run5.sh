#!/bin/bash
# s38 device run 5 (short): tsep forced (GST_CLCONVOLVE_TENSOR=2): the formats blurs and regions
# cases, then kernel alone, tsep against lsep
D=$PWD/devbench/s38
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_TENSOR=2
(cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
for c in blurs regions; do
  (GST_REGISTRY=/tmp/reg-$c.bin CK_RUN_CASE=$c timeout 90 $D/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log) &
done
wait)
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | grep -v "expected separable box" | cut -c1-260 | head -8
export GST_REGISTRY=/tmp/reg.bin
S="--runs 3 --seconds 0.2 --min-frames 10"
G='clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true'
(
  timeout 30 $D/clconvolve-bench $S --sizes 3,15,63 --res 1920x1080 -l B-gaussian --element "$G"
  timeout 20 $D/clconvolve-bench $S --sizes 15,63 --res 3840x2160 -l B-gaussian --element "$G"
  GST_CLCONVOLVE_TENSOR=0 timeout 20 $D/clconvolve-bench $S --sizes 15,63 --res 3840x2160 -l lsep-gaussian --element "$G"
) > $OUT/kern.jsonl 2> $OUT/kern.log
grep -E "kernel|error|ERROR" $OUT/kern.log | cut -c1-200 | head -30
