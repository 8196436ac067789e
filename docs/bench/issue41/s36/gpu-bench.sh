#!/bin/bash
# s36 GPU: tests/bench/run-bench on the device with lsep's wide tiles (docs/benchmarks.md
# regenerated), binaries in devbench/s36/new; usage: gpu-bench.sh PARTS (run-bench's --parts),
# output in $OUT (450 s at most, killed 5 s after: a call past 600 s returns no file)
D=$PWD/devbench/s36/new
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
