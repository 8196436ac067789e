#!/bin/bash
# alternating cold gaps runs: base (6a1a69c) vs new (the generic separable program built for the first frame of a matrix that splits)
cd /work/main
for i in $(seq 1 ${N:-6}); do
  for b in base new; do
    D=$(mktemp -d) T=$(mktemp -d) P=$(mktemp -d)
    r=$(GST_REGISTRY=/tmp/ab/reg-$b.bin GST_PLUGIN_PATH_1_0=/tmp/ab/$b/gst GST_CLCONVOLVE_CACHE_DIR=$D GST_CLCONVOLVE_TUNE_DIR=$T POCL_CACHE_DIR=$P timeout 900 build/tests/bench/clconvolve-gaps --res 640x480 --every 30 2>/dev/null | python3 -c "
import json,sys
for l in sys.stdin:
  if l.startswith('{'):
    d=json.loads(l); print(d.get('worst_gap_ms'), d.get('first_frame_ms'), ' '.join('%s:%.0f' % (c['change'].replace(' ','_'),c['worst_gap_ms']) for c in d['changes'] if c['worst_gap_ms']>60))
")
    rm -rf $D $T $P
    echo "$i $b $r"
  done
done
