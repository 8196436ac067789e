/* clconvolve: built kernel variants and their launches
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_RUNNER_H__
#define __GST_CL_RUNNER_H__

#include "framelayout.h"
#include "regions.h"
#include "gstclcontext.h"
#include "gstclstats.h"
#include "variants.h"

G_BEGIN_DECLS

/* The runner: a variant built into kernels from the context's programs, its arguments set
 * through one checked table per kernel signature (a failure names the argument), its launches
 * over a band of rows, and a frame's two paths: in place on a host-unified device, in
 * overlapped bands on a discrete one. The element and the tuner run kernels through it;
 * nothing else calls clSetKernelArg or clEnqueueNDRangeKernel. */

/* A frame's plane as a command sees it: the OpenCL buffer and the plane's byte offset and pitch
 * in it, and the plane's host address (transfers and copies). */
typedef struct
{
  cl_mem mem;
  gint offset, pitch;
  guint8 *host;
} ClPlane;

/* A variant built for one shape: its kernel(s) and launch geometry. */
typedef struct
{
  ClVariant variant;
  cl_kernel kernel;             /* dense, or the column pass of method=separable */
  cl_kernel rows;               /* the row pass of method=separable, else NULL */
  cl_kernel table;              /* csep's blocks of many views (convolve_csep_table), else NULL */
  cl_program program;           /* one use of the context's program they come from */
  gchar *options;               /* its build options (what identifies its program) */
  gsize local[2];
  gint px, py;                  /* pixels per work-item along x and rows along y */
  gboolean one_pass;            /* convolve_vsep (method=separable on CPUs) */
} ClBuilt;

/* The settings' side of the arguments: the dense matrix, the separable pairs, how many pairs,
 * the bias in the sample's units, what the generic kernel takes as arguments where the
 * others are compiled for it (the matrix side and the border), and method=sparse's tap list
 * and its length. */
typedef struct
{
  cl_mem coef, sep;
  gint rank;
  gfloat bias;
  gint size, border;
  cl_mem taps;
  gint ntaps;
} ClCoefArgs;

/* Builds variant v for the request (the program comes from ctx's caches when it was built
 * before) from source, the embedded or overriding program texts (ClKernelSource order). On
 * failure returns the error with *what naming the step (and *log the build log, if any: free
 * it); a tiled kernel compiled to fewer work-items than its tile returns
 * CL_INVALID_WORK_GROUP_SIZE. Without may_build only a program the context holds ready is
 * used: CL_INVALID_PROGRAM_EXECUTABLE when there is none (nothing is built or waited for). */
cl_int gst_cl_built_make (GstClContext * ctx, const ClDeviceFacts * facts,
    const gchar * const *source, const ClKernelRequest * r, const ClVariant * v,
    gboolean may_build, ClBuilt * b, gchar ** log, const gchar ** what);

/* The ints of a block in convolve_csep_table's table: x, first row, src offset and pitch, dst
 * offset and pitch, width, height and span of its view (kernels/csep.cl) */
#define CL_BLOCK_INTS 9

/* b's convolve_csep_table (b->table) over n blocks of views, each CL_BLOCK_INTS of table from base
 * (kernels/csep.cl), between src and dst with v's passmask and c's coefficients. */
cl_int gst_cl_built_enqueue_blocks (cl_command_queue queue, const ClBuilt * b, const ClView * v,
    const ClCoefArgs * c, cl_mem src, cl_mem dst, cl_mem table, gint base, gint n,
    cl_event * ev, const gchar ** what);

/* Releases b's kernels and gives its program back to ctx (discard: at once, unless another
 * element uses it); b is then empty. */
void gst_cl_built_clear (GstClContext * ctx, ClBuilt * b, gboolean discard);

/* The arguments of b's kernel(s) for view v between the planes src and dst (a field view
 * takes every other row of them; tmp: the row pass's buffer of method=separable); on a
 * failure *what names the argument. */
cl_int gst_cl_built_set_args (const ClBuilt * b, const ClView * v, const ClPlane * src,
    const ClPlane * dst, cl_mem tmp, const ClCoefArgs * c, const gchar ** what);

/* b's kernel on view v over rows [y0, y0 + rows) (a band, or the whole plane). */
cl_int gst_cl_built_enqueue (cl_command_queue queue, const ClBuilt * b, const ClView * v,
    gint y0, gint rows, cl_uint n_wait, const cl_event * wait, cl_event * ev);

/* method=separable in two passes: the row pass over the same rows, into tmp. */
cl_int gst_cl_built_enqueue_rows (cl_command_queue queue, const ClBuilt * b, const ClView * v,
    gint y0, gint rows, cl_uint n_wait, const cl_event * wait, cl_event * ev);

/* The most bands a plane is cut into on a discrete device (the bands property's maximum). */
#define CL_MAX_BANDS 64
/* gst_cl_run_discrete's bands while other frames keep the queues busy (their stages overlap
 * instead, and the host enqueues fewer commands): a few bands of 2 MiB or more for a large
 * plane; a staged frame goes whole (its copy is cut into parallel pieces instead). */
#define CL_BANDS_BUSY (-1)
/* events of one frame per stage: bands of every plane, four kernels per band at most (two
 * views of a plane, each with a row pass) */
#define CL_MAX_EVENTS (CL_MAX_PLANES * CL_MAX_BANDS * 4)

/* One frame's events, per stage (GstClStage), in the order they were queued; allocate it
 * zeroed (it is large: keep it off the stack). */
typedef struct
{
  cl_event ev[GST_CL_N_STAGES][CL_MAX_EVENTS];
  gint n[GST_CL_N_STAGES];
} ClEvents;

/* Releases a frame's events and empties the lists for the next frame. */
void gst_cl_events_release (ClEvents * e);

/* What a frame runs on: the element's queues (up and down: the discrete path's transfer
 * queues), the built kernels of the layout's pixel shapes, method=separable's row-pass buffer,
 * the coefficients' arguments, and what the band schedule needs of the matrix: its radius and
 * whether border=wrap reaches across the plane. */
typedef struct
{
  cl_command_queue queue, up, down;
  const ClBuilt *built;
  cl_mem tmp;
  ClCoefArgs coefs[CL_MAX_MATRICES];    /* per matrix a view runs (ClView.matrix) */
  gint radius;
  gboolean wrap;
  gint copy_parts;              /* staging copies in up to this many pieces at once */
} ClFrameRun;

/* Host-unified device: the kernels read and write the planes where they are (pinned host
 * memory); planes no view convolves are copied by the device. Returns once all is queued, with
 * *done an event (release it) that completes when the output is written; on a failure *what
 * names the step. */
cl_int gst_cl_run_unified (const ClFrameRun * f, const ClLayout * L, const ClPlane * src,
    const ClPlane * dst, ClEvents * e, cl_event * done, const gchar ** what);

/* Discrete device: each plane from the host planes src up into dev_in, through its kernels into
 * dev_out and down into the host planes dst, in bands on three queues (bands: the property, 0
 * for automatic, or CL_BANDS_BUSY). src NULL: the input is on the device already
 * (device-resident memory); dst NULL: the output stays there. in: when not NULL, each band of it is copied into src (pinned
 * staging) just before its upload. Returns once all is queued, with *done (release it) an
 * event that completes when the output is written: frames complete in the order they were
 * queued. */
cl_int gst_cl_run_discrete (const ClFrameRun * f, const ClLayout * L, const ClPlane * src,
    const ClPlane * dev_in, const ClPlane * dev_out, const ClPlane * dst,
    const GstVideoFrame * in, gint bands, ClEvents * e, cl_event * done, const gchar ** what);

/* Regions of interest, in place, in two steps on f's kernel queue: the n parts' windows
 * convolved into out (the parts' offsets and pitches; gst_cl_run_region_windows, once per
 * matrix the regions run), then their regions copied back into the frame's planes
 * (gst_cl_run_region_copies, once for all the parts, in their order: where regions overlap the
 * last one's pixels stay), so that every window is read before any region is written. frame:
 * each plane's OpenCL memory (mem set: the kernels read it and the regions are copied into it
 * by the device) or its host address (mem NULL: the windows go up into win first and the
 * regions come down). The copies return once all is queued, with *done (release it; NULL:
 * none) completing when the frame is written; on a failure *what names the step. */
/* The plane of part's rows: the plane itself, or one field of it (every other row). */
ClPlane gst_cl_run_part_plane (const ClPlane * plane, const ClRegionPart * part);
cl_int gst_cl_run_region_windows (const ClFrameRun * f, const ClLayout * L,
    const ClRegionPart * parts, gint n, const ClPlane * frame, cl_mem win, cl_mem out,
    ClEvents * e, const gchar ** what);
cl_int gst_cl_run_region_copies (const ClFrameRun * f, const ClRegionPart * parts, gint n,
    const ClPlane * frame, cl_mem out, ClEvents * e, cl_event * done, const gchar ** what);
/* Windows of L's view as n blocks of one launch (convolve_csep_table), the blocks CL_BLOCK_INTS
 * ints each in table from base: from src (the frame's memory) into out. */
cl_int gst_cl_run_region_blocks (const ClFrameRun * f, const ClLayout * L, gint view, cl_mem src,
    cl_mem out, cl_mem table, gint base, gint n, ClEvents * e, const gchar ** what);
/* *done (release it): an event that completes when everything queued on f's kernel queue so
 * far has. */
cl_int gst_cl_run_done (const ClFrameRun * f, cl_event * done, const gchar ** what);
/* Batched regions: the kernel of L's view runs once over an image of windows one under the
 * other (in, out: its place and pitch in the batch buffers; width: its widest window, in the
 * view's pixels; rows: all their rows). */
cl_int gst_cl_run_region_batch (const ClFrameRun * f, const ClLayout * L, gint view,
    const ClPlane * in, const ClPlane * out, gint width, gint rows, ClEvents * e,
    const gchar ** what);
/* A batched part p of a frame in host memory (frame: its planes) and its place in a batch
 * image (img: the batch buffer, at: the window's first row there, pitch: the image's): up, the
 * window into the image; else the region out of it into the frame. */
cl_int gst_cl_run_batch_rect (const ClFrameRun * f, const ClRegionPart * p,
    const ClPlane * frame, cl_mem img, gsize at, gint pitch, gboolean up, ClEvents * e,
    const gchar ** what);
/* copy (kernels/regions.cl's region_copy) over rows rows of rectangles of at most bytes bytes
 * from src into dst, as table's ints from base list them, in work-groups of 16 x 16 where
 * fixed_groups (a CPU), else of the driver's size; its event counts in stage. */
cl_int gst_cl_run_rect_copies (cl_command_queue queue, cl_kernel copy, cl_mem src, cl_mem dst,
    cl_mem table, gint base, gint n_rects, gint bytes, gint rows, gboolean fixed_groups,
    ClEvents * e, gint stage, const gchar ** what);
/* Many regions of a frame in host memory on a discrete device: the frame's planes (extent[p]
 * bytes of each, 0 for a plane no region has a part in) go up from host into dev once before
 * the windows (up), and come down after the copies (not up, then with *done as above), so
 * that the windows are read and the regions written on the device. e (here and above) may be
 * NULL: no events kept. */
cl_int gst_cl_run_region_planes (const ClFrameRun * f, const ClPlane * host, const ClPlane * dev,
    const gsize * extent, gint n_planes, gboolean up, ClEvents * e, cl_event * done,
    const gchar ** what);

/* Waits for everything queued on f's queues (after a failure, before the frames go). */
void gst_cl_run_finish (const ClFrameRun * f);

/* rows rows of row bytes from src to dst, each with its pitch. */
void gst_cl_copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src, gsize src_pitch,
    gsize row, gint rows);

/* The most pieces gst_cl_copy_rows_parallel cuts a copy into. */
#define CL_MAX_COPY_PARTS 16

/* The same in up to parts pieces of rows, copied at once by a process-wide pool of threads and
 * the caller; returns when all are copied. */
void gst_cl_copy_rows_parallel (guint8 * dst, gsize dst_pitch, const guint8 * src,
    gsize src_pitch, gsize row, gint rows, gint parts);

G_END_DECLS

#endif /* __GST_CL_RUNNER_H__ */
