#!/bin/bash
# device run 8 (issue 41, session 26): csep taking the vertical sums of G output rows together
# (each input row loaded and converted once for them): G 1 (as committed), 2 and 4 on blocks of
# 256 pixels, 4 on 128; kernel alone on 2 cores of the host CPU, builds alternating, 3 rounds;
# OpenCV 5.0 on 2 threads between rounds
D=$PWD/devbench/s26
B=$D/clconvolve-bench
for r in 1 2 3; do
  for v in g1 g2_256 g4_256 g4_128; do
    GST_PLUGIN_PATH=$D/$v POCL_MAX_PTHREAD_COUNT=2 taskset -c 2,3 $B --device cpu --runs 1 --seconds 1.5 --min-frames 5 --res 1920x1080 --sizes 15,31 --kernels gaussian,unsharp --methods separable -l cpu-$v
  done
  taskset -c 2,3 python3 $D/cv.py
done > $OUT/cpu-g.jsonl 2> $OUT/cpu-g.log
