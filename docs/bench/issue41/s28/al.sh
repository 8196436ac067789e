#!/bin/bash
# s28 device run 10: lsep with whole-pixel loads and stores where aligned (k) against 3d554b8 (k0), 2 rounds
cd $PWD/devbench/s28
for r in 1 2; do for k in k0 k; do
  echo "== $k"; LT_DEV=gpu timeout 100 ./lt $PWD/$k 1920 1080 15 < cfg-al.txt 2>&1 | grep -E "us \(min"
done; done > $OUT/al.txt
awk '/^==/{k=$2} /us \(min/{for(i=1;i<=NF;i++) if($i=="us") print k, $1, $2$3, $(i-1), $(i+3), $(i+4)}' $OUT/al.txt | sed 's/K=K=/K=/' | sort -k2,3 -s | paste - - - -
