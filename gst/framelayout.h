/* clconvolve: what a frame of a format is made of
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Plain C over GstVideoInfo, no OpenCL: a format and the planes property give the frame's
 * planes (bytes per row, rows, their place when packed one after the other) and the views the
 * kernels convolve, each of a pixel shape; what no view covers is copied. The element plans
 * a layout for the negotiated format; tests/test_layout.c checks every format without a
 * device. */

#ifndef __FRAME_LAYOUT_H__
#define __FRAME_LAYOUT_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

#define CL_MAX_PLANES 4
/* views of a frame: one per convolved plane, two for packed 4:2:2 (luma and chroma); an
 * interlaced frame has two of each, one per field */
#define CL_MAX_VIEWS 8
/* distinct pixel shapes (and so kernels) in one frame: NV12 and YUY2 with chroma have two */
#define CL_MAX_SHAPES 2
/* matrices one frame runs: one per component (plane-matrices) */
#define CL_MAX_MATRICES 4

/* Pixels a kernel handles: samples per pixel (1, 2, 3 or 4), bits per sample, samples it
 * never writes, the one sample it computes when it computes a single one of several (-1: as
 * passmask says), the samples copied from the centre pixel (the same for every view of the
 * shape, so that a kernel may be built for them: method=vector's split planes), the
 * significant bits of a sample and where they start in its container (10 and 12-bit formats;
 * else depth and 0), and whether 16-bit samples are big-endian (GRAY16_BE). */
typedef struct
{
  gint channels, depth;
  guint skipmask;
  gint only;
  guint passmask;
  gint bits, shift;
  gboolean swap;
} ClShape;

/* What one kernel launch convolves: a view of one plane of the frame. */
typedef struct
{
  gint plane;
  gint width, height;           /* in the view's pixels; the borders are these */
  gint span;                    /* pixels written per row (>= width; the rest copied) */
  gint shape;                   /* index in ClLayout.shapes and in the element's kernels */
  guint passmask;               /* samples copied from the centre pixel */
  gint tmp_offset;              /* method=separable: its rows in tmp_mem, in row-pass values */
  gint field;                   /* 0: every row of the plane; 1: the top field (rows 0, 2, ...),
                                 * 2: the bottom one (rows 1, 3, ...), height its rows */
  gint xsub, ysub;              /* log2 of the frame pixels per view pixel across and down
                                 * (chroma of 4:2:0: 1 and 1; a field's rows are not counted) */
  guint comps;                  /* the components it computes: bit c for component c of the
                                 * format (Y U V A, or R G B A) */
  gint matrix;                  /* which of the element's matrices it runs (plane-matrices;
                                 * 0 unless the element sets it) */
} ClView;

/* A frame of the negotiated format with the selected planes: each plane's image bytes per row
 * and rows, its place when the planes are packed one after the other (staging and device
 * buffers), and what convolves it; planes no view covers are copied unchanged. */
typedef struct
{
  gint n_planes, depth, bits, shift;
  gboolean swap;                /* big-endian 16-bit samples */
  gint row[CL_MAX_PLANES], height[CL_MAX_PLANES];
  gsize base[CL_MAX_PLANES], size;
  gboolean convolved[CL_MAX_PLANES];
  gint n_views, n_shapes;
  gboolean fields;              /* the views are fields of interlaced planes */
  ClView views[CL_MAX_VIEWS];
  ClShape shapes[CL_MAX_SHAPES];
} ClLayout;

/* The planes of a frame of info and the views that convolve what planes (GstClConvolvePlanes)
 * selects; GST_CL_CONVOLVE_PLANES_AUTO: luma of YUV and gray, R, G and B of RGB. A plane with
 * no view is copied unchanged. info is one of the element's formats. fields: an interlaced
 * frame, whose two fields are convolved as pictures of their own (each view becomes two). */
void cl_layout_plan (const GstVideoInfo * info, guint planes, gboolean fields, ClLayout * L);

G_END_DECLS

#endif /* __FRAME_LAYOUT_H__ */
