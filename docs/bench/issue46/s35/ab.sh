#!/bin/bash
# A/B: builds in /tmp/ab/{A,B}, alternating rounds; args: rounds, then bench args
R=$1; shift
for b in A B; do mkdir -p /tmp/ab/$b/cache /tmp/ab/$b/tune /tmp/ab/$b/pocl; done
for r in $(seq 0 $R); do for b in A B; do
  GST_PLUGIN_PATH=/tmp/ab/$b/gst GST_PLUGIN_PATH_1_0=/tmp/ab/$b/gst GST_REGISTRY=/tmp/ab/$b/reg.bin \
  GST_CLCONVOLVE_CACHE_DIR=/tmp/ab/$b/cache GST_CLCONVOLVE_TUNE_DIR=/tmp/ab/$b/tune POCL_CACHE_DIR=/tmp/ab/$b/pocl \
  /work/main/build/tests/bench/clconvolve-bench --runs 1 --min-frames 5 --label $b-r$r "$@" 2>&1 | grep -E " fps " | sed "s/^/r$r /"
done; done
