#!/bin/sh
# gst-launch-1.0 with no OpenCL platform: must exit non-zero with the bus error, not crash.
# Run by meson test with OCL_ICD_VENDORS set to an empty directory.
out=$(gst-launch-1.0 videotestsrc num-buffers=1 ! clconvolve ! fakesink 2>&1)
rc=$?
echo "$out"
case $rc in
  0) echo "FAIL: gst-launch-1.0 exited 0 without an OpenCL device"; exit 1 ;;
  1|255) ;;  # gst-launch's error exits
  *) echo "FAIL: gst-launch-1.0 exited $rc (a crash?)"; exit 1 ;;
esac
echo "$out" | grep -q "No OpenCL device found" || { echo "FAIL: no 'No OpenCL device found' error"; exit 1; }
echo "$out" | grep -q "pocl-opencl-icd" || { echo "FAIL: the error does not say how to get a device"; exit 1; }
echo "ok: exit $rc with the bus error"
