#!/bin/bash
# s41 device run 5: tsep's horizontal pass in units of 16 columns (tnew) against the kernel
# before (new, 7e47596): the blurs and regions cases of the formats suite with tsep forced
# (GST_CLCONVOLVE_TENSOR=2) on tnew, then both kernels alone, alternating, two rounds.
D=$PWD/devbench/s41
nvidia-smi -L > $OUT/gpu.txt 2>&1
export GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= GST_CLCONVOLVE_TENSOR=2
use () {
  P=/tmp/p-$1; mkdir -p $P; cp $D/$1/libgstclconvolve.so $P/
  export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-$1.bin
  export GST_CLCONVOLVE_HELPER=$D/$1/clconvolve-warmup
}
use tnew
(cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
for c in blurs regions; do
  (GST_REGISTRY=/tmp/reg-f-$c.bin CK_RUN_CASE=$c timeout 170 $D/test_formats > $OUT/t-formats-$c-t2.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c-t2.log) &
done; wait)
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-240 | head -12
S="--runs 3 --seconds 0.2 --min-frames 10"
G='clconvolve method=separable kernel=gaussian size={size} bands=1 profiling=true'
B='clconvolve method=separable kernel=box size={size} bands=1 profiling=true'
for r in 1 2; do
  for v in new tnew; do
    use $v
    timeout 40 $D/clconvolve-bench $S --sizes 15,31,63 --res 1920x1080 -l r$r-$v-gaussian --element "$G"
    timeout 40 $D/clconvolve-bench $S --sizes 15,31,63 --res 3840x2160 -l r$r-$v-gaussian --element "$G"
    timeout 30 $D/clconvolve-bench $S --sizes 63 --res 1920x1080 -l r$r-$v-box --element "$B"
  done
done > $OUT/kern.jsonl 2> $OUT/kern.log
grep -E "floor|kernel|error|ERROR" $OUT/kern.log | cut -c1-200 | head -40
