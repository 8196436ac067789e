/* cltime: host time spent in OpenCL calls, per call and per frame (LD_PRELOAD this module into
 * clconvolve-bench; a frame is counted at each clWaitForEvents, which the element calls once
 * per frame). Reports on stderr at exit. Used for docs/design.md's "Where one stream's host
 * time goes":
 *   LD_PRELOAD=build/tests/bench/libcltime.so build/tests/bench/clconvolve-bench --runs 1 ...
 * The figures include the benchmark's warm-up and its profiled run: compare calls per frame
 * and the time per call, not the totals.
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#define _GNU_SOURCE
#include "config.h"
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum
{
  C_FLUSH, C_WRITE, C_READ, C_WRITE_RECT, C_READ_RECT, C_KERNEL, C_RELEASE, C_WAIT, C_ARG,
  C_RETAIN, C_INFO, C_MARKER, N_CALLS
};

static const char *const call_names[N_CALLS] = {
  "clFlush", "WriteBuffer", "ReadBuffer", "WriteBufferRect", "ReadBufferRect", "NDRangeKernel",
  "ReleaseEvent", "WaitForEvents", "SetKernelArg", "RetainEvent", "GetEventInfo", "Marker"
};

static _Atomic long long total_ns[N_CALLS], calls[N_CALLS];

static long long
now_ns (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* name: the OpenCL entry point, forwarded to the next definition (the ICD loader's) and timed */
#define TIMED(name, id, params, args) \
  cl_int name params \
  { \
    static cl_int (*real) params; \
    long long t0; \
    cl_int ret; \
    if (!real) \
      real = (cl_int (*) params) dlsym (RTLD_NEXT, #name); \
    t0 = now_ns (); \
    ret = real args; \
    total_ns[id] += now_ns () - t0; \
    calls[id]++; \
    return ret; \
  }

TIMED (clFlush, C_FLUSH, (cl_command_queue q), (q))
TIMED (clEnqueueWriteBuffer, C_WRITE, (cl_command_queue q, cl_mem m, cl_bool b, size_t o,
        size_t s, const void *p, cl_uint n, const cl_event * w, cl_event * e),
    (q, m, b, o, s, p, n, w, e))
TIMED (clEnqueueReadBuffer, C_READ, (cl_command_queue q, cl_mem m, cl_bool b, size_t o,
        size_t s, void *p, cl_uint n, const cl_event * w, cl_event * e),
    (q, m, b, o, s, p, n, w, e))
TIMED (clEnqueueWriteBufferRect, C_WRITE_RECT, (cl_command_queue q, cl_mem m, cl_bool b,
        const size_t * bo, const size_t * ho, const size_t * rg, size_t bp, size_t bs,
        size_t hp, size_t hs, const void *p, cl_uint n, const cl_event * w, cl_event * e),
    (q, m, b, bo, ho, rg, bp, bs, hp, hs, p, n, w, e))
TIMED (clEnqueueReadBufferRect, C_READ_RECT, (cl_command_queue q, cl_mem m, cl_bool b,
        const size_t * bo, const size_t * ho, const size_t * rg, size_t bp, size_t bs,
        size_t hp, size_t hs, void *p, cl_uint n, const cl_event * w, cl_event * e),
    (q, m, b, bo, ho, rg, bp, bs, hp, hs, p, n, w, e))
TIMED (clEnqueueNDRangeKernel, C_KERNEL, (cl_command_queue q, cl_kernel k, cl_uint d,
        const size_t * o, const size_t * g, const size_t * l, cl_uint n, const cl_event * w,
        cl_event * e), (q, k, d, o, g, l, n, w, e))
TIMED (clReleaseEvent, C_RELEASE, (cl_event e), (e))
TIMED (clWaitForEvents, C_WAIT, (cl_uint n, const cl_event * l), (n, l))
TIMED (clSetKernelArg, C_ARG, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))
TIMED (clRetainEvent, C_RETAIN, (cl_event e), (e))
TIMED (clGetEventInfo, C_INFO, (cl_event e, cl_event_info i, size_t s, void *v, size_t * r),
    (e, i, s, v, r))
TIMED (clEnqueueMarkerWithWaitList, C_MARKER, (cl_command_queue q, cl_uint n,
        const cl_event * w, cl_event * e), (q, n, w, e))

__attribute__((destructor))
     static void report (void)
{
  long long frames = calls[C_WAIT] ? calls[C_WAIT] : 1;

  fprintf (stderr, "cltime: %lld frames (waits)\n", (long long) calls[C_WAIT]);
  for (int i = 0; i < N_CALLS; i++)
    if (calls[i])
      fprintf (stderr, "cltime: %-16s %6.2f calls a frame, %8.2f us a call, %8.1f us a frame\n",
          call_names[i], (double) calls[i] / frames, total_ns[i] / 1000.0 / calls[i],
          total_ns[i] / 1000.0 / frames);
}
