/* clconvolve benchmarks: what the benchmark programs share
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include <string.h>

#include "benchframes.h"

void
bench_fill_random (GstBuffer * buf, guint32 seed)
{
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (seed);

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i + 4 <= map.size; i += 4) {
    guint32 r = g_rand_int (rand);
    memcpy (map.data + i, &r, 4);
  }
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);
}
