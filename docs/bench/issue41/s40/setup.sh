# Sourced by run1.sh and run2.sh on the device machine: the plugin and helper of devbench/s40/new
# into build/, the environment the suites and the bench run in. D: the binaries' directory.
D=$PWD/devbench/s40
nvidia-smi -L > $OUT/gpu.txt 2>&1
mkdir -p build/gst build/tools
cp $D/new/libgstclconvolve.so build/gst/; cp $D/new/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_PLUGIN_PATH_1_0=$PWD/build/gst
export GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup
export GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=
