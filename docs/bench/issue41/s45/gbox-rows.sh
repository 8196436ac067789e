#!/bin/bash
# Next device call (issue 41), carry [".devgst", "devbench"] (devbench/s45/new: the plugin and
# helper of 89307bc or later; devbench/s45/clconvolve-bench of the same build): the GPU box's
# row pass GST_CLCONVOLVE_GBOX_ROWS rows at a time (1: a window slid over 2 pixels a
# work-item, as before session 45) against 4, 8 and 16 (segments of 8, 16 and 32 pixels),
# kernel alone, box at sizes 3-63, 1080p and 4K RGBA, two alternating rounds, each figure
# also as a multiple of the same run's frame copy. About 4 x 2 x 40 s.
#   . .devgst/activate.sh >/dev/null 2>&1; bash docs/bench/issue41/s45/gbox-rows.sh
D=$PWD/devbench/s45
P=/tmp/p-rows; mkdir -p $P; cp $D/new/libgstclconvolve.so $P/
export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-rows.bin
export GST_CLCONVOLVE_HELPER=$D/new/clconvolve-warmup
nvidia-smi -L > $OUT/gpu.txt 2>&1
for round in 1 2; do
  for rb in 1 4 8 16; do
    GST_CLCONVOLVE_GBOX_ROWS=$rb timeout 120 $D/clconvolve-bench \
      --res 1920x1080,3840x2160 --sizes 3,7,15,31,63 --runs 3 --seconds 0.2 --min-frames 10 \
      -l rows-$rb-r$round --element "clconvolve method=separable kernel=box size={size} bands=1 profiling=true" \
      >> $OUT/gbox-rows.jsonl 2> $OUT/gbox-rows-$rb-r$round.txt
    grep fps $OUT/gbox-rows-$rb-r$round.txt
  done
done
