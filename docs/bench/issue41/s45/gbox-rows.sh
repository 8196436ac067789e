#!/bin/bash
# Next device call (issue 41), carry [".devgst", "build"] or a devbench copy of build/gst,
# build/tools and build/tests/bench: the GPU box's row pass GST_CLCONVOLVE_GBOX_ROWS rows at a
# time (1: today's, a window slid over 2 pixels a work-item) against 4, 8 and 16 (segments of
# 8, 16 and 32 pixels), kernel alone, box at sizes 3-63, 1080p and 4K RGBA, two alternating
# rounds, each figure also as a multiple of the same run's frame copy.
#   . .devgst/activate.sh >/dev/null 2>&1; bash docs/bench/issue41/s45/gbox-rows.sh
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup GST_REGISTRY=/tmp/reg-rows.bin
nvidia-smi -L > $OUT/gpu.txt 2>&1
for round in 1 2; do
  for rb in 1 4 8 16; do
    GST_CLCONVOLVE_GBOX_ROWS=$rb timeout 120 build/tests/bench/clconvolve-bench \
      --res 1920x1080,3840x2160 --sizes 3,7,15,31,63 --runs 3 --seconds 0.2 --min-frames 10 \
      -l rows-$rb-r$round --element "clconvolve method=separable kernel=box size={size} bands=1 profiling=true" \
      >> $OUT/gbox-rows.jsonl 2> $OUT/gbox-rows-$rb-r$round.txt
    grep fps $OUT/gbox-rows-$rb-r$round.txt
  done
done
