#!/bin/bash
# First-frame latency of clconvolve (method=auto, so the first start also times the variants):
# cold and warm caches (PoCL's own kernel cache, clconvolve's program binary cache and its
# tuning cache), 5 fresh processes each, medians. Run after building.
# clconvolve-bench sets GST_CLCONVOLVE_SYNC_BUILDS=1, so the cold lines are first starts that
# wait for every build and tuning run (what an element did before the worker); the first frame
# of a streaming element with cold caches is clconvolve-gaps's first_frame_ms
# (tests/bench/gaps.sh). The warm caches are filled by clconvolve-warmup, as a user would.
cd "$(dirname "$0")/../.."
export GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=${GST_CLCONVOLVE_HELPER-$PWD/build/tools/clconvolve-warmup}
B="build/tests/bench/clconvolve-bench --res ${RES:-320x240} --sizes 7 --kernels gaussian --methods auto --seconds 0.05 --runs 1 --min-frames 2"
one () { env "$@" timeout 300 $B 2>/dev/null | grep -o '"first_frame_ms":{"median":[0-9.]*' | grep -o '[0-9.]*$'; }
med () { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)], "(" a[1] "-" a[NR] ")"}'; }
D=$(mktemp -d)   # program binaries
T=$(mktemp -d)   # tuning choices
echo "cold (no PoCL cache, empty clconvolve caches: builds and times every candidate): $(for i in 1 2 3 4 5; do rm -rf $D/* $T/*; one POCL_KERNEL_CACHE=0 GST_CLCONVOLVE_CACHE_DIR=$D GST_CLCONVOLVE_TUNE_DIR=$T; done | med)"
one POCL_KERNEL_CACHE=0 GST_CLCONVOLVE_CACHE_DIR=$D GST_CLCONVOLVE_TUNE_DIR=$T > /dev/null
echo "warm clconvolve caches, no PoCL cache: $(for i in 1 2 3 4 5; do one POCL_KERNEL_CACHE=0 GST_CLCONVOLVE_CACHE_DIR=$D GST_CLCONVOLVE_TUNE_DIR=$T; done | med)"
echo "PoCL cache only (clconvolve caches off: times the candidates every start): $(for i in 1 2 3 4 5; do one POCL_KERNEL_CACHE=1 GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=; done | med)"
POCL_KERNEL_CACHE=1 GST_CLCONVOLVE_CACHE_DIR=$D GST_CLCONVOLVE_TUNE_DIR=$T \
  build/tools/clconvolve-warmup --resolution ${RES:-320x240} --kernel gaussian --size 7 > /dev/null
echo "all warm (default, after clconvolve-warmup): $(for i in 1 2 3 4 5; do one POCL_KERNEL_CACHE=1 GST_CLCONVOLVE_CACHE_DIR=$D GST_CLCONVOLVE_TUNE_DIR=$T; done | med)"
echo "files: $(ls $D | wc -l) programs, $(ls $T | wc -l) tuning choices"
rm -rf $D $T
