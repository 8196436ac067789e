#!/bin/bash
# device run (issues 41/42, session 27): first frame and live-change gaps on 2 cores of the
# host's CPU through PoCL, f7a92b0 ("old") against the border-argument build ("new"), the same
# harness binaries for both: tests/bench/gaps.sh --device cpu --res 640x480 --every 30 (RUNS=2
# each, builds alternating twice) and tests/bench/first-frame.sh with --device cpu (each build once)
D=$PWD/devbench/s27
mkdir -p build/gst build/tools build/tests/bench
cp $D/clconvolve-gaps $D/clconvolve-bench build/tests/bench/
use () { cp $D/$1/libgstclconvolve.so build/gst/; cp $D/$1/clconvolve-warmup build/tools/; }
export POCL_MAX_PTHREAD_COUNT=2 GST_REGISTRY=/tmp/reg.bin
for round in 1 2; do
  for b in old new; do
    use $b; rm -f /tmp/reg.bin
    echo "== $b round $round"
    RUNS=2 taskset -c 2,3 tests/bench/gaps.sh --device cpu --res 640x480 --every 30 | tail -1
  done
done
# first-frame.sh with the bench on the CPU device (its copy in the device's tree)
sed 's/--methods auto/--methods auto --device cpu/' tests/bench/first-frame.sh > tests/bench/ff-cpu.sh
for b in old new; do
  use $b; rm -f /tmp/reg.bin
  echo "== first frame, $b"
  RES=320x240 taskset -c 2,3 bash tests/bench/ff-cpu.sh 2>&1 | sed 's/^/  /'
done
