#!/bin/bash
# The latency clconvolve adds to a live stream (clconvolve-gaps with no setting change): frames
# pushed in real time by a live appsrc at FPS (default 30) through
#   appsrc is-live=true ! clconvolve kernel=gaussian size=7 ! appsink sync=false
# in system memory, as a camera's buffers are. A frame's latency is its output time less its
# push time. With empty caches in temporary directories:
# 1. cold: the first format and size with nothing compiled (the first frame, and the frames
#    while the kernels are built and tuned in the helper process);
# 2. clconvolve-warmup over every format and size (as a user would before going live);
# 3. warm: each format and size, FRAMES frames (default 150), and at each size the same
#    pipeline with kernel=identity (passthrough: appsrc to appsink alone) for reference.
# Prints each run's JSON line tagged "run" (cold, warm, baseline), then a table. Arguments go
# to clconvolve-gaps (e.g. --device gpu). Run after building.
#   tests/bench/latency.sh --device cpu
cd "$(dirname "$0")/../.."
export GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=${GST_CLCONVOLVE_HELPER-$PWD/build/tools/clconvolve-warmup}
B=build/tests/bench/clconvolve-gaps
W=build/tools/clconvolve-warmup
RES=${RES:-640x480 1280x720 1920x1080}
FORMATS=${FORMATS:-YUY2 NV12 RGBA}
FRAMES=${FRAMES:-150}
FPS=${FPS:-30}
device=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --device=*) device=("${args[$i]}") ;;
    --device | -d) device=(--device "${args[$((i + 1))]}") ;;
  esac
done

D=$(mktemp -d) T=$(mktemp -d) P=$(mktemp -d)  # programs, tuning choices, PoCL's kernels
trap 'rm -rf "$D" "$T" "$P"' EXIT
export GST_CLCONVOLVE_CACHE_DIR=$D GST_CLCONVOLVE_TUNE_DIR=$T POCL_CACHE_DIR=$P
status=0
results=$(mktemp)
run () {  # label, then clconvolve-gaps arguments
  local label=$1 line
  shift
  line=$(timeout 600 $B --schedule "" --fps "$FPS" "$@" "${args[@]}" 2>/dev/null) || status=1
  echo "$line" | sed "s/^{/{\"run\":\"$label\",/" | tee -a "$results"
}

first_res=${RES%% *} first_format=${FORMATS%% *}
run cold --res "$first_res" --format "$first_format" --every "$FRAMES"
$W "${device[@]}" --format "${FORMATS// /,}" --resolution "${RES// /,}" \
  >/dev/null 2>&1 || { echo "latency: clconvolve-warmup failed" >&2; status=1; }
for r in $RES; do
  for f in $FORMATS; do
    run warm --res "$r" --format "$f" --every "$FRAMES"
  done
  run baseline --res "$r" --format "$first_format" --every "$FRAMES" --extra kernel=identity
done

python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
if rows:
    print('\ndevice: %s; %d fps; latency of the frames after the first, ms' %
          (rows[0]['device'], rows[0]['fps']))
print('%-8s %-9s %-5s %9s %8s %8s %8s %12s' %
      ('run', 'size', 'fmt', 'first ms', 'median', 'p95', 'max', 'frames out'))
for r in rows:
    print('%-8s %-9s %-5s %9.1f %8.2f %8.2f %8.2f %8d/%-4d%s' % (
        r['run'], '%dx%d' % (r['width'], r['height']), r['format'], r['first_frame_ms'],
        r['latency_ms_median'], r['latency_ms_p95'], r['latency_ms_max'], r['frames_out'],
        r['frames_in'], '' if r['ok'] else ' FAILED'))
PY
rm -f "$results"
exit $status
