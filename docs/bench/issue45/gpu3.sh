#!/bin/bash
# device run 3 (issue 45, session 25), two GPUs: where do the pauses of device=auto:gpu come
# from? The same streams (1080p RGBA motionblur 7, pushed from N threads in one process) with
# the helper found beside the plugin (default), and with no helper (GST_CLCONVOLVE_HELPER=""),
# and all on one GPU; worst gap between two output frames of a stream per run. Then frames in
# flight over two GPUs (one stream each, max-inflight 3) against one stream on one GPU.
D=$PWD/devbench/s25/now
mkdir -p build/gst build/tools
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin
unset GST_CLCONVOLVE_HELPER
nvidia-smi -L > $OUT/gpus.txt
B=$D/clconvolve-bench
S="-r 1920x1080 -s 7 -k motionblur -m auto -t 1 --runs 3"
$B --help > /dev/null
for i in 1 2; do
  $B $S -d auto:gpu --streams 2,4,8 -l auto-helper
  GST_CLCONVOLVE_HELPER= $B $S -d auto:gpu --streams 2,4,8 -l auto-nohelper
  $B $S -d 0:0 --streams 2,4,8 -l one-gpu
done > $OUT/gaps.jsonl 2> $OUT/gaps.log
$B $S -d 0:0 --streams 1 --max-inflight 3 -l one-mi3 > $OUT/mi3.jsonl 2> $OUT/mi3.log
$B $S -d auto:gpu --streams 2 --max-inflight 3 -l two-mi3 >> $OUT/mi3.jsonl 2>> $OUT/mi3.log
grep -h "fps" $OUT/gaps.log $OUT/mi3.log | tail -40
