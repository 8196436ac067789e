/* clconvolve: the parts of a frame that regions of interest convolve
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Plain C over a ClLayout, no OpenCL. A region is a rectangle of frame pixels; what lies
 * outside every region passes unchanged. Each region becomes, per plane (and field), a window:
 * the region and the matrix's radius around it, clipped to the plane. The kernels convolve the
 * window as if it were the whole view, into a buffer of its own, and the region's part of that
 * is copied back: a region's pixels read their real neighbours (the window holds them), and
 * at the frame's edges the window's edges are the view's, so the border rule is the frame's
 * (border=wrap, which reaches across the plane, takes the whole width or height where the
 * radius crosses an edge). Subsampled planes take every sample whose pixels meet the region;
 * packed 4:2:2 whole macropixels (two pixels). tests/test_layout.c checks the plans. */

#ifndef __CL_REGIONS_H__
#define __CL_REGIONS_H__

#include "framelayout.h"

G_BEGIN_DECLS

/* A rectangle of frame pixels, and the side of the matrix it is filtered with where it has
 * its own (roi-scale), else 0. */
typedef struct
{
  gint x, y, width, height;
  gint size;
} ClRect;

/* The most regions one frame filters (more are left out, with a warning). */
#define CL_MAX_REGIONS 256
/* The most matrix sides the regions of one frame run (others take the element's). */
#define CL_MAX_REGION_SIZES 16

/* One kernel launch of a part: view index in the layout, the window's first pixel and width in
 * the view's pixels, and the pixels its rows write (>= width: the view's copied padding
 * pixel where the window ends at the row's end). */
typedef struct
{
  gint view;
  gint x, width, span;
} ClRegionLaunch;

/* A region's window on one plane (one field of it: field as ClView's, rows then counting the
 * field's rows): its rows and its bytes of each row, where in them the region lies (rows and
 * bytes from the window's first), and its place in the region buffers, rows of `bytes` bytes
 * one after the other. The views of the plane (two for packed 4:2:2) each launch over it. */
#define CL_PART_BLOCKS (-2)

typedef struct
{
  gint plane, field;
  gint y, rows;
  gsize x, bytes;
  gint ry, rrows;
  gsize rx, rbytes;
  gsize offset;
  gint n_launches;
  ClRegionLaunch launch[2];
  /* set by the frames side: the batch whose one launch runs the window (-1: a launch of its
   * own; CL_PART_BLOCKS: its blocks in a launch of many windows' blocks, in place) and the
   * window's first row in that batch's image */
  gint batch, batch_row;
  /* the window a batch takes (cl_region_part_batch_window): its first pixel and row in the
   * view, its pixels, rows and bytes a row, the pixel's bytes, where the region lies in it
   * (bytes, rows); bordered: it is not the part's window (it reaches past the plane's
   * edges, where the border rule gives its pixels, or the part's took padding pixels) */
  gint bx, by, bwidth, brows, bpix, bry;
  gsize bbytes, brx;
  gboolean bordered;
} ClRegionPart;

/* The part of r (frame pixels, clipped to width x height) in each group of L's views, into
 * parts (room for CL_MAX_VIEWS): radius is the matrix's, wrap whether border=wrap. The parts'
 * offsets continue from *bytes, which grows by their size (64-byte aligned). Returns how many
 * parts (0 for a region outside the frame or empty). */
gint cl_region_plan (const ClLayout * L, gint width, gint height, const ClRect * r,
    gint radius, gboolean wrap, ClRegionPart * parts, gsize * bytes);

/* The matrix side for a region of width x height with roi-scale scale: scale x its shorter
 * side, rounded to odd, clamped to 3 .. CONV_MAX_SIZE, then raised to the next of a few fixed
 * sides (CL_REGION_SIDES of them, so that a frame's regions build few programs). */
#define CL_REGION_SIDES 13
gint cl_region_side (gdouble scale, gint width, gint height);

/* r grown by margin pixels and by margin_scale times its width (left and right) and height
 * (top and bottom) on each side, within G_MAXINT. */
void cl_rect_grow (ClRect * r, gint margin, gdouble margin_scale);

/* roi-types' text: type names separated by commas, each with "=scale" where it has a
 * roi-scale of its own, into *names (NULL-terminated, NULL for an empty text: every type) and
 * *scales (as many, -1 for roi-scale's; NULL with names). FALSE when an entry is malformed (an
 * empty name, a scale not a number from 0 to 10): it is left out; with none left, every type. */
gboolean cl_region_types_parse (const gchar * text, gchar *** names, gdouble ** scales);

/* Whether part p of L may run in a batch (many windows in one image, one launch): whole rows
 * (no field), one view, a region of the view's pixels (none of the padding it copies). Sets
 * p's batch window: the region and radius pixels around it on every side, bordered where that
 * reaches past the plane (a gather that maps those pixels by the border rule makes it a
 * window like any other). */
gboolean cl_region_part_batch_window (const ClLayout * L, ClRegionPart * p, gint radius);

/* How regions become the rectangles filtered: the meta types taken (roi-types: NULL for every
 * type) with each its own roi-scale (-1: scale's), roi-scale, and the margins. */
typedef struct
{
  gchar **types;
  gdouble *type_scale;
  gdouble scale;
  gint margin;
  gdouble margin_scale;
} ClRegionRules;

/* Region r by rules: a meta region of type (NULL: the roi-* rectangle, no type nor scale)
 * gets its side where a scale applies (sized: the matrix is a preset made at any size), then
 * every region the margins. FALSE (r untouched) when type is not one rules take. */
gboolean cl_region_rules_apply (const ClRegionRules * rules, const gchar * type,
    gboolean sized, ClRect * r);
/* Frees the types and their scales. */
void cl_region_rules_clear (ClRegionRules * rules);

/* r clipped to width x height; FALSE when nothing of it is left. */
gboolean cl_rect_clip (ClRect * r, gint width, gint height);

G_END_DECLS

#endif /* __CL_REGIONS_H__ */
