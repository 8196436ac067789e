#!/bin/bash
# s34 GPU: tests/bench/run-bench on the device (docs/benchmarks.md regenerated, issue 43), the
# build of 943f27e; usage: gpu-bench.sh PARTS (run-bench's --parts), output in $OUT
# (its third call, blurs,peers, ran past the device call's 600 s under "timeout 560" and its
# files did not come back; why is not known: now 450 s, killed 5 s after)
D=$PWD/devbench/s34
mkdir -p build/gst build/tools build/tests/bench
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
cp $D/clconvolve-bench build/tests/bench/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
# the machine is offline: PyPI's OpenCV (the opencv-python the device's python3 has, in its
# user site, which no venv sees) through build/bench-venv/bin/python3 as a wrapper of that
# python3 (run-bench's pip upgrade then fails fast and the wrapper stays)
mkdir -p build/bench-venv/bin
printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v python3)" > build/bench-venv/bin/python3
chmod +x build/bench-venv/bin/python3
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
python3 -c 'import cv2; print("cv2", cv2.__version__)' >> $OUT/gpu.txt 2>&1
timeout -k 5 450 python3 tests/bench/run-bench --parts "$1" --seconds 0.5 --min-frames 2 \
  --label gpu-h200 --out $OUT/gpu-h200-$(echo "$1" | tr , -).jsonl > $OUT/log-$(echo "$1" | tr , -).txt 2>&1
echo "rc=$?" >> $OUT/log-$(echo "$1" | tr , -).txt
tail -5 $OUT/log-*.txt
