#!/bin/bash
# s30 device run A: frames in flight sent on when done (the pusher), max-inflight automatic (2 on
# a GPU). GPU suites with the new build, then the element against the transfer limit, old
# (c5e8323, default max-inflight 1) and new builds alternating, 3 rounds.
D=$PWD/devbench/s30
mkdir -p build/gst build/tools
use () { cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/; rm -f /tmp/reg.bin; }
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg.bin
nvidia-smi -L > $OUT/info.txt 2>&1
use new
( cd /tmp; export CK_FORK=no GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
  timeout 150 $D/new/test_memory > $OUT/t-memory.log 2>&1; echo "rc=$?" >> $OUT/t-memory.log
  timeout 120 $D/new/test_clconvolve > $OUT/t-clconvolve.log 2>&1; echo "rc=$?" >> $OUT/t-clconvolve.log
  for c in blurs regions; do CK_RUN_CASE=$c timeout 90 $D/new/test_formats > $OUT/t-formats-$c.log 2>&1; echo "rc=$?" >> $OUT/t-formats-$c.log; done )
for f in $OUT/t-*.log; do echo "$f: $(grep -E '^[0-9]+%' $f | tail -1) $(tail -1 $f)"; done
for round in 1 2 3; do
  for b in old new; do
    use $b
    export XDG_CACHE_HOME=/tmp/cache-$b
    B=$D/$b/clconvolve-bench
    timeout 100 $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what transfer,element -l $b-4k-g31
    timeout 100 $B --runs 1 --seconds 1 --min-frames 10 --res 1920x1080 --sizes 7 --kernels motionblur --methods auto --what transfer,element -l $b-1080-mb7
    if [ $b = new ]; then
      timeout 100 $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what element --max-inflight 1 -l new-mi1-4k-g31
      timeout 100 $B --runs 1 --seconds 1 --min-frames 10 --res 3840x2160 --sizes 31 --kernels gaussian --methods auto --what element --max-inflight 3 -l new-mi3-4k-g31
    fi
  done
done > $OUT/elem.jsonl 2> $OUT/elem.log
python3 -c "
import json,sys
for l in open(sys.argv[1]):
  d=json.loads(l)
  if d.get(\"kind\") in (\"element\",):print(d.get(\"label\"),d[\"width\"],d.get(\"fps\",{}).get(\"median\"),d.get(\"first_ms\"))
  elif d.get(\"kind\")==\"transfer\":print(\"limit\",d[\"width\"],d[\"fps_limit_overlapped\"])
" $OUT/elem.jsonl
