#!/bin/bash
# Worst gap between output frames while clconvolve's settings change live (clconvolve-gaps):
# a cold run (empty PoCL kernel cache, empty clconvolve program and tuning caches: every change
# builds and times its programs), then a warm one with the caches the cold run filled. Prints
# each run's JSON line tagged "cache" and "run", then the median worst gap of each. RUNS rounds
# (default 1), each with fresh caches; the arguments go to clconvolve-gaps. Run after building.
#   tests/bench/gaps.sh --res 320x240 --every 10
#   FIND_HELPER=1 RUNS=3 tests/bench/gaps.sh --res 640x480 --every 30   (issue 43's check)
cd "$(dirname "$0")/../.."
export GST_PLUGIN_PATH_1_0=$PWD/build/gst
# the worker's helper process: this build's, unless one is given; FIND_HELPER=1 leaves the
# variable unset, so the element finds the helper beside the plugin as a user's would
if [ "${FIND_HELPER:-}" = 1 ]; then
  unset GST_CLCONVOLVE_HELPER
else
  export GST_CLCONVOLVE_HELPER=${GST_CLCONVOLVE_HELPER-$PWD/build/tools/clconvolve-warmup}
fi
B=build/tests/bench/clconvolve-gaps
status=0
declare -A gaps  # worst gaps of the cold and of the warm runs
# the run's worst gap: the first worst_gap_ms (those of the changes follow it)
worst () { grep -o '"worst_gap_ms":[-0-9.]*' | head -1 | grep -o '[-0-9.]*$'; }
med () { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)], "ms (" a[1] "-" a[NR] ")"}'; }
for r in $(seq 1 "${RUNS:-1}"); do
  D=$(mktemp -d) T=$(mktemp -d) P=$(mktemp -d)  # programs, tuning choices, PoCL's kernels
  for label in cold warm; do
    line=$(GST_CLCONVOLVE_CACHE_DIR=$D GST_CLCONVOLVE_TUNE_DIR=$T POCL_CACHE_DIR=$P \
      timeout 900 $B "$@") || status=1
    echo "$line" | sed "s/^{/{\"cache\":\"$label\",\"run\":$r,/"
    gaps[$label]+=" $(echo "$line" | worst)"
  done
  rm -rf "$D" "$T" "$P"
done
echo "median worst gap over ${RUNS:-1} run(s): cold $(printf '%s\n' ${gaps[cold]} | med)," \
  "warm $(printf '%s\n' ${gaps[warm]} | med)"
exit $status
