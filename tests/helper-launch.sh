#!/bin/sh
# The build helper without GST_CLCONVOLVE_HELPER (issue 43): found from the plugin's own path
# (here a copy of the build tree: gst/ and tools/ side by side), its jobs then done by it
# (helper=true in their clconvolve-job messages) with no warning; and with the plugin alone,
# one warning on the bus that names where it looked. Run by meson test:
#   helper-launch.sh PLUGIN HELPER INSTALLED-HELPER
plugin=$1 helper=$2 installed=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset GST_CLCONVOLVE_HELPER GST_CLCONVOLVE_SYNC_BUILDS
mkdir -p "$tmp/found/gst" "$tmp/found/tools" "$tmp/alone/gst"
cp "$plugin" "$tmp/found/gst/"
cp "$helper" "$tmp/found/tools/"
cp "$plugin" "$tmp/alone/gst/"

# a live stream (the helper serves streaming elements, not GST_CLCONVOLVE_SYNC_BUILDS' waits)
# of $2 frames, long enough for its build
run () {
  GST_PLUGIN_PATH_1_0="$tmp/$1/gst" GST_REGISTRY_1_0="$tmp/registry-$1.bin" \
    gst-launch-1.0 -m videotestsrc is-live=true num-buffers=$2 \
    ! video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1 \
    ! clconvolve kernel=box size=5 method=vector autotune=false ! fakesink 2>&1
}
fail () { echo "FAIL: $*"; exit 1; }

out=$(run found 240) || { echo "$out"; fail "the pipeline beside the helper failed"; }
echo "$out" | grep "clconvolve-job" | head -3
echo "$out" | grep -q "phase=(string)done.*helper=(boolean)true" ||
  fail "no job done by the helper found beside the plugin"
echo "$out" | grep -q "was not found" && fail "a warning although the helper is there"

out=$(run alone 15) || { echo "$out"; fail "the pipeline without a helper failed"; }
if [ -x "$installed" ]; then
  # an installed copy is found where meson puts it: no warning is due
  echo "$out" | grep -q "was not found" && fail "a warning although $installed is there"
  echo "ok: found beside the plugin, and the installed $installed"
  exit 0
fi
echo "$out" | grep "was not found" | head -2
[ "$(echo "$out" | grep -c "WARNING: from element.*clconvolve-warmup was not found")" = 1 ] ||
  fail "not one bus warning for the missing helper"
echo "$out" | grep -q "looked for $tmp/alone/gst/clconvolve-warmup" ||
  fail "the warning does not say where it looked"
echo "$out" | grep -q "phase=(string)done.*helper=(boolean)true" &&
  fail "a job says the helper ran, with no helper"
echo "ok: found beside the plugin; without it, one warning that says where it looked"
