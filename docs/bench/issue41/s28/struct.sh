#!/bin/bash
# s28 device run 8: what lsep's structure costs at small sizes (centre load, tile shapes); profilers present?
cd $PWD/devbench/s28
which ncu nsys nvprof 2>&1; ls -d /usr/local/cuda* /opt/nvidia 2>&1 | head
LT_DEV=gpu timeout 200 ./lt $PWD/k 1920 1080 15 < cfg-struct.txt > $OUT/struct.txt 2>&1; echo rc=$? >> $OUT/struct.txt
grep -E "us \(min" $OUT/struct.txt | awk '{print $1,$2,$3,$5,$9,$10,$11,$12}'
