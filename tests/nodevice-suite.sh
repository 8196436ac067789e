#!/bin/sh
# The element suite with no OpenCL platform must fail (not skip, not crash) and say how to get
# a device. Run by meson test with OCL_ICD_VENDORS set to an empty directory; $1 is the suite.
out=$("$1" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 1 ] || { echo "FAIL: the suite exited $rc without a device (expected 1)"; exit 1; }
echo "$out" | grep -q "pocl-opencl-icd" || { echo "FAIL: no hint on how to get a device"; exit 1; }
echo "ok: the suite fails with the hint"
