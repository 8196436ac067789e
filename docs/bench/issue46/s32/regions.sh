#!/bin/bash
# Issue 46's cost of a privacy blur by region count: 1080p RGBA, frames handed over as a decoder
# does (--hand-over: regions work in place), 1, 10 and 50 regions of mixed sizes (24-200 pixel
# squares, clconvolve-bench --regions) with roi-scale=0.2 roi-margin-scale=0.1, against the
# same stream without the element (fps_without_element of each run) and against one whole-frame
# gaussian 15 (and 50 regions all at size 15, roi-scale off), in ROUNDS alternating rounds. usage: regions.sh OUT.jsonl [ROUNDS] [DEVICE]
# (run from the repository root; GST_PLUGIN_PATH must reach build/gst)
OUT=$1 ROUNDS=${2:-3} DEV=${3:+device=$3}
B=build/tests/bench/clconvolve-bench
for r in $(seq "$ROUNDS"); do
  for n in 1 10 50; do
    $B --res 1920x1080 --sizes 15 --hand-over --regions $n --runs 1 --seconds 2 --label "regions-$n" \
      --element "clconvolve $DEV kernel=gaussian roi-meta=true roi-scale=0.2 roi-margin-scale=0.1" \
      2>/dev/null | grep '"kind":"element"' >> "$OUT"
  done
  $B --res 1920x1080 --sizes 15 --hand-over --regions 50 --runs 1 --seconds 2 --label "regions-50-size-15" \
    --element "clconvolve $DEV kernel=gaussian size={size} roi-meta=true roi-margin-scale=0.1" \
    2>/dev/null | grep '"kind":"element"' >> "$OUT"
  $B --res 1920x1080 --sizes 15 --hand-over --runs 1 --seconds 2 --label whole-frame \
    --element "clconvolve $DEV kernel=gaussian size={size}" 2>/dev/null | grep '"kind":"element"' >> "$OUT"
done
python3 - "$OUT" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows:
    by.setdefault(r['label'], []).append(r)
whole = statistics.median(r['fps']['median'] for r in by.get('whole-frame', []))
for label in ['regions-1', 'regions-10', 'regions-50', 'regions-50-size-15', 'whole-frame']:
    rs = by.get(label, [])
    if not rs:
        continue
    fps = [r['fps']['median'] for r in rs]
    bare = [r['fps_without_element']['median'] for r in rs]
    print('%-18s fps %s  median %.1f  (%.2f x the whole-frame blur; stream without it %.0f fps)'
          % (label, ' '.join('%.1f' % f for f in fps), statistics.median(fps),
             statistics.median(fps) / whole, statistics.median(bare)))
PY
