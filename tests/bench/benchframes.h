/* clconvolve benchmarks: what the benchmark programs share
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __BENCH_FRAMES_H__
#define __BENCH_FRAMES_H__

#include <gst/gst.h>

/* Fills buf with pseudo-random bytes from seed (the same seed, the same frame). */
void bench_fill_random (GstBuffer * buf, guint32 seed);

#endif /* __BENCH_FRAMES_H__ */
