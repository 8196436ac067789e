#!/bin/bash
# s41 device run 3: the suites with the tensor-core kernel on by default (no
# GST_CLCONVOLVE_TENSOR: the tuner times it, the fixed rules take it from 31), in parallel; then
# issue 46's regions, this tree (new: region copies in 16x16 work-groups) against the same tree
# with the driver's work-group size for them (nl), three alternating rounds after a cold one;
# then the 4K gaussian 31 element against the transfer limit. D: the binaries' directory.
D=$PWD/devbench/s41
nvidia-smi -L > $OUT/gpu.txt 2>&1
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
unset GST_CLCONVOLVE_TENSOR
(cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_IDLE_PROGRAMS=1024
for c in blurs regions rgb yuv deep combine sparse vector; do
  (GST_REGISTRY=/tmp/reg-f-$c.bin CK_RUN_CASE=$c timeout 220 $D/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log) &
done
(GST_REGISTRY=/tmp/reg-c.bin timeout 220 $D/test_clconvolve > $OUT/t-clconvolve.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve.log) &
(H=/work/main/build/tests/tune-home; mkdir -p $H; XDG_CACHE_HOME=$H GST_CLCONVOLVE_KEEP_CONTEXT=0 GST_REGISTRY=/tmp/reg-t.bin timeout 220 $D/test_tune > $OUT/t-tune.log 2>&1; echo "rc=$?" >> $OUT/t-tune.log) &
(GST_REGISTRY=/tmp/reg-m.bin CK_RUN_CASE=memory timeout 220 $D/test_memory > $OUT/t-memory.log 2>&1; echo "rc=$?" >> $OUT/t-memory.log) &
wait)
for f in $OUT/t-*.log; do echo "$(basename $f): $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
grep -hE ':[EF]:' $OUT/t-*.log | cut -c1-240 | head -16
for r in 0 1 2 3; do
  for v in new nl; do
    P=/tmp/p-$v; mkdir -p $P; cp $D/$v/libgstclconvolve.so $P/
    export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-$v.bin
    export GST_CLCONVOLVE_HELPER=$D/$v/clconvolve-warmup
    for n in 10 50; do
      timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 1 -l r$r-$v-regions-$n \
        --element "clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
    done
    timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 47 --hand-over --regions 8 --region-side 200 --runs 1 --seconds 1 -l r$r-$v-regions-8x200-47 \
      --element "clconvolve kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1" 2>/dev/null | grep '"kind":"element"'
  done
done > $OUT/regions.jsonl
python3 -c "
import json,collections
d=collections.defaultdict(list)
for l in open('$OUT/regions.jsonl'):
    r=json.loads(l); d[r['label'].split('-',1)[1]].append(round(r['fps']['median']))
for k,v in sorted(d.items()): print(k, v)
"
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
timeout 60 $D/clconvolve-bench --runs 3 --seconds 0.5 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what transfer,element -l elem4k > $OUT/elem4k.jsonl 2> $OUT/elem4k.log
grep -iE "transfer|element|error" $OUT/elem4k.log | cut -c1-200 | head
