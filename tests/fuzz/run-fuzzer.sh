#!/usr/bin/env bash
# run-fuzzer.sh TARGET WORKDIR [--generate SEEDGEN] [-FLAG=VALUE | SEEDDIR]...
# Runs a libFuzzer target for $FUZZ_SECONDS (default 20) seconds over WORKDIR/corpus (where
# libFuzzer adds what it finds: kept between runs, so later runs start further on) and the
# seed directories (read only). --generate SEEDGEN first runs "SEEDGEN WORKDIR/seeds", seeds
# made with the current file format; -FLAG=VALUE arguments go to libFuzzer (-dict=FILE).
# Exits non-zero on a crash, a sanitizer finding, a leak, an input slower than 10 s or over
# 1 GiB; the input is then WORKDIR/artifacts/crash-* (or leak-, timeout-, oom-), replayed by
# running "TARGET FILE".
set -euo pipefail
target=$1
work=$2
shift 2
mkdir -p "$work/corpus" "$work/artifacts"
# the targets' scratch files on tmpfs where there is one: the cache's stores sync every file
# (about 40 runs a second on ext4 against 2000 on tmpfs)
if [ -z "${FUZZ_TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  FUZZ_TMPDIR=/dev/shm
fi
[ -n "${FUZZ_TMPDIR:-}" ] && export TMPDIR=$FUZZ_TMPDIR
dirs=("$work/corpus")
if [ "${1:-}" = --generate ]; then
  rm -rf "$work/seeds"
  "$2" "$work/seeds"
  dirs+=("$work/seeds")
  shift 2
fi
flags=()
for a in "$@"; do
  case $a in
    -*) flags+=("$a") ;;
    *) dirs+=("$a") ;;
  esac
done
exec "$target" -max_total_time="${FUZZ_SECONDS:-20}" -rss_limit_mb=1024 -timeout=10 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${flags[@]}" "${dirs[@]}"
