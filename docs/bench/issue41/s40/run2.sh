#!/bin/bash
# s40 device run 2: the blurs case with the tensor-core kernel forced (GST_CLCONVOLVE_TENSOR=2;
# test_formats now accepts it where the GPU's other separable kernels are expected, so every
# frame of every case is checked), the clconvolve suite with it as a tuner candidate (=1, the
# proposed default), then method=auto tuned with and without it, kernel alone
. docs/bench/issue41/s40/setup.sh
(cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
(GST_CLCONVOLVE_TENSOR=2 GST_REGISTRY=/tmp/reg-b.bin CK_RUN_CASE=blurs timeout 170 $D/test_formats > $OUT/t-formats-blurs-t2.log 2>&1; echo "rc=$?" >> $OUT/t-formats-blurs-t2.log) &
(GST_CLCONVOLVE_TENSOR=1 GST_REGISTRY=/tmp/reg-c.bin timeout 170 $D/test_clconvolve > $OUT/t-clconvolve-t1.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve-t1.log) &
wait)
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-260 | head -12
export GST_REGISTRY=/tmp/reg.bin
S="--runs 3 --seconds 0.2 --min-frames 10"
A='clconvolve kernel=gaussian size={size} bands=1 profiling=true'
for t in 1 0; do
  GST_CLCONVOLVE_TENSOR=$t timeout 45 $D/clconvolve-bench $S --sizes 31,63 --res 1920x1080 -l auto-t$t --element "$A"
  GST_CLCONVOLVE_TENSOR=$t timeout 45 $D/clconvolve-bench $S --sizes 15,31,63 --res 3840x2160 -l auto-t$t --element "$A"
done > $OUT/auto.jsonl 2> $OUT/auto.log
grep -E "floor|kernel|error|ERROR" $OUT/auto.log | cut -c1-200 | head -20
