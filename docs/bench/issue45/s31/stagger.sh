#!/bin/bash
# one cold clconvolve-bench --stagger run on PoCL's two devices with the plugin in $1
P=$(mktemp -d) C=$(mktemp -d) T=$(mktemp -d)
POCL_DEVICES="pthread pthread" POCL_CACHE_DIR=$P GST_CLCONVOLVE_CACHE_DIR=$C GST_CLCONVOLVE_TUNE_DIR=$T \
GST_PLUGIN_PATH_1_0=$1 GST_REGISTRY_1_0=/tmp/reg-stag-$(basename $1).bin GST_CLCONVOLVE_HELPER=/work/main/build/tools/clconvolve-warmup \
timeout 300 /work/main/build/tests/bench/clconvolve-bench --res 640x480 --sizes 7 --kernels gaussian --methods auto \
  --device auto:cpu --streams 2 --stagger 3000 --runs 1 --seconds 6 --min-frames 10 2>/dev/null | grep '^{' | python3 -c "
import json,sys
for l in sys.stdin:
  d=json.loads(l)
  if d.get('kind')=='element': print('fps %.0f worst_gap_ms %s run_worst %s stream_worst %s devices %s' % (d['fps']['median'], d.get('worst_gap_ms'), d.get('run_worst_gap_ms'), d.get('stream_worst_gap_ms'), d.get('devices')))
"
rm -rf $P $C $T
