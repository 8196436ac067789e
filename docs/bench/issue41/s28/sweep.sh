#!/bin/bash
# s28 device run 1: the tile form of lsep swept against lsep my=4, 1080p RGBA, clamp
D=$PWD/devbench/s28
cd $D
LT_DEV=gpu timeout 500 ./lt $PWD/k 1920 1080 15 < cfg-sweep.txt > $OUT/sweep-1080p.txt 2>&1
echo rc=$? >> $OUT/sweep-1080p.txt
