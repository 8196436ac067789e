# Shared by scripts/demo, scripts/test, scripts/package and scripts/check-install: Debian 12
# packages, the meson build and checks of a built plugin.
# Sourced, not run.

CLCONVOLVE_PACKAGES="gcc pkg-config meson ninja-build python3
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo locales
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0"
# scripts/test's too: clang and its libFuzzer runtime for tests/fuzz (the sanitizer build uses
# gcc, whose ASan and UBSan runtimes come with it)
# shellcheck disable=SC2034
CLCONVOLVE_TEST_PACKAGES="clang libclang-rt-14-dev"

# Installs the packages that are missing (apt-get; sudo when not root): the list above and the
# arguments.
install_deps () {
  missing=""
  for p in $CLCONVOLVE_PACKAGES "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "installing:$missing"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q >/dev/null
  # shellcheck disable=SC2086
  $sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
}

# Configures (once) and builds into build/.
build_plugin () {
  if [ ! -f build/build.ninja ]; then
    meson setup build >/dev/null
  fi
  meson compile -C build >/dev/null
}

# The files ninja builds for the tests of build directory $1 named after it: what each needs (its
# program, the plugin, ...), as meson test would rebuild them, so that a second build compiles
# only what its tests run.
test_targets () {
  python3 - "$@" <<'PY'
import json, os, subprocess, sys

wd, names = sys.argv[1], set(sys.argv[2:])
def intro(kind):
    return json.loads(subprocess.check_output(['meson', 'introspect', wd, '--' + kind]))
files = {t['id']: t['filename'] for t in intro('targets')}
out = set()
for t in intro('tests'):
    if t['name'] in names:
        for d in t['depends']:
            out.update(os.path.relpath(f, wd) for f in files[d])
print('\n'.join(sorted(out)))
PY
}

# Those of the tests named after build directory $1 that it has (so that a suite another change
# adds is run once it exists), separated by spaces.
existing_tests () {
  python3 - "$@" <<'PY'
import json, subprocess, sys

wd, names = sys.argv[1], sys.argv[2:]
have = {t['name'] for t in
        json.loads(subprocess.check_output(['meson', 'introspect', wd, '--tests']))}
print(' '.join(n for n in names if n in have))
PY
}

# The sanitizer build, build-asan/: gcc's ASan and UBSan over the plugin, its libraries and the
# test programs (b_lundef=false: the plugin takes the sanitizer symbols from the runtime of the
# process that loads it). Configures once; builds only what the tests named in the arguments
# run, and writes the environment they run in (asan_helpers).
build_asan () {
  if [ ! -f build-asan/build.ninja ]; then
    CC=gcc meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false \
      -Dbenchmarks=disabled -Dfuzzers=disabled >/dev/null || return 1
  fi
  # shellcheck disable=SC2046
  ninja -C build-asan $(test_targets build-asan "$@") >/dev/null || return 1
  asan_helpers
}

# build-asan/asan.env (to source) and what it names:
# - gst-plugin-scanner-asan: GStreamer scans plugins in a separate, uninstrumented program that
#   cannot load the instrumented plugin ("ASan runtime does not come first"); this wrapper runs
#   it with gcc's libasan preloaded, without leak checks (what the system plugins keep is not
#   ours). GST_REGISTRY_FORK=no would scan in the test process instead, but loading every system
#   plugin there outgrows GLib's quark table, whose old block GLib drops on purpose: a 16 KiB
#   leak report on every first run.
# - lsan.supp: PoCL, its LLVM and the ICD loader are not instrumented and keep allocations to
#   the end (PoCL's compiler state: about 10 MB in 13000 blocks after the cache suite); leaks
#   allocated through them are theirs. Any other leak fails the test.
# - every report fails the test: ASan and LSan abort, UBSan (which goes on by default) halts.
asan_helpers () {
  local scanner libasan

  scanner="$(pkg-config --variable=pluginscannerdir gstreamer-1.0)/gst-plugin-scanner"
  libasan=$(gcc -print-file-name=libasan.so)
  printf '%s\n' '#!/bin/sh' \
    "LD_PRELOAD=$libasan\${LD_PRELOAD:+:\$LD_PRELOAD} ASAN_OPTIONS=\"\$ASAN_OPTIONS:detect_leaks=0\" \\" \
    "  exec $scanner \"\$@\"" > build-asan/gst-plugin-scanner-asan
  chmod +x build-asan/gst-plugin-scanner-asan
  printf 'leak:%s\n' libpocl.so libLLVM libOpenCL.so > build-asan/lsan.supp
  printf 'export %s\n' \
    "GST_PLUGIN_SCANNER_1_0=$PWD/build-asan/gst-plugin-scanner-asan" \
    "ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1" \
    "LSAN_OPTIONS=suppressions=$PWD/build-asan/lsan.supp:print_suppressions=0" \
    "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1" > build-asan/asan.env
}

# The libFuzzer build, build-fuzz/ (clang): only the fuzz targets and their seed generator.
build_fuzz () {
  if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang meson setup build-fuzz -Dfuzzers=enabled -Dbenchmarks=disabled >/dev/null ||
      return 1
  fi
  # shellcheck disable=SC2046
  ninja -C build-fuzz $(test_targets build-fuzz fuzz-matrix fuzz-cache) >/dev/null
}

# A live stream through the plugin in PLUGINDIR (GStreamer registry and caches under DIR) with
# no GST_CLCONVOLVE_HELPER set: returns 0 when a build was done by a helper the plugin found
# from its own place, else prints what happened and returns 1. Any arguments after the two
# prefix the command (scripts/check-install: running it as another user).
#   helper_stream_ok PLUGINDIR DIR [PREFIX...]
helper_stream_ok () {
  local plugindir=$1 dir=$2
  shift 2
  "$@" env -u GST_CLCONVOLVE_HELPER -u GST_CLCONVOLVE_SYNC_BUILDS PATH="$PATH" HOME="$dir" \
    GST_PLUGIN_PATH="$plugindir" GST_REGISTRY_1_0="$dir/registry.bin" XDG_CACHE_HOME="$dir/cache" \
    gst-launch-1.0 -m videotestsrc is-live=true num-buffers=240 ! \
    video/x-raw,width=64,height=48,format=RGBA,framerate=30/1 ! \
    clconvolve kernel=box size=5 method=vector autotune=false ! fakesink >"$dir/launch.txt" 2>&1 ||
    { cat "$dir/launch.txt"; return 1; }
  grep -q "phase=(string)done.*helper=(boolean)true" "$dir/launch.txt" ||
    { grep -i "clconvolve-job\|warn" "$dir/launch.txt"; return 1; }
}
