#!/bin/bash
# Issue 41, session 24: 1b89f15 (/tmp/old, a worktree built there) against this build, the same
# element pipeline alternating, three rounds: method=separable (what autotune=false runs for these
# sizes) and method=auto (tuned once per build into its own tuning directory), 1080p RGBA, 2-core
# AVX-512 PoCL. Usage: docs/bench/issue41/ab.sh > ab.jsonl 2> ab.log
cd "$(dirname "$0")/../../.."
NEW=$PWD
mkdir -p /tmp/ab-tune-old /tmp/ab-tune-new
for r in 1 2 3; do
  for v in old new; do
    d=$NEW; [ $v = old ] && d=/tmp/old
    GST_PLUGIN_PATH=$d/build/gst GST_CLCONVOLVE_HELPER=$d/build/tools/clconvolve-warmup \
      GST_CLCONVOLVE_TUNE_DIR=/tmp/ab-tune-$v GST_REGISTRY=/tmp/ab-reg-$v.bin \
      $d/build/tests/bench/clconvolve-bench --res 1920x1080 --sizes 15,31 --kernels gaussian,box \
      --methods separable,auto --runs 3 --seconds 1 --min-frames 5 -l $v-r$r
  done
done
