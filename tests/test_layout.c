/* clconvolve: frame layout planning, without a device
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The expectations are written from the formats' byte layouts (GStreamer's documentation of
 * each format), not from the planner: which bytes of a pixel are a sample of which component,
 * the chroma subsampling, and what the planes property selects. A 7x5 frame makes every
 * rounded-up chroma size show. */

#include "framelayout.h"
#include "regions.h"
#include "gstclenums.h"

#include <string.h>

enum
{
  Y = GST_CL_CONVOLVE_PLANES_Y,
  U = GST_CL_CONVOLVE_PLANES_U,
  V = GST_CL_CONVOLVE_PLANES_V,
  R = GST_CL_CONVOLVE_PLANES_R,
  G = GST_CL_CONVOLVE_PLANES_G,
  B = GST_CL_CONVOLVE_PLANES_B,
  A = GST_CL_CONVOLVE_PLANES_A,
  AUTO = GST_CL_CONVOLVE_PLANES_AUTO
};

typedef struct
{
  gint plane, width, height, span, channels;
  guint skipmask, passmask;
  gint only;                    /* the one computed sample, -1: several */
} ExpectView;

typedef struct
{
  const gchar *format;
  guint planes;
  gint depth, n_planes;
  gint row[3], height[3];       /* of a 7x5 frame */
  gint n_views, n_shapes;
  ExpectView views[3];
} Expect;

/* 7x5: chroma of 4:2:0 is 4x3, of 4:2:2 4x5; YUY2/UYVY rows hold 4 macropixels (16 bytes) */
static const Expect expects[] = {
  /* RGBA: R G B A; alpha copied unless selected */
  {"RGBA", AUTO, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x8, -1}}},
  {"RGBA", R, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0xe, 0}}},
  {"RGBA", G | A, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x5, -1}}},
  {"RGBA", A, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x7, 3}}},
  {"RGBA", Y, 8, 1, {28}, {5}, 0, 0},
  /* BGRA: B G R A */
  {"BGRA", R, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0xb, 2}}},
  /* ARGB: A R G B; ABGR: A B G R */
  {"ARGB", AUTO, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x1, -1}}},
  {"ABGR", B, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0xd, 1}}},
  /* RGBx: R G B x, xRGB: x R G B, xBGR: x B G R; the padding byte is always copied */
  {"RGBx", AUTO, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x8, -1}}},
  {"BGRx", R | G, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x9, -1}}},
  {"xRGB", AUTO, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x1, -1}}},
  {"xBGR", R, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x7, 3}}},
  /* 3-byte RGB: R G B; BGR: B G R. Unselected components copied */
  {"RGB", AUTO, 8, 1, {21}, {5}, 1, 1, {{0, 7, 5, 7, 3, 0, 0, -1}}},
  {"RGB", G, 8, 1, {21}, {5}, 1, 1, {{0, 7, 5, 7, 3, 0, 0x5, 1}}},
  {"BGR", R, 8, 1, {21}, {5}, 1, 1, {{0, 7, 5, 7, 3, 0, 0x3, 2}}},
  {"BGR", R | G, 8, 1, {21}, {5}, 1, 1, {{0, 7, 5, 7, 3, 0, 0x1, -1}}},
  {"RGB", A | Y, 8, 1, {21}, {5}, 0, 0},
  /* gray: the plane is y */
  {"GRAY8", AUTO, 8, 1, {7}, {5}, 1, 1, {{0, 7, 5, 7, 1, 0, 0, -1}}},
  {"GRAY8", U | R, 8, 1, {7}, {5}, 0, 0},
  {"GRAY16_LE", Y, 16, 1, {14}, {5}, 1, 1, {{0, 7, 5, 7, 1, 0, 0, -1}}},
  {"GRAY16_BE", Y, 16, 1, {14}, {5}, 1, 1, {{0, 7, 5, 7, 1, 0, 0, -1}}},
  /* planar YUV: Y, U, V planes (YV12: Y, V, U) */
  {"I420", AUTO, 8, 3, {7, 4, 4}, {5, 3, 3}, 1, 1, {{0, 7, 5, 7, 1, 0, 0, -1}}},
  {"I420", U | V, 8, 3, {7, 4, 4}, {5, 3, 3}, 2, 1,
      {{1, 4, 3, 4, 1, 0, 0, -1}, {2, 4, 3, 4, 1, 0, 0, -1}}},
  {"YV12", U, 8, 3, {7, 4, 4}, {5, 3, 3}, 1, 1, {{2, 4, 3, 4, 1, 0, 0, -1}}},
  {"Y42B", Y | V, 8, 3, {7, 4, 4}, {5, 5, 5}, 2, 1,
      {{0, 7, 5, 7, 1, 0, 0, -1}, {2, 4, 5, 4, 1, 0, 0, -1}}},
  {"Y444", U, 8, 3, {7, 7, 7}, {5, 5, 5}, 1, 1, {{1, 7, 5, 7, 1, 0, 0, -1}}},
  {"I420", R, 8, 3, {7, 4, 4}, {5, 3, 3}, 0, 0},
  /* semi-planar: Y, then U V pairs (NV21: V U) */
  {"NV12", AUTO, 8, 2, {7, 8}, {5, 3}, 1, 1, {{0, 7, 5, 7, 1, 0, 0, -1}}},
  {"NV12", U, 8, 2, {7, 8}, {5, 3}, 1, 1, {{1, 4, 3, 4, 2, 0, 0x2, 0}}},
  {"NV21", U, 8, 2, {7, 8}, {5, 3}, 1, 1, {{1, 4, 3, 4, 2, 0, 0x1, 1}}},
  {"NV12", Y | U | V, 8, 2, {7, 8}, {5, 3}, 2, 2,
      {{0, 7, 5, 7, 1, 0, 0, -1}, {1, 4, 3, 4, 2, 0, 0, -1}}},
  /* NV16: chroma 4x5; NV24: 7x5 */
  {"NV16", V, 8, 2, {7, 8}, {5, 5}, 1, 1, {{1, 4, 5, 4, 2, 0, 0x1, 1}}},
  {"NV24", U | V, 8, 2, {7, 14}, {5, 5}, 1, 1, {{1, 7, 5, 7, 2, 0, 0, -1}}},
  /* 2-byte samples: rows of twice the bytes */
  {"P010_10LE", U, 16, 2, {14, 16}, {5, 3}, 1, 1, {{1, 4, 3, 4, 2, 0, 0x2, 0}}},
  {"P016_LE", Y | U | V, 16, 2, {14, 16}, {5, 3}, 2, 2,
      {{0, 7, 5, 7, 1, 0, 0, -1}, {1, 4, 3, 4, 2, 0, 0, -1}}},
  {"I420_10LE", U | V, 16, 3, {14, 8, 8}, {5, 3, 3}, 2, 1,
      {{1, 4, 3, 4, 1, 0, 0, -1}, {2, 4, 3, 4, 1, 0, 0, -1}}},
  {"I422_12LE", Y, 16, 3, {14, 8, 8}, {5, 5, 5}, 1, 1, {{0, 7, 5, 7, 1, 0, 0, -1}}},
  {"Y444_16LE", AUTO, 16, 3, {14, 14, 14}, {5, 5, 5}, 1, 1, {{0, 7, 5, 7, 1, 0, 0, -1}}},
  /* packed 4:4:4 with alpha, AYUV: A Y U V, VUYA: V U Y A; 16-bit RGBA */
  {"AYUV", AUTO, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0xd, 1}}},
  {"VUYA", U | A, 8, 1, {28}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x5, -1}}},
  {"AYUV", R, 8, 1, {28}, {5}, 0, 0},
  {"RGBA64_LE", AUTO, 16, 1, {56}, {5}, 1, 1, {{0, 7, 5, 7, 4, 0, 0x8, -1}}},
  /* planar RGB: G, B, R planes */
  {"GBR", R, 8, 3, {7, 7, 7}, {5, 5, 5}, 1, 1, {{2, 7, 5, 7, 1, 0, 0, -1}}},
  {"GBR", G | B, 8, 3, {7, 7, 7}, {5, 5, 5}, 2, 1,
      {{0, 7, 5, 7, 1, 0, 0, -1}, {1, 7, 5, 7, 1, 0, 0, -1}}},
  /* packed 4:2:2, YUY2: Y0 U Y1 V. Luma as 2-byte pixels (its Y and the chroma byte beside
   * it, copied); chroma as 4-byte macropixels (the luma bytes skipped when luma has a view of
   * its own, else copied) */
  {"YUY2", AUTO, 8, 1, {16}, {5}, 1, 1, {{0, 7, 5, 8, 2, 0, 0x2, 0}}},
  {"YUY2", U, 8, 1, {16}, {5}, 1, 1, {{0, 4, 5, 4, 4, 0, 0xd, 1}}},
  {"YUY2", U | V, 8, 1, {16}, {5}, 1, 1, {{0, 4, 5, 4, 4, 0, 0x5, -1}}},
  {"YUY2", Y | U | V, 8, 1, {16}, {5}, 2, 2,
      {{0, 4, 5, 4, 4, 0x5, 0, -1}, {0, 7, 5, 8, 2, 0x2, 0x2, 0}}},
  /* UYVY: U Y0 V Y1 */
  {"UYVY", AUTO, 8, 1, {16}, {5}, 1, 1, {{0, 7, 5, 8, 2, 0, 0x1, 1}}},
  {"UYVY", Y | V, 8, 1, {16}, {5}, 2, 2,
      {{0, 4, 5, 4, 4, 0xa, 0x1, 2}, {0, 7, 5, 8, 2, 0x1, 0x1, 1}}},
};

/* significant bits of a sample and where they start in its container */
static const struct
{
  const gchar *format;
  gint bits, shift;
  gboolean swap;                /* stored big-endian */
} sample_bits[] = {
  {"NV12", 8, 0}, {"GRAY16_LE", 16, 0}, {"P010_10LE", 10, 6}, {"P012_LE", 12, 4},
  {"P016_LE", 16, 0}, {"I420_10LE", 10, 0}, {"I420_12LE", 12, 0}, {"I422_10LE", 10, 0},
  {"Y444_12LE", 12, 0}, {"Y444_16LE", 16, 0}, {"GRAY16_BE", 16, 0, TRUE},
  {"RGBA64_LE", 16, 0}, {"RGB", 8, 0},
};

static gchar *
describe (const Expect * e)
{
  return g_strdup_printf ("%s planes=0x%x", e->format, e->planes);
}

static void
plan (const gchar * format, gint w, gint h, guint planes, ClLayout * L)
{
  GstVideoInfo info;

  g_assert_true (gst_video_info_set_format (&info, gst_video_format_from_string (format), w, h));
  memset (L, 0xa5, sizeof (*L));
  cl_layout_plan (&info, planes, FALSE, L);
}

static void
test_formats (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (expects); i++) {
    const Expect *e = &expects[i];
    gchar *what = describe (e);
    gsize base = 0;
    ClLayout L;

    g_test_message ("%s", what);
    plan (e->format, 7, 5, e->planes, &L);
    g_assert_cmpint (L.depth, ==, e->depth);
    g_assert_cmpint (L.n_planes, ==, e->n_planes);
    for (gint p = 0; p < e->n_planes; p++) {
      gboolean viewed = FALSE;

      g_assert_cmpint (L.row[p], ==, e->row[p]);
      g_assert_cmpint (L.height[p], ==, e->height[p]);
      /* packed one after the other, tightly */
      g_assert_cmpuint (L.base[p], ==, base);
      base += (gsize) e->row[p] * e->height[p];
      for (gint v = 0; v < e->n_views; v++)
        viewed |= e->views[v].plane == p;
      g_assert_cmpint (L.convolved[p], ==, viewed);
    }
    g_assert_cmpuint (L.size, ==, base);
    g_assert_cmpint (L.n_views, ==, e->n_views);
    g_assert_cmpint (L.n_shapes, ==, e->n_shapes);
    for (gint v = 0; v < e->n_views; v++) {
      const ExpectView *x = &e->views[v];
      const ClView *got = &L.views[v];
      const ClShape *s;

      g_assert_cmpint (got->plane, ==, x->plane);
      g_assert_cmpint (got->width, ==, x->width);
      g_assert_cmpint (got->height, ==, x->height);
      g_assert_cmpint (got->span, ==, x->span);
      g_assert_cmpuint (got->passmask, ==, x->passmask);
      g_assert_cmpint (got->shape, >=, 0);
      g_assert_cmpint (got->shape, <, L.n_shapes);
      s = &L.shapes[got->shape];
      g_assert_cmpint (s->channels, ==, x->channels);
      g_assert_cmpint (s->depth, ==, e->depth);
      g_assert_cmpuint (s->skipmask, ==, x->skipmask);
      g_assert_cmpuint (s->passmask, ==, x->passmask);
      g_assert_cmpint (s->only, ==, x->only);
    }
    /* views of one shape share it; views of different pixels do not */
    for (gint a = 0; a < e->n_views; a++)
      for (gint b = a + 1; b < e->n_views; b++) {
        const ExpectView *x = &e->views[a], *y = &e->views[b];
        gboolean same = x->channels == y->channels && x->skipmask == y->skipmask &&
            x->passmask == y->passmask && x->only == y->only;

        g_assert_cmpint (L.views[a].shape == L.views[b].shape, ==, same);
      }
    g_free (what);
  }
}

/* Plane sizes at the edges: 1x1 (chroma rounds up to one sample), even sizes (exact halves)
 * and a wide odd frame. */
static void
test_sizes (void)
{
  static const gint dims[][2] = { {1, 1}, {2, 2}, {64, 48}, {1921, 1081} };

  for (guint d = 0; d < G_N_ELEMENTS (dims); d++) {
    gint w = dims[d][0], h = dims[d][1], cw = (w + 1) / 2, ch = (h + 1) / 2;
    ClLayout L;

    plan ("I420", w, h, Y | U | V, &L);
    g_assert_cmpint (L.row[0], ==, w);
    g_assert_cmpint (L.row[1], ==, cw);
    g_assert_cmpint (L.height[2], ==, ch);
    g_assert_cmpuint (L.size, ==, (gsize) w * h + 2 * (gsize) cw * ch);
    g_assert_cmpint (L.views[2].width, ==, cw);

    plan ("NV21", w, h, AUTO, &L);
    g_assert_cmpint (L.row[1], ==, 2 * cw);
    g_assert_cmpuint (L.size, ==, (gsize) w * h + 2 * (gsize) cw * ch);

    plan ("UYVY", w, h, Y, &L);
    g_assert_cmpint (L.row[0], ==, 4 * cw);
    g_assert_cmpint (L.views[0].width, ==, w);
    g_assert_cmpint (L.views[0].span, ==, 2 * cw);

    plan ("GRAY16_LE", w, h, AUTO, &L);
    g_assert_cmpint (L.row[0], ==, 2 * w);
    g_assert_cmpuint (L.size, ==, 2 * (gsize) w * h);

    plan ("xBGR", w, h, AUTO, &L);
    g_assert_cmpuint (L.size, ==, 4 * (gsize) w * h);

    /* 3-byte pixels: rows of 3 w bytes, whatever their alignment */
    plan ("BGR", w, h, AUTO, &L);
    g_assert_cmpint (L.row[0], ==, 3 * w);
    g_assert_cmpuint (L.size, ==, 3 * (gsize) w * h);
  }
}

/* every shape of a format carries its samples' bits, shift and byte order, the kernels' BITS,
 * SHIFT and SWAP */
static void
test_sample_bits (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (sample_bits); i++) {
    ClLayout L;

    g_test_message ("%s", sample_bits[i].format);
    plan (sample_bits[i].format, 9, 7, Y | U | V | R | G | B, &L);
    g_assert_cmpint (L.bits, ==, sample_bits[i].bits);
    g_assert_cmpint (L.shift, ==, sample_bits[i].shift);
    g_assert_cmpint (L.swap, ==, sample_bits[i].swap);
    g_assert_cmpint (L.n_shapes, >, 0);
    for (gint s = 0; s < L.n_shapes; s++) {
      g_assert_cmpint (L.shapes[s].bits, ==, sample_bits[i].bits);
      g_assert_cmpint (L.shapes[s].shift, ==, sample_bits[i].shift);
      g_assert_cmpint (L.shapes[s].swap, ==, sample_bits[i].swap);
    }
  }
}

/* Regions: each part's window is the region's pixels plus the radius, clipped to the plane
 * (or the whole row with wrap where the radius crosses an edge); a subsampled plane takes the
 * samples its pixels meet, packed 4:2:2 whole macropixels, a field its own rows. Positions
 * below in bytes and rows of the plane (or field) from the formats' layouts. */
typedef struct
{
  gint plane, field;
  gsize rx, rbytes;             /* region: first byte of a row, bytes */
  gint ry, rrows;
  gsize x, bytes;               /* window */
  gint y, rows;
} ExpectPart;

static void
check_parts (const ClLayout * L, gint w, gint h, ClRect r, gint radius, gboolean wrap,
    const ExpectPart * e, gint n)
{
  ClRegionPart parts[CL_MAX_VIEWS];
  gsize bytes = 10, end = 10;
  gint got = cl_region_plan (L, w, h, &r, radius, wrap, parts, &bytes);

  g_assert_cmpint (got, ==, n);
  for (gint i = 0; i < n; i++) {
    const ClRegionPart *p = &parts[i];

    g_test_message ("part %d: plane %d field %d", i, p->plane, p->field);
    g_assert_cmpint (p->plane, ==, e[i].plane);
    g_assert_cmpint (p->field, ==, e[i].field);
    g_assert_cmpuint (p->x + p->rx, ==, e[i].rx);
    g_assert_cmpuint (p->rbytes, ==, e[i].rbytes);
    g_assert_cmpint (p->y + p->ry, ==, e[i].ry);
    g_assert_cmpint (p->rrows, ==, e[i].rrows);
    g_assert_cmpuint (p->x, ==, e[i].x);
    g_assert_cmpuint (p->bytes, ==, e[i].bytes);
    g_assert_cmpint (p->y, ==, e[i].y);
    g_assert_cmpint (p->rows, ==, e[i].rows);
    /* one after the other, 64-byte aligned */
    g_assert_cmpuint (p->offset % 64, ==, 0);
    g_assert_cmpuint (p->offset, >=, end);
    end = p->offset + p->bytes * p->rows;
    for (gint j = 0; j < p->n_launches; j++) {
      const ClRegionLaunch *l = &p->launch[j];
      const ClShape *sh = &L->shapes[L->views[l->view].shape];
      gsize pb = (gsize) sh->channels * sh->depth / 8;

      g_assert_cmpint (L->views[l->view].plane, ==, p->plane);
      g_assert_cmpuint (l->x * pb, ==, p->x);
      g_assert_cmpuint (l->span * pb, ==, p->bytes);
      g_assert_cmpint (l->width, <=, l->span);
    }
  }
  g_assert_cmpuint (bytes, ==, end);
}

static void
test_regions (void)
{
  ClLayout L;
  GstVideoInfo info;

  /* YUY2 41 wide (21 macropixels, 84 bytes a row): pixels 5..7 are macropixels 2 and 3; the
   * chroma view's radius of 2 macropixels reaches byte 0; both views launch */
  plan ("YUY2", 41, 29, Y | U | V, &L);
  check_parts (&L, 41, 29, (ClRect) { 5, 4, 3, 2 }, 2, FALSE,
      (ExpectPart[]) { {0, 0, 8, 8, 4, 2, 0, 24, 2, 6} }, 1);
  /* to the right edge: the window takes the padding pixel's macropixel */
  check_parts (&L, 41, 29, (ClRect) { 39, 27, 50, 50 }, 1, FALSE,
      (ExpectPart[]) { {0, 0, 76, 8, 27, 2, 72, 12, 26, 3} }, 1);
  /* GRAY8 with wrap: the radius crosses no edge down (rows 0..8), the left edge across */
  plan ("GRAY8", 20, 10, Y, &L);
  check_parts (&L, 20, 10, (ClRect) { 1, 3, 4, 2 }, 3, TRUE,
      (ExpectPart[]) { {0, 0, 1, 4, 3, 2, 0, 20, 0, 8} }, 1);
  check_parts (&L, 20, 10, (ClRect) { 8, 3, 4, 2 }, 3, TRUE,
      (ExpectPart[]) { {0, 0, 8, 4, 3, 2, 5, 10, 0, 8} }, 1);
  /* clipped, and nothing left */
  check_parts (&L, 20, 10, (ClRect) { -5, -5, 7, 6 }, 1, FALSE,
      (ExpectPart[]) { {0, 0, 0, 2, 0, 1, 0, 3, 0, 2} }, 1);
  check_parts (&L, 20, 10, (ClRect) { 20, 0, 5, 5 }, 1, FALSE, NULL, 0);
  check_parts (&L, 20, 10, (ClRect) { 2, 2, 0, 5 }, 1, FALSE, NULL, 0);
  /* RGBA 16-bit: 8-byte pixels */
  plan ("RGBA64_LE", 20, 10, AUTO, &L);
  check_parts (&L, 20, 10, (ClRect) { 3, 0, 2, 1 }, 2, FALSE,
      (ExpectPart[]) { {0, 0, 24, 16, 0, 1, 8, 48, 0, 3} }, 1);
  /* interlaced I420 16x16, rows 5..10 of the frame: the top field's rows 6, 8, 10 are its
   * rows 3..5, the bottom field's 5, 7, 9 its rows 2..4; chroma rows 2..5 of the plane
   * (pixels 0..3: chroma 0..1) are rows 1, 2 of each field */
  g_assert_true (gst_video_info_set_interlaced_format (&info, GST_VIDEO_FORMAT_I420,
          GST_VIDEO_INTERLACE_MODE_INTERLEAVED, 16, 16));
  cl_layout_plan (&info, Y | U | V, TRUE, &L);
  check_parts (&L, 16, 16, (ClRect) { 0, 5, 4, 6 }, 1, FALSE,
      (ExpectPart[]) {
        {0, 1, 0, 4, 3, 3, 0, 5, 2, 5}, {0, 2, 0, 4, 2, 3, 0, 5, 1, 5},
        {1, 1, 0, 2, 1, 2, 0, 3, 0, 4}, {1, 2, 0, 2, 1, 2, 0, 3, 0, 4},
        {2, 1, 0, 2, 1, 2, 0, 3, 0, 4}, {2, 2, 0, 2, 1, 2, 0, 3, 0, 4} }, 6);
}

/* roi-scale's side and the margins, by hand: scale x the shorter side, the nearest odd,
 * 3 .. 63, then the next of 3 5 7 9 11 15 19 23 31 39 47 55 63 */
static void
test_region_side (void)
{
  ClRect r = { 10, 20, 30, 40, 0 };

  g_assert_cmpint (cl_region_side (0.2, 200, 100), ==, 23);     /* 20 -> 21 -> 23 */
  g_assert_cmpint (cl_region_side (0.2, 100, 200), ==, 23);
  g_assert_cmpint (cl_region_side (0.2, 35, 200), ==, 7);       /* 7 */
  g_assert_cmpint (cl_region_side (0.2, 30, 200), ==, 7);       /* 6 -> 7 */
  g_assert_cmpint (cl_region_side (0.2, 24, 24), ==, 5);        /* 4.8 -> 5 */
  g_assert_cmpint (cl_region_side (0.2, 4, 4), ==, 3);          /* 0.8: the least */
  g_assert_cmpint (cl_region_side (0.25, 48, 60), ==, 15);      /* 12 -> 13 -> 15 */
  g_assert_cmpint (cl_region_side (1.0, 3000, 2000), ==, 63);   /* the most */
  g_assert_cmpint (cl_region_side (0.5, 0, 10), ==, 3);
  g_assert_cmpint (cl_region_side (1.0, 41, 41), ==, 47);       /* 41 -> 47 */
  g_assert_cmpint (cl_region_side (1.0, 56, 60), ==, 63);       /* 57 -> 63 */

  cl_rect_grow (&r, 2, 0.0);
  g_assert_true (r.x == 8 && r.y == 18 && r.width == 34 && r.height == 44);
  r = (ClRect) { 10, 20, 30, 40, 0 };
  cl_rect_grow (&r, 1, 0.1);        /* 1 + 3 across, 1 + 4 down */
  g_assert_true (r.x == 6 && r.y == 15 && r.width == 38 && r.height == 50);
  r = (ClRect) { 10, 20, 31, 41, 0 };
  cl_rect_grow (&r, 0, 0.1);        /* 3.1 and 4.1 rounded up */
  g_assert_true (r.x == 6 && r.y == 15 && r.width == 39 && r.height == 51);
  /* far left: x stops at G_MININT, the width keeps the right edge */
  r = (ClRect) { G_MININT + 1, 0, 10, 10, 0 };
  cl_rect_grow (&r, 5, 0.0);
  g_assert_true (r.x == G_MININT && r.width == 16 && r.height == 20);
  /* far right: the width stops at G_MAXINT */
  r = (ClRect) { G_MAXINT - 4, 0, G_MAXINT, 10, 0 };
  cl_rect_grow (&r, 5, 0.0);
  g_assert_true (r.x == G_MAXINT - 9 && r.width == G_MAXINT);
}

/* roi-types with scales of their own */
static void
test_region_types (void)
{
  gchar **names;
  gdouble *scales;

  g_assert_true (cl_region_types_parse ("face, license-plate", &names, &scales));
  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[1], ==, "license-plate");
  g_assert_true (scales[0] == -1.0 && scales[1] == -1.0);
  g_strfreev (names);
  g_free (scales);
  g_assert_false (cl_region_types_parse ("face=0.3, plate ,=2,car=x,bus=11,van=0",
          &names, &scales));
  g_assert_cmpuint (g_strv_length (names), ==, 3);
  g_assert_cmpstr (names[0], ==, "face");
  g_assert_cmpstr (names[1], ==, "plate");
  g_assert_cmpstr (names[2], ==, "van");
  g_assert_true (scales[0] == 0.3 && scales[1] == -1.0 && scales[2] == 0.0);
  g_strfreev (names);
  g_free (scales);
  /* nothing usable: every type */
  g_assert_false (cl_region_types_parse ("=1,car=y", &names, &scales));
  g_assert_null (names);
  g_assert_null (scales);
  g_assert_true (cl_region_types_parse ("", &names, &scales));
  g_assert_null (names);
}

/* A region through the rules: types taken, a type's own scale, scales only for presets made
 * at any size, margins for every region */
static void
test_region_rules (void)
{
  ClRegionRules rules = { NULL, NULL, 0.2, 1, 0.0 };
  ClRect r = { 10, 10, 100, 50, 0 };

  g_assert_true (cl_region_types_parse ("face=0.5,plate", &rules.types, &rules.type_scale));
  g_assert_true (cl_region_rules_apply (&rules, "face", TRUE, &r));
  g_assert_cmpint (r.size, ==, 31);     /* 0.5 x 50 = 25 -> 31 */
  g_assert_true (r.x == 9 && r.y == 9 && r.width == 102 && r.height == 52);
  r = (ClRect) { 10, 10, 100, 50, 0 };
  g_assert_true (cl_region_rules_apply (&rules, "plate", TRUE, &r));
  g_assert_cmpint (r.size, ==, 11);     /* roi-scale's 0.2 x 50 = 10 -> 11 */
  r = (ClRect) { 10, 10, 100, 50, 0 };
  g_assert_false (cl_region_rules_apply (&rules, "car", TRUE, &r));
  g_assert_true (r.x == 10 && r.size == 0);
  g_assert_true (cl_region_rules_apply (&rules, "face", FALSE, &r));
  g_assert_cmpint (r.size, ==, 0);      /* kernel=custom: its own size */
  r = (ClRect) { 10, 10, 100, 50, 0 };
  g_assert_true (cl_region_rules_apply (&rules, NULL, TRUE, &r));
  g_assert_true (r.size == 0 && r.x == 9 && r.width == 102);    /* roi-*: margins only */
  cl_region_rules_clear (&rules);
  g_assert_true (cl_region_rules_apply (&rules, "car", TRUE, &r));      /* every type */
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/layout/formats", test_formats);
  g_test_add_func ("/layout/bits", test_sample_bits);
  g_test_add_func ("/layout/sizes", test_sizes);
  g_test_add_func ("/layout/regions", test_regions);
  g_test_add_func ("/layout/region-side", test_region_side);
  g_test_add_func ("/layout/region-types", test_region_types);
  g_test_add_func ("/layout/region-rules", test_region_rules);
  return g_test_run ();
}
