#!/bin/sh
# The build helper ends with the application (issue 44): a pipeline whose helper is compiling
# (a tuning job of a 31x31 gaussian, PoCL's kernel cache empty: seconds of work; its start seen
# in the job messages) is killed with SIGKILL; the helper, found by its parent's PID, must be
# gone within 3 s, not finish its job.
# Run by meson test: helper-parent.sh HELPER
helper=$1
tmp=$(mktemp -d)
gst=
cleanup () {
  [ -n "$gst" ] && kill -9 "$gst" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail () { echo "FAIL: $*"; exit 1; }
unset GST_CLCONVOLVE_SYNC_BUILDS
export GST_CLCONVOLVE_HELPER="$helper" POCL_CACHE_DIR="$tmp/pocl" GST_CLCONVOLVE_CACHE_DIR="" \
  GST_CLCONVOLVE_TUNE_DIR="$tmp/tune"

gst-launch-1.0 -m videotestsrc is-live=true num-buffers=3000 \
  ! video/x-raw,format=RGBA,width=320,height=240,framerate=30/1 \
  ! clconvolve kernel=gaussian size=31 ! fakesink > "$tmp/log" 2>&1 &
gst=$!

# the helper, a child of the pipeline's process
pid=
for i in $(seq 600); do
  pid=$(pgrep -P "$gst" -f 'clconvolve-warmup --serve' | head -n 1)
  [ -n "$pid" ] && break
  kill -0 "$gst" 2>/dev/null || { cat "$tmp/log"; fail "the pipeline ended before a helper started"; }
  sleep 0.1
done
[ -n "$pid" ] || fail "no helper started within 60 s"
# into the tuning job (after the fixed variant's build): its candidates at 31x31, seconds of
# compiling from nothing
for i in $(seq 600); do
  grep -q "job=(string)tune, phase=(string)started" "$tmp/log" && break
  sleep 0.1
done
grep -q "job=(string)tune, phase=(string)started" "$tmp/log" || fail "no tuning job within 60 s"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "the helper ended before its parent"
kill -9 "$gst"
wait "$gst" 2>/dev/null
gst=
for i in $(seq 30); do
  kill -0 "$pid" 2>/dev/null || { echo "ok: the helper $pid ended with its parent"; exit 0; }
  sleep 0.1
done
ps -o pid,ppid,etime,args -p "$pid"
fail "the helper $pid outlived its parent by 3 s"
