#!/bin/bash
# magnitude (one pass) vs one matrix vs two passes (sobel-x then sobel-y, two elements)
B=${B:-build/tests/bench/clconvolve-bench}
D=${D:-}
for f in GRAY8 RGBA; do
for s in 3 7 31; do
  $B -r 1920x1080 -s $s -f $f --runs 5 $D -e "clconvolve kernel=sobel-x size={size} combine=magnitude" -l magnitude 2>/dev/null | grep '"kind":"element"'
  $B -r 1920x1080 -s $s -f $f --runs 5 $D -e "clconvolve kernel=sobel-x size={size}" -l one-matrix 2>/dev/null | grep '"kind":"element"'
  $B -r 1920x1080 -s $s -f $f --runs 5 $D -e "clconvolve kernel=sobel-x size={size} ! clconvolve kernel=sobel-y size={size}" -l two-passes 2>/dev/null | grep '"kind":"element"'
done; done
