#!/bin/sh
# clconvolve-warmup's errors (issue 43): a bad matrix, a misspelt kernel, an even size, an
# unknown property and no OpenCL device each give a message that says what is wrong and a
# non-zero exit; --version works. Run by meson test: warmup-errors.sh WARMUP EMPTY-VENDORS-DIR
warmup=$1 empty=$2
fail () { echo "FAIL: $*"; exit 1; }

# expect STATUS NEEDLE ARGS...: the exit status and a word of the message
expect () {
  want=$1 needle=$2
  shift 2
  out=$("$warmup" --resolution 64x48 "$@" 2>&1)
  rc=$?
  echo "\$ clconvolve-warmup $*  -> $rc"
  echo "$out" | tail -3
  [ "$rc" = "$want" ] || fail "exit $rc, expected $want"
  echo "$out" | grep -q -- "$needle" || fail "the message lacks '$needle'"
}

expect 2 "odd" --set 'matrix=1 1 1 1'
expect 2 "one of identity, box, gaussian" --kernel gausian
expect 2 "must be odd" --size 4
expect 2 "has no property 'bordr'" --set bordr=mirror
expect 2 "not PROPERTY=VALUE" --set mirror
expect 0 "job" --set 'matrix=1 2 1; 2 4 2; 1 2 1' --set border=mirror

out=$("$warmup" --version) || fail "--version failed"
echo "$out" | grep -q "^clconvolve-warmup [0-9]" || fail "--version printed '$out'"

out=$(OCL_ICD_VENDORS=$empty "$warmup" --list 2>&1)
rc=$?
echo "$out"
[ $rc = 1 ] || fail "--list without a device exited $rc"
echo "$out" | grep -q "pocl-opencl-icd" || fail "--list without a device does not say what to do"
out=$(OCL_ICD_VENDORS=$empty "$warmup" --resolution 64x48 2>&1)
rc=$?
echo "$out" | tail -3
[ $rc = 1 ] || fail "a warm-up without a device exited $rc"
echo "$out" | grep -q "No OpenCL device found" || fail "no 'No OpenCL device found'"
echo "ok: every error says what is wrong, with a non-zero exit"
