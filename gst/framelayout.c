/* clconvolve: what a frame of a format is made of
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "framelayout.h"
#include "gstclenums.h"

#include <string.h>

static gint
add_shape (ClLayout * L, const ClShape * shape)
{
  for (gint i = 0; i < L->n_shapes; i++)
    if (!memcmp (&L->shapes[i], shape, sizeof (ClShape)))
      return i;
  g_assert (L->n_shapes < CL_MAX_SHAPES);
  L->shapes[L->n_shapes] = *shape;
  return L->n_shapes++;
}

/* A view of plane convolving the samples of its pixels that are in neither skipmask nor
 * passmask. */
static void
add_view (ClLayout * L, gint plane, gint width, gint height, gint span, gint channels,
    guint skipmask, guint passmask, gint xsub, gint ysub, guint comps)
{
  ClView *v = &L->views[L->n_views++];
  guint computed = ((1u << channels) - 1) & ~skipmask & ~passmask;
  ClShape shape = { channels, L->depth, skipmask, -1, passmask, L->bits, L->shift, L->swap };

  g_assert (L->n_views <= CL_MAX_VIEWS);
  /* one sample of several: a kernel that sums that one alone (a CPU pays per sample summed) */
  if (channels > 1 && computed && !(computed & (computed - 1)))
    shape.only = g_bit_nth_lsf (computed, -1);
  v->plane = plane;
  v->width = width;
  v->height = height;
  v->span = span;
  v->shape = add_shape (L, &shape);
  v->passmask = passmask;
  v->xsub = xsub;
  v->ysub = ysub;
  v->comps = comps;
  L->convolved[plane] = TRUE;
}

/* Each view as two, its top field's rows and its bottom field's (none for a 1-row plane) */
static void
split_fields (ClLayout * L)
{
  ClView whole[CL_MAX_VIEWS];
  gint n = L->n_views;

  memcpy (whole, L->views, sizeof (ClView) * n);
  L->n_views = 0;
  L->fields = TRUE;
  for (gint i = 0; i < n; i++) {
    for (gint field = 1; field <= 2; field++) {
      ClView *v = &L->views[L->n_views];

      *v = whole[i];
      v->field = field;
      v->height = field == 1 ? (whole[i].height + 1) / 2 : whole[i].height / 2;
      if (v->height > 0)
        L->n_views++;
    }
  }
}

void
cl_layout_plan (const GstVideoInfo * info, guint planes, gboolean fields, ClLayout * L)
{
  const GstVideoFormatInfo *f = info->finfo;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint cw = GST_VIDEO_INFO_COMP_WIDTH (info, 1), ch = GST_VIDEO_INFO_COMP_HEIGHT (info, 1);
  gboolean sel_y, sel_u, sel_v;
  gsize base = 0;
  gint bps;

  memset (L, 0, sizeof (*L));
  L->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  L->depth = GST_VIDEO_FORMAT_INFO_DEPTH (f, 0) > 8 ? 16 : 8;
  L->bits = GST_VIDEO_FORMAT_INFO_DEPTH (f, 0);
  L->shift = GST_VIDEO_FORMAT_INFO_SHIFT (f, 0);
  L->swap = L->depth == 16 && !GST_VIDEO_FORMAT_INFO_IS_LE (f);
  bps = L->depth / 8;
  if (planes == GST_CL_CONVOLVE_PLANES_AUTO)
    planes = GST_VIDEO_FORMAT_INFO_IS_RGB (f) ? GST_CL_CONVOLVE_PLANES_RGB :
        GST_CL_CONVOLVE_PLANES_Y;
  sel_y = planes & GST_CL_CONVOLVE_PLANES_Y;
  sel_u = planes & GST_CL_CONVOLVE_PLANES_U;
  sel_v = planes & GST_CL_CONVOLVE_PLANES_V;

  switch (GST_VIDEO_INFO_FORMAT (info)) {
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:{
      /* one plane of macropixels (Y0 U Y1 V or U Y0 V Y1): luma as 2-byte pixels (its Y and
       * the chroma byte beside it), chroma as 4-byte macropixels at half width */
      guint ybyte = GST_VIDEO_FORMAT_INFO_POFFSET (f, 0);
      guint ubyte = GST_VIDEO_FORMAT_INFO_POFFSET (f, 1);
      guint vbyte = GST_VIDEO_FORMAT_INFO_POFFSET (f, 2);
      guint luma4 = (1u << ybyte) | (1u << (ybyte + 2)), cbyte = 1u << (1 - ybyte);
      guint cpass = (sel_u ? 0 : 1u << ubyte) | (sel_v ? 0 : 1u << vbyte);

      L->row[0] = 4 * cw;
      L->height[0] = h;
      if (sel_u || sel_v)
        add_view (L, 0, cw, h, cw, 4, sel_y ? luma4 : 0, sel_y ? cpass : cpass | luma4, 1,
            0, (sel_u ? 2 : 0) | (sel_v ? 4 : 0));
      if (sel_y)
        add_view (L, 0, w, h, 2 * cw, 2, sel_u || sel_v ? cbyte : 0, cbyte, 0, 0, 1);
      break;
    }
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_NV16:
    case GST_VIDEO_FORMAT_NV24:
    case GST_VIDEO_FORMAT_P010_10LE:
    case GST_VIDEO_FORMAT_P012_LE:
    case GST_VIDEO_FORMAT_P016_LE:{
      /* luma, then chroma pairs (V first in NV21 alone) */
      gboolean vfirst = GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_NV21;
      guint pass = (sel_u ? 0 : 1u << (vfirst ? 1 : 0)) | (sel_v ? 0 : 1u << (vfirst ? 0 : 1));

      L->row[0] = w * bps;
      L->height[0] = h;
      L->row[1] = 2 * cw * bps;
      L->height[1] = ch;
      if (sel_y)
        add_view (L, 0, w, h, w, 1, 0, 0, 0, 0, 1);
      if (sel_u || sel_v)
        add_view (L, 1, cw, ch, cw, 2, 0, pass, GST_VIDEO_FORMAT_INFO_W_SUB (f, 1),
            GST_VIDEO_FORMAT_INFO_H_SUB (f, 1), (sel_u ? 2 : 0) | (sel_v ? 4 : 0));
      break;
    }
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_Y444:
    case GST_VIDEO_FORMAT_I420_10LE:
    case GST_VIDEO_FORMAT_I420_12LE:
    case GST_VIDEO_FORMAT_I422_10LE:
    case GST_VIDEO_FORMAT_I422_12LE:
    case GST_VIDEO_FORMAT_Y444_10LE:
    case GST_VIDEO_FORMAT_Y444_12LE:
    case GST_VIDEO_FORMAT_Y444_16LE:
      for (gint c = 0; c < 3; c++) {
        gint p = GST_VIDEO_FORMAT_INFO_PLANE (f, c);
        gint pw = GST_VIDEO_INFO_COMP_WIDTH (info, c), ph = GST_VIDEO_INFO_COMP_HEIGHT (info, c);

        L->row[p] = pw * bps;
        L->height[p] = ph;
        if (c == 0 ? sel_y : c == 1 ? sel_u : sel_v)
          add_view (L, p, pw, ph, pw, 1, 0, 0, GST_VIDEO_FORMAT_INFO_W_SUB (f, c),
              GST_VIDEO_FORMAT_INFO_H_SUB (f, c), 1u << c);
      }
      break;
    case GST_VIDEO_FORMAT_GBR:
    case GST_VIDEO_FORMAT_GBRA:
      /* planar RGB: a w x h plane per component (G, B, R, then A) */
      for (gint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (f); c++) {
        gint p = GST_VIDEO_FORMAT_INFO_PLANE (f, c);

        L->row[p] = w;
        L->height[p] = h;
        if (planes & (c == 3 ? GST_CL_CONVOLVE_PLANES_A : GST_CL_CONVOLVE_PLANES_R << c))
          add_view (L, p, w, h, w, 1, 0, 0, 0, 0, 1u << c);
      }
      break;
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:{
      /* 3-byte pixels, R G B or B G R; unselected components copied */
      guint conv = 0, comps = 0;

      L->row[0] = 3 * w;
      L->height[0] = h;
      for (gint c = 0; c < 3; c++)
        if (planes & (GST_CL_CONVOLVE_PLANES_R << c)) {
          conv |= 1u << GST_VIDEO_FORMAT_INFO_POFFSET (f, c);
          comps |= 1u << c;
        }
      if (conv)
        add_view (L, 0, w, h, w, 3, 0, 0x7u & ~conv, 0, 0, comps);
      break;
    }
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_GRAY16_BE:
      L->row[0] = w * bps;
      L->height[0] = h;
      if (sel_y)
        add_view (L, 0, w, h, w, 1, 0, 0, 0, 0, 1);
      break;
    default:{
      /* 4-sample pixels (the RGB formats, RGBA64_LE, AYUV, VUYA): every sample that is not a
       * selected component is copied; component 3 is alpha */
      gboolean rgb = GST_VIDEO_FORMAT_INFO_IS_RGB (f);
      guint conv = 0, comps = 0;

      L->row[0] = 4 * w * bps;
      L->height[0] = h;
      for (gint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS (f); c++) {
        guint flag = c == 3 ? GST_CL_CONVOLVE_PLANES_A : rgb ? GST_CL_CONVOLVE_PLANES_R << c :
            GST_CL_CONVOLVE_PLANES_Y << c;

        if (planes & flag) {
          conv |= 1u << (GST_VIDEO_FORMAT_INFO_POFFSET (f, c) / bps);
          comps |= 1u << c;
        }
      }
      if (conv)
        add_view (L, 0, w, h, w, 4, 0, 0xfu & ~conv, 0, 0, comps);
      break;
    }
  }
  if (fields)
    split_fields (L);
  for (gint p = 0; p < L->n_planes; p++) {
    L->base[p] = base;
    base += (gsize) L->row[p] * L->height[p];
  }
  L->size = base;
}
