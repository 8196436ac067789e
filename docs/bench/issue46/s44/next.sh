#!/bin/bash
# s44 device call, carry [".devgst", "devbench"]:
#   . .devgst/activate.sh >/dev/null 2>&1; bash docs/bench/issue46/s44/next.sh
# 1. issue 46: ab.sh (the three builds of the 50-region frame);
# 2. issue 46: the per-stage device times (profiling=true) of s43a and s44 at 50 regions and
#    of the whole frame, and the device timelines (TRACE) of both, kept under $OUT (drawn here
#    with tests/bench/timeline.py);
# 3. issue 41: the gaps and first frame with tsep on (the plugin of devbench/s41/hb: c76d802)
#    against GST_CLCONVOLVE_TENSOR=0 (docs/bench/issue41/s42/gaps.sh).
nvidia-smi -L > $OUT/gpu.txt 2>&1; cat $OUT/gpu.txt
timeout 200 bash docs/bench/issue46/s44/ab.sh
D=$PWD/devbench
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1 profiling=true"
for v in s43a s44; do
  case $v in s43a) B=$D/s43/after;; s44) B=$D/s44/after;; esac
  P=/tmp/p-s44-$v; mkdir -p $P; cp $B/libgstclconvolve.so $P/
  export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-s44-$v.bin
  export GST_CLCONVOLVE_HELPER=$B/clconvolve-warmup
  timeout 25 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 3 --seconds 1 -l prof-$v-regions-50 \
    --element "$R" >> $OUT/profile.jsonl 2>/dev/null
  GST_DEBUG=clconvolve:TRACE GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE=/tmp/tl-$v.log timeout 25 \
    $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 0.3 \
    --element "$R" > /dev/null 2>&1
  grep 'timeline frame=' /tmp/tl-$v.log | tail -3000 > $OUT/tl-regions-50-$v.log
  if [ $v = s44 ]; then
    timeout 25 $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --runs 3 --seconds 1 -l prof-whole \
      --element "clconvolve kernel=gaussian size={size} profiling=true" >> $OUT/profile.jsonl 2>/dev/null
    GST_DEBUG=clconvolve:TRACE GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE=/tmp/tl-whole.log timeout 25 \
      $D/s41/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --runs 1 --seconds 0.3 \
      --element "clconvolve kernel=gaussian size={size} profiling=true" > /dev/null 2>&1
    grep 'timeline frame=' /tmp/tl-whole.log | tail -3000 > $OUT/tl-whole.log
  fi
done
python3 -c "
import json
for l in open('$OUT/profile.jsonl'):
    r=json.loads(l)
    if r.get('kind')!='element': continue
    print(r['label'], round(r['fps']['median']), 'up', r.get('upload_ms'), 'kern', r.get('kernel_ms'), 'down', r.get('download_ms'), 'ovl', r.get('overlap_fraction'))
"
wc -l $OUT/tl-*.log
unset GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0 GST_REGISTRY GST_CLCONVOLVE_HELPER
RUNS=${GAPS_RUNS:-1} GT=${GAPS_GT:-80} bash docs/bench/issue41/s42/gaps.sh
