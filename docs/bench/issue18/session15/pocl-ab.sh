#!/bin/bash
# PoCL A/B: before issue 18 (02179ef) and now, alternating
OUT=/tmp/pocl-ab.jsonl; : > $OUT
for round in 1 2; do
  for t in old new; do
    if [ $t = old ]; then R=/tmp/old; else R=/work/main; fi
    for fmt in RGBA NV12; do
      GST_PLUGIN_PATH=$R/build/gst GST_CLCONVOLVE_TUNE_DIR=/tmp/tune-$t GST_CLCONVOLVE_HELPER=$R/build/tools/clconvolve-warmup \
        $R/build/tests/bench/clconvolve-bench --runs 3 --seconds 0.5 --min-frames 5 --res 1920x1080 --sizes 7,15 \
        --methods auto --kernels motionblur,gaussian --format $fmt --label "$t" 2>/dev/null | grep '^{' | \
        python3 -c "import sys,json
for l in sys.stdin:
  r=json.loads(l)
  if 'fps' in r: r['round']=$round; print(json.dumps(r))" >> $OUT
    done
  done
done
python3 - <<'P'
import json
for l in open('/tmp/pocl-ab.jsonl'):
  r=json.loads(l); print(r['round'], r['label'], r['format'], r['kernel'], r['size'], r['fps']['median'], r.get('variant'))
P
