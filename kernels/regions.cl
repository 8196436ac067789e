/* clconvolve, regions of interest many at once: rectangles of bytes copied between buffers, 16
 * bytes a work-item: a frame's windows gathered one under the other into one image that one
 * launch convolves, and the regions scattered back from its output. A program is common.cl
 * (nothing of it used here: built with -DGENERIC to satisfy its checks) and this file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* table from base: n_rects rectangles of 8 ints (source offset and pitch, destination offset
 * and pitch, bytes a row, the launch's row their first row is), then for each row of the
 * launch the rectangle it belongs to; work-item x copies bytes 16 x .. 16 x + 15 of its row
 * (none past the rectangle's bytes); the launch's rows may be rounded up to its work-group,
 * and those from rows on copy nothing */
__kernel void
region_copy (__global const uchar * src, __global uchar * dst, __global const int *table,
    int base, int n_rects, int rows)
{
  int x = 16 * (int) get_global_id (0), r = get_global_id (1);

  if (r >= rows)
    return;
  __global const int *t = table + base + 8 * table[base + 8 * n_rects + r];
  int rr = r - t[5];
  __global const uchar *s = src + t[0] + rr * t[1] + x;
  __global uchar *d = dst + t[2] + rr * t[3] + x;

  if (x + 16 <= t[4]) {
    vstore16 (vload16 (0, s), 0, d);
  } else {
    for (int i = 0; i < t[4] - x; i++)
      d[i] = s[i];
  }
}
