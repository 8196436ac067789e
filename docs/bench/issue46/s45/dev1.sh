#!/bin/bash
# s45 device call, carry [".devgst", "devbench"] (devbench/s45: old/ and new/ the plugin and
# helper of dbd3047 and of 89307bc or later (the row spans), clconvolve-bench and clconvolve-gaps of
# the head's build):
#   . .devgst/activate.sh >/dev/null 2>&1; bash docs/bench/issue46/s45/dev1.sh
# 0. issue 46: A/B old/new, 50 regions all over the frame and in a band of 30 % of its rows;
# 1. issue 46: per-stage device times (profiling=true) and device timelines (TRACE) of the
#    50-region frame and of the whole frame, the head's plugin;
# 1b. issue 46: the 50-region frame at max-inflight 2, 3 and 4, two rounds;
# 2. issue 41: kernel alone, gaussian and box 3-63 at 1080p, x the same run's frame copy;
# 3. issue 41: live-change gaps and first frame, tsep off (=0) and on (=1, the default).
D=$PWD/devbench/s45
nvidia-smi -L > $OUT/gpu.txt 2>&1; cat $OUT/gpu.txt
R="clconvolve kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1 profiling=true"
for r in 0 1 2; do
  for v in old new; do
    P=/tmp/p-s45-$v; mkdir -p $P; cp $D/$v/libgstclconvolve.so $P/
    for band in 1 0.3; do
      GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-s45-$v.bin \
        GST_CLCONVOLVE_HELPER=$D/$v/clconvolve-warmup timeout 30 $D/clconvolve-bench --res 1920x1080 \
        --sizes 15 --hand-over --regions 50 --region-band $band --runs 3 --seconds 1 -l ab-$v-band-$band-r$r \
        --element "${R% profiling=true}" 2>&1 >> $OUT/ab.jsonl | grep fps
    done
  done
done
P=/tmp/p-s45-new
export GST_PLUGIN_PATH=$P GST_PLUGIN_PATH_1_0=$P GST_REGISTRY=/tmp/reg-s45-new.bin
export GST_CLCONVOLVE_HELPER=$D/new/clconvolve-warmup
W="clconvolve kernel=gaussian size={size} profiling=true"
for c in regions whole; do
  if [ $c = regions ]; then E=$R; X="--regions 50"; else E=$W; X=""; fi
  timeout 30 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over $X --runs 3 --seconds 1 \
    -l prof-$c --element "$E" 2>/dev/null | grep '"kind":"element"' >> $OUT/profile.jsonl
  GST_DEBUG=clconvolve:TRACE GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE=/tmp/tl-$c.log timeout 25 \
    $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over $X --runs 1 --seconds 0.3 \
    --element "$E" > /dev/null 2>&1
  grep 'timeline frame=' /tmp/tl-$c.log | tail -3000 > $OUT/tl-$c.log
  grep -i 'regions:' /tmp/tl-$c.log | tail -20 > $OUT/regions-log-$c.txt
done
python3 -c "
import json
for l in open('$OUT/profile.jsonl'):
    r=json.loads(l)
    print(r['label'], round(r['fps']['median']), 'up', r.get('upload_ms'), 'kern', r.get('kernel_ms'), 'down', r.get('download_ms'), 'ovl', r.get('overlap_fraction'))
"
wc -l $OUT/tl-*.log
# frames in flight for the 50-region frame (no profiling): 2 is the GPU default
for mi in 2 3 4 2 3 4; do
  timeout 20 $D/clconvolve-bench --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 3 --seconds 1 \
    --max-inflight $mi -l inflight-$mi --element "${R% profiling=true}" 2>&1 >> $OUT/inflight.jsonl | grep fps
done
for k in gaussian box; do
  timeout 80 $D/clconvolve-bench --res 1920x1080 --sizes 3,7,15,31,63 --runs 3 --seconds 0.2 --min-frames 10 \
    -l $k --element "clconvolve kernel=$k size={size} bands=1 profiling=true" >> $OUT/kernels.jsonl 2> $OUT/kernels-$k.txt
  grep fps $OUT/kernels-$k.txt
done
unset GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0 GST_REGISTRY GST_CLCONVOLVE_HELPER
# (s42/gaps.sh takes the plugin and helper from hb/ and clconvolve-gaps beside it)
ln -sfn new $D/hb
TS=${TS:-0 1} RUNS=${GAPS_RUNS:-1} GT=${GAPS_GT:-80} GAPS_DEVBENCH=$D bash docs/bench/issue41/s42/gaps.sh
