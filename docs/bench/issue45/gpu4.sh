#!/bin/bash
# device run 4 (issue 45, session 25), two GPUs: the default launch line (no device named)
# against one GPU (device=0:0), 1080p RGBA motionblur 7, N streams in one process at
# max-inflight 1 and 3; frames/s and the worst gap between two output frames of a stream
D=$PWD/devbench/s25/now2
mkdir -p build/gst build/tools
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin
unset GST_CLCONVOLVE_HELPER
nvidia-smi -L > $OUT/gpus.txt
B=$D/clconvolve-bench
S="-r 1920x1080 -s 7 -k motionblur -m auto -t 1 --runs 3"
for mi in 1 3; do
  $B $S --max-inflight $mi --streams 1,2,4,8,16 -l default-mi$mi
  $B $S -d 0:0 --max-inflight $mi --streams 1,2,4,8,16 -l one-gpu-mi$mi
done > $OUT/default.jsonl 2> $OUT/default.log
grep -h "fps" $OUT/default.log | tail -40
