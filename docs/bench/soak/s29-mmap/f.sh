#!/bin/bash
# session 29, device run F (the GPU machine's CPU through PoCL): two 4-minute soaks side by side,
# no disk caches, one with a fixed mmap threshold (glibc tunable): does the free heap kept by
# malloc stop growing?
D=$PWD/devbench/s29/now
mkdir -p build/gst build/tools
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH_1_0=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin
mkdir -p /tmp/pocl-only; ls /etc/OpenCL/vendors/ > $OUT/vendors.txt
cp /etc/OpenCL/vendors/*pocl* /tmp/pocl-only/ 2>/dev/null
export OCL_ICD_VENDORS=/tmp/pocl-only
unset OCL_ICD_FILENAMES
S="$D/clconvolve-soak --no-disk-cache --seconds 230 --interval 30"
timeout 250 $S --out $OUT/plain.jsonl > $OUT/plain.txt 2>&1 &
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 timeout 250 $S --out $OUT/mmap.jsonl > $OUT/mmap.txt 2>&1
wait
grep -E "^t |RSS after|anonymous" $OUT/plain.txt | cut -c1-160; echo; grep -E "^t |RSS after|anonymous" $OUT/mmap.txt | cut -c1-160
