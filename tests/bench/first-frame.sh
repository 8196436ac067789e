#!/bin/bash
# First-frame latency of clconvolve: cold and warm program caches (PoCL's own kernel cache,
# clconvolve's binary cache), 5 fresh processes each, medians. Run after building.
cd "$(dirname "$0")/../.."
export GST_PLUGIN_PATH_1_0=$PWD/build/gst
B="build/tests/bench/clconvolve-bench --res 320x240 --sizes 7 --kernels gaussian --methods auto --seconds 0.05 --runs 1 --min-frames 2"
one () { env "$@" timeout 300 $B 2>/dev/null | grep -o '"first_frame_ms":{"median":[0-9.]*' | grep -o '[0-9.]*$'; }
med () { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)], "(" a[1] "-" a[NR] ")"}'; }
D=$(mktemp -d)
echo "cold (no PoCL cache, empty clconvolve cache): $(for i in 1 2 3 4 5; do rm -rf $D/*; one POCL_KERNEL_CACHE=0 GST_CLCONVOLVE_CACHE_DIR=$D; done | med)"
one POCL_KERNEL_CACHE=0 GST_CLCONVOLVE_CACHE_DIR=$D > /dev/null
echo "warm clconvolve cache, no PoCL cache: $(for i in 1 2 3 4 5; do one POCL_KERNEL_CACHE=0 GST_CLCONVOLVE_CACHE_DIR=$D; done | med)"
echo "PoCL cache only (clconvolve cache off): $(for i in 1 2 3 4 5; do one POCL_KERNEL_CACHE=1 GST_CLCONVOLVE_CACHE_DIR=; done | med)"
one POCL_KERNEL_CACHE=1 GST_CLCONVOLVE_CACHE_DIR=$D > /dev/null
echo "both warm (default): $(for i in 1 2 3 4 5; do one POCL_KERNEL_CACHE=1 GST_CLCONVOLVE_CACHE_DIR=$D; done | med)"
ls $D | wc -l
rm -rf $D
