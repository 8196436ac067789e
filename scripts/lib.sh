# Shared by scripts/demo and scripts/test: Debian 12 packages and the meson build.
# Sourced, not run.

CLCONVOLVE_PACKAGES="gcc pkg-config meson ninja-build python3
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo locales"

# Installs the packages that are missing (apt-get; sudo when not root).
install_deps () {
  missing=""
  for p in $CLCONVOLVE_PACKAGES; do
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
