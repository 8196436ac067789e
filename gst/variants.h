/* clconvolve: which kernel variant a request runs
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CL_VARIANTS_H__
#define __CL_VARIANTS_H__

#include <gst/gst.h>
#include "gstclenums.h"

G_BEGIN_DECLS

/* The variant rules: a kernel request and a few facts about the device in; the variant that
 * method=auto runs without tuning (or an explicit method, with its fallback), the candidates
 * the tuner times, each variant's program (source, build options, entry point) and its launch
 * geometry out. No OpenCL calls and no element state, so tests/test_variants.c checks them for
 * made-up devices (a GPU, an AVX-512 CPU, a device with little local memory). The measurements
 * behind each rule are in docs/kernels.md. */

/* method=separable: at most this many vector pairs */
#define CL_MAX_RANK 4
/* the most candidates the tuner times for one request */
#define CL_MAX_CANDIDATES 12
/* method=sparse: at most this many non-zero coefficients (16 bytes each in constant memory) */
#define CL_MAX_TAPS 1024

/* What the rules need to know about a device (GstClContext has them from clGetDeviceInfo). */
typedef struct
{
  gboolean local_mem_dedicated; /* on-chip local memory (a GPU); FALSE: ordinary RAM (a CPU) */
  gsize local_mem_size;
  gsize max_work_group_size;
  guint native_float_width;     /* 16 on AVX-512 CPUs */
  gint tensor_mma;              /* PTX mma.sync on f16 through inline assembly: NVIDIA,
                                 * compute capability 8.0 or later (convolve_tsep), from
                                 * TSEP_FROM taps; 2: at every size it applies to */
  gint gbox_rows;               /* GST_CLCONVOLVE_GBOX_ROWS: rows the GPU box's row pass takes
                                 * at once (-DGBOX_RB); 0 or 1: one */
} ClDeviceFacts;

/* What a kernel is asked for: one pixel shape of a frame layout, the settings, and the element's
 * path and developer overrides. */
typedef struct
{
  gint method;                  /* GstClConvolveMethod; -1: resolve again */
  gint size, channels, depth;
  guint skipmask;               /* samples of a pixel the kernel copies (another view's) */
  gint only;                    /* the one sample computed, -1: all */
  gint border;
  gint block;                   /* GST_CLCONVOLVE_BLOCK, 0 when unset */
  gint rank;                    /* pairs of the coefficients' split, -1: more than CL_MAX_RANK */
  gint width, height;           /* the largest view of the shape (what auto tunes for) */
  guint passmask;               /* samples copied through (tiled skips their sums) */
  gboolean autotune;
  gint split;                   /* GST_CLCONVOLVE_SPLIT: 0 or 1, -1 unset */
  gboolean discrete;            /* frames copied to device buffers, in bands */
  gint bits, shift;             /* depth 16: significant bits and where they start (16, 0 for
                                 * all of them; 0, 0 taken as that too) */
  gboolean swap;                /* depth 16, 1 channel: big-endian samples */
  gint taps;                    /* non-zero coefficients rounded up to a multiple of size (what
                                 * method=sparse costs, steady while a matrix changes a little);
                                 * 0: more than CL_MAX_TAPS, or none */
  gint combine;                 /* GstClConvolveCombine: 0, or the two matrices' combination
                                 * (taps and rank then count both matrices) */
  gboolean box;                 /* every coefficient of the matrix equal (a box): running sums
                                 * (convolve_box) compute it at any size for the same cost */
  gboolean unit;                /* every matrix one pair, each vector of one sign, the product of
                                 * their absolute sums at most 1 (a blur, an unsharp mask) */
} ClKernelRequest;

/* ClVariant.split of method=separable: one kernel through local memory on GPUs (convolve_lsep),
 * the running sums of a box (convolve_box) */
#define CL_SEPARABLE_LOCAL 1
#define CL_SEPARABLE_BOX 2
/* ... and on CPUs the vertical pass first, row by row (convolve_csep) */
#define CL_SEPARABLE_COLUMNS 3
/* ... and on NVIDIA GPUs with tensor cores both passes as matrix products (convolve_tsep) */
#define CL_SEPARABLE_TENSOR 4

/* One compiled variant of the convolution: which kernel and its blocking. */
typedef struct
{
  gint method;                  /* GstClConvolveMethod, never AUTO */
  gint bx, by;                  /* float4: pixels per work-item (bx); vector: NV, MY (split:
                                 * NX, MY); sparse: NV, MY; tiled: outputs per work-item along
                                 * x and y; separable: 0, 0 for two passes, else one pass of
                                 * NV vectors down STRIP rows */
  gint split;                   /* vector: 1 for the split colour planes (convolve_vsplit);
                                 * sparse: 1 for the taps over a local tile (tiled.cl, -DSPARSE:
                                 * bx, by as method=tiled's); separable: CL_SEPARABLE_LOCAL for
                                 * lsep.cl (bx outputs per work-item in its row pass, tiles
                                 * of by rows),
                                 * CL_SEPARABLE_BOX for running sums (box.cl: bx pixels down
                                 * strips of by rows per work-item; with local memory in
                                 * work-groups of 64), CL_SEPARABLE_COLUMNS for csep.cl (bx
                                 * pixels on by rows), CL_SEPARABLE_TENSOR for tsep.cl (bx
                                 * columns and by rows a work-group) */
  gboolean generic;             /* float4 block=1, or separable in two passes, with the matrix
                                 * side and border as arguments: one program per pixel shape,
                                 * whatever the settings */
} ClVariant;

/* The generic variants: what a frame runs while its specialised program is being built, the
 * dense one (always ready) and the two-pass separable one (built on the worker when a matrix
 * splits). */
extern const ClVariant cl_variant_generic;
extern const ClVariant cl_variant_generic_separable;

/* The generic variant for r: the separable one where its matrix splits into few enough pairs
 * that two passes beat the dense sum, else the dense one. */
ClVariant cl_variant_generic_for (const ClKernelRequest * r);

/* The program files of kernels/, each built from common.cl and itself. */
typedef enum
{
  CL_SOURCE_DIRECT, CL_SOURCE_VECTOR, CL_SOURCE_VSPLIT, CL_SOURCE_TILED, CL_SOURCE_SEPARABLE,
  CL_SOURCE_VSEP, CL_SOURCE_SPARSE, CL_SOURCE_BOX, CL_SOURCE_LSEP,
  CL_SOURCE_CSEP, CL_SOURCE_TSEP, CL_N_SOURCES
} ClKernelSource;

/* method=tiled's geometry for mx x my outputs per work-item: the work-group, whether the tile
 * fits in local memory at all and whether as floats. */
typedef struct
{
  gint w, h;
  gboolean fits, as_float;
} ClTileGeometry;

/* How a built variant is launched, given the work-group size its kernel was compiled for. */
typedef struct
{
  gsize local[2];
  gint px, py;                  /* pixels per work-item along x, rows along y */
  gboolean one_pass;            /* convolve_vsep, _box, _lsep or _csep (vsep's arguments) */
  gboolean two_pass;            /* a row pass (convolve_rows) before the entry point */
} ClLaunch;

ClTileGeometry cl_variant_tile_geometry (const ClDeviceFacts * d, const ClKernelRequest * r,
    gint mx, gint my);

/* Floats a kernel keeps per pixel for its sums (a separable row pass's buffer, a tile): the
 * one sample computed, else a value per sample, 4 for 3-sample pixels (an OpenCL float3 takes
 * the room of a float4). */
gint cl_variant_sum_values (gint channels, gint only);

/* Pixels per work-item of the float4 kernel. */
gint cl_variant_direct_block (const ClDeviceFacts * d, const ClKernelRequest * r);

/* The taps field of a request for a matrix of size x size with nonzero non-zero
 * coefficients. */
gint cl_variant_taps (gint nonzero, gint size);

/* method=sparse over method=tiled's local tile (what a GPU runs) into *v, the blocking the
 * tiled rules give; FALSE (v untouched) where no tile fits. */
gboolean cl_variant_sparse_tiles (const ClDeviceFacts * d, const ClKernelRequest * r,
    ClVariant * v);

/* Whether the tuner times the split colour planes for the request. */
gboolean cl_variant_split_offered (const ClDeviceFacts * d, const ClKernelRequest * r);

/* What an explicit method, or auto without tuning, runs. When the asked method cannot run
 * the request, the fallback, and *why (if not NULL) a message for a warning (free it);
 * otherwise *why is NULL. */
ClVariant cl_variant_fixed (const ClDeviceFacts * d, const ClKernelRequest * r, gchar ** why);

/* The variants method=auto times for the request, into out (CL_MAX_CANDIDATES); returns how
 * many. */
gint cl_variant_candidates (const ClDeviceFacts * d, const ClKernelRequest * r,
    ClVariant * out);

/* The build options of v for the request (free with g_free). */
gchar *cl_variant_options (const ClDeviceFacts * d, const ClKernelRequest * r,
    const ClVariant * v);

ClKernelSource cl_variant_source (const ClVariant * v);

/* The kernel a program of src runs (the two-pass separable program also has convolve_rows). */
const gchar *cl_kernel_source_entry (ClKernelSource src);

/* The launch of v for the request on a kernel compiled for at most wg work-items; FALSE when
 * the variant cannot run with that few (a tiled kernel needs its whole tile). */
gboolean cl_variant_launch (const ClDeviceFacts * d, const ClKernelRequest * r,
    const ClVariant * v, gsize wg, ClLaunch * out);

/* "float4 block=8", "vector nv=4 my=3", ...: what logs and the stats show. */
const gchar *cl_variant_text (const ClVariant * v, gchar * buf, gsize n);

G_END_DECLS

#endif /* __CL_VARIANTS_H__ */
