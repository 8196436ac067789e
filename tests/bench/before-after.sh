#!/bin/bash
# Same-run comparison of two builds of the plugin: the benchmark run once per round on each,
# alternating (so a slow spell of the machine falls on both), each with its own registry,
# tuning and program caches. JSON lines, each tagged "version" and "round", appended to
# $OUT/bench.jsonl.
#
# usage: OUT=dir tests/bench/before-after.sh DIR DEVICE ROUNDS BENCH-ARGS...
#   DIR holds clconvolve-bench and one directory per version (default "before after", or
#   $VERSIONS), each with that build's libgstclconvolve.so.
# e.g.   OUT=/tmp/o tests/bench/before-after.sh devbench cpu 5 -r 1920x1080 -s 7 -k motionblur -m auto
set -eu
dir=$1 dev=$2 rounds=$3
shift 3
for r in $(seq 1 "$rounds"); do
  for v in ${VERSIONS:-before after}; do
    GST_REGISTRY_1_0=/tmp/reg-$v.bin GST_PLUGIN_PATH=$PWD/$dir/$v \
      GST_CLCONVOLVE_TUNE_DIR=/tmp/tune-$v GST_CLCONVOLVE_CACHE_DIR=/tmp/prog-$v \
      "$dir/clconvolve-bench" -d "$dev" --runs 1 "$@" |
      sed "s/^{/{\"version\":\"$v\",\"round\":$r,/" >> "$OUT/bench.jsonl"
  done
done
