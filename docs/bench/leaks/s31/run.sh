#!/bin/bash
# The allocation-query leak of session 31: stress.c starts and stops a pipeline N times
# (PLAYING, a random wait of 0-5 ms, NULL) under the leaks tracer; prints the objects alive at
# exit. Build: gcc -O1 -o /tmp/clstress docs/bench/leaks/s31/stress.c $(pkg-config --cflags --libs gstreamer-1.0)
# usage: run.sh PLUGIN_DIR [N]   (from the project root, after ninja -C build)
export GST_PLUGIN_PATH_1_0=$1 GST_PLUGIN_SYSTEM_PATH_1_0=/usr/lib/x86_64-linux-gnu/gstreamer-1.0 \
  GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR= POCL_CACHE_DIR=$PWD/build/tests/pocl-cache \
  GST_CLCONVOLVE_SYNC_BUILDS=1 GST_CLCONVOLVE_HELPER=$PWD/build/tools/clconvolve-warmup \
  GST_TRACERS='leaks(filters="GstBufferPool,GstAllocator,GstQuery")' \
  GST_REGISTRY_1_0=/tmp/stress-reg-$(basename "$1").bin GST_DEBUG=GST_TRACER:7 STRESS_PLAYING=1
D="videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=32,height=24 ! clconvolve name=a method=float4 autotune=false ! queue ! clconvolve name=b method=float4 autotune=false kernel=box size=3 ! fakesink"
/tmp/clstress "${2:-1000}" "$D" 5000 2>&1 | grep -v tracer_record_build_format | grep -c object-alive
