/* clconvolve, regions of interest many at once: rectangles of bytes copied between buffers, 16
 * bytes a work-item: a frame's windows gathered one under the other into one image that one
 * launch convolves, and the regions scattered back from its output. A program is common.cl
 * (built with -DGENERIC to satisfy its checks; of it only border_coord is used here) and this
 * file.
 * Copyright (C) 2026 clconvolve developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Bytes x .. x + n - 1 of row rr of a window reaching past its plane's edges into d: rec
 * holds the plane's offset, pixels and rows, the pixel's bytes, the window's first pixel and
 * row in the plane and the border rule; a pixel outside comes from the one border_coord
 * names, as the kernels' fetches take it (zeros for the constant rule) */
inline void
copy_bordered (__global const uchar * src, int pitch, __global const int *rec, int rr, int x,
    int n, __global uchar * d)
{
  int width = rec[1], height = rec[2], pb = rec[3], border = rec[6];
  int y = rec[5] + rr, c = rec[4] * pb + x;

  if (border == BORDER_CONSTANT && (y < 0 || y >= height)) {
    for (int i = 0; i < n; i++)
      d[i] = 0;
    return;
  }
  __global const uchar *row = src + rec[0] + border_coord (y, height, border, 0) * pitch;

  if (n == 16 && c >= 0 && c + 16 <= width * pb) {
    vstore16 (vload16 (0, row + c), 0, d);
    return;
  }
  for (int i = 0; i < n; i++) {
    int px = rec[4] + (x + i) / pb;

    if (border == BORDER_CONSTANT && (px < 0 || px >= width))
      d[i] = 0;
    else
      d[i] = row[border_coord (px, width, border, 0) * pb + (x + i) % pb];
  }
}

/* table from base: n_rects rectangles of 8 ints (source offset and pitch, destination offset
 * and pitch, bytes a row, the launch's row their first row is, in increasing order, and 0 or,
 * for a window past the plane's edges, where in table its record for copy_bordered is); a row
 * finds its rectangle by bisection; work-item x copies bytes 16 x .. 16 x + 15 of its row
 * (none past the rectangle's bytes); the launch's rows may be rounded up to its work-group,
 * and those from rows on copy nothing */
__kernel void
region_copy (__global const uchar * src, __global uchar * dst, __global const int *table,
    int base, int n_rects, int rows)
{
  int x = 16 * (int) get_global_id (0), r = get_global_id (1);
  int lo = 0, hi = n_rects - 1;

  if (r >= rows)
    return;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;

    if (table[base + 8 * mid + 5] <= r)
      lo = mid;
    else
      hi = mid - 1;
  }
  __global const int *t = table + base + 8 * lo;
  int rr = r - t[5];
  __global uchar *d = dst + t[2] + rr * t[3] + x;

  if (t[6]) {
    copy_bordered (src, t[1], table + t[6], rr, x, min (16, t[4] - x), d);
    return;
  }
  __global const uchar *s = src + t[0] + rr * t[1] + x;

  if (x + 16 <= t[4]) {
    vstore16 (vload16 (0, s), 0, d);
  } else {
    for (int i = 0; i < t[4] - x; i++)
      d[i] = s[i];
  }
}
