/* clconvolve: which kernel variant a request runs
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

#include <string.h>

#include "variants.h"

static const gchar *const source_entries[CL_N_SOURCES] = {
  "convolve_direct", "convolve_vector", "convolve_vsplit", "convolve_tiled", "convolve_cols",
  "convolve_vsep", "convolve_sparse", "convolve_box",
  "convolve_lsep", "convolve_csep", "convolve_tsep",
};

const gchar *
cl_kernel_source_entry (ClKernelSource src)
{
  g_return_val_if_fail (src < CL_N_SOURCES, NULL);
  return source_entries[src];
}

const ClVariant cl_variant_generic = { GST_CL_CONVOLVE_METHOD_FLOAT4, 1, 1, 0, TRUE };
const ClVariant cl_variant_generic_separable = { GST_CL_CONVOLVE_METHOD_SEPARABLE, 0, 0, 0,
  TRUE
};

/* 2 rank size multiply-adds per sample and a pass through memory against size^2 loop
 * iterations (docs/kernels.md, generic) */
ClVariant
cl_variant_generic_for (const ClKernelRequest * r)
{
  return r->rank >= 0 && r->size >= 5 && 4 * r->rank <= r->size ?
      cl_variant_generic_separable : cl_variant_generic;
}

/* Work-groups of 32x8 (8x8 where the device allows fewer than 256 work-items); the tile of
 * samples converted to float where it fits in local memory, else of raw samples (4x smaller
 * for 8-bit), else it does not fit. */
ClTileGeometry
cl_variant_tile_geometry (const ClDeviceFacts * d, const ClKernelRequest * r, gint mx, gint my)
{
  ClTileGeometry g = { 32, 8, FALSE, FALSE };
  gsize cols, rows, value, raw = cl_variant_sum_values (r->channels, -1) * r->depth / 8;

  if (d->max_work_group_size < 256)
    g.w = g.h = 8;
  cols = GST_ROUND_UP_N ((gsize) g.w * mx + r->size - 1, (gsize) mx);
  rows = (gsize) g.h * my + r->size - 1;
  /* the float tile holds what the kernel sums: one sample (ONLY) or the pixel as floats */
  value = sizeof (gfloat) * cl_variant_sum_values (r->channels, r->only);
  g.as_float = cols * rows * value + 256 <= d->local_mem_size;
  g.fits = d->max_work_group_size >= (gsize) g.w * g.h &&
      (g.as_float || cols * rows * raw + 256 <= d->local_mem_size);
  return g;
}

gint
cl_variant_sum_values (gint channels, gint only)
{
  return only >= 0 ? 1 : channels == 3 ? 4 : channels;
}

/* The float8 kernels' vectors per row of a work-item for 3-sample pixels: a multiple of 3 (8 NV
 * samples must be whole pixels), the blocking's nv rounded up; others as they are. */
static gint
pixel_nv (const ClKernelRequest * r, gint nv)
{
  return r->channels == 3 ? (nv + 2) / 3 * 3 : nv;
}

gint
cl_variant_taps (gint nonzero, gint size)
{
  if (nonzero <= 0 || nonzero > CL_MAX_TAPS || size <= 0)
    return 0;
  return MIN ((nonzero + size - 1) / size * size, CL_MAX_TAPS);
}

/* method=sparse writes whole pixels as method=vector does, from a list of at most CL_MAX_TAPS
 * taps. */
static gboolean
sparse_fits (const ClKernelRequest * r)
{
  return r->taps > 0 && r->skipmask == 0;
}

/* method=auto without tuning: sparse where the taps are at most half the matrix and no more
 * than the separable passes' 2 rank size multiply-adds (docs/kernels.md, sparse). */
static gboolean
sparse_wins (const ClKernelRequest * r)
{
  return sparse_fits (r) && 2 * r->taps <= r->size * r->size &&
      (r->rank < 0 || r->taps <= 2 * r->rank * r->size);
}

static gboolean tiled_default (const ClDeviceFacts * d, const ClKernelRequest * r,
    ClVariant * v);

gboolean
cl_variant_sparse_tiles (const ClDeviceFacts * d, const ClKernelRequest * r, ClVariant * v)
{
  ClVariant t;

  if (!tiled_default (d, r, &t))
    return FALSE;
  *v = (ClVariant) { GST_CL_CONVOLVE_METHOD_SPARSE, t.bx, t.by, 1 };
  return TRUE;
}

/* With on-chip local memory the taps read method=tiled's tile, else (no tile fits) one float8
 * per work-item; on a CPU four float8 on two rows per work-item (each tap's offset and
 * coefficient serve eight vectors). */
static ClVariant
sparse_variant (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  gboolean gpu = d->local_mem_dedicated;
  ClVariant v = { GST_CL_CONVOLVE_METHOD_SPARSE, pixel_nv (r, gpu ? 1 : 4), gpu ? 1 : 2, 0 };

  if (gpu)
    cl_variant_sparse_tiles (d, r, &v);
  return v;
}

/* method=tiled's blockings, best first; the first that fits is the fixed choice */
static const gint tiled_blocks[][2] = { {2, 4}, {1, 4}, {1, 1} };

static gboolean
tiled_default (const ClDeviceFacts * d, const ClKernelRequest * r, ClVariant * v)
{
  for (guint i = 0; i < G_N_ELEMENTS (tiled_blocks); i++)
    if (cl_variant_tile_geometry (d, r, tiled_blocks[i][0], tiled_blocks[i][1]).fits) {
      *v = (ClVariant) { GST_CL_CONVOLVE_METHOD_TILED, tiled_blocks[i][0], tiled_blocks[i][1],
        0
      };
      return TRUE;
    }
  return FALSE;
}

/* GST_CLCONVOLVE_BLOCK, else 8 on a CPU-like device (no on-chip local memory) and 1 on a
 * GPU. */
gint
cl_variant_direct_block (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  if (r->block > 0)
    return r->block;
  return d->local_mem_dedicated ? 1 : 8;
}

/* method=separable in two passes (a row pass into a float buffer, a column pass), and in one
 * pass for CPUs (convolve_vsep: 4 float8 vectors, 3 for 3-sample pixels, down strips of 64
 * or 128 rows). */
static const ClVariant two_pass = { GST_CL_CONVOLVE_METHOD_SEPARABLE, 0, 0, 0 };

static ClVariant
one_pass_for (const ClKernelRequest * r, gint strip)
{
  return (ClVariant) { GST_CL_CONVOLVE_METHOD_SEPARABLE, r->channels == 3 ? 3 : 4, strip, 0 };
}

/* The one-pass kernel is for CPUs working in place: it unrolls its row loop by the matrix side
 * (up to 31, for build time), writes whole pixels like method=vector, loads samples as stored
 * (not big-endian ones), and its strips of rows would make bands (the discrete path) too tall
 * to split small frames. */
static gboolean
one_pass_fits (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  return !d->local_mem_dedicated && !r->discrete && r->size <= 31 && r->skipmask == 0 &&
      !r->swap;
}

/* Running sums (convolve_box) for a box: like the one-pass kernel, for CPUs working in place
 * (a strip's rows must all be readable), at any size and sample layout; blocks of 256 pixels
 * down strips of 128 rows. */
static gboolean
box_fits (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  return r->box && !d->local_mem_dedicated && !r->discrete && !r->combine;
}

/* 8-bit samples up to size 15: every window's sum is below 2^16 (15 x 15 x 255 = 57,375), so
 * the CPU kernel keeps its sums as 16-bit integers (-DBOX_SUM16, kernels/box.cl) */
static gboolean
box_sum16 (const ClKernelRequest * r)
{
  return r->depth == 8 && r->size * r->size * 255 < 65536;
}

static const ClVariant box_sums = { GST_CL_CONVOLVE_METHOD_SEPARABLE, 256, 128,
  CL_SEPARABLE_BOX
};

/* Running sums for a box on GPUs (on-chip local memory): work-groups of GBOX_TW work-items of
 * 2 pixels each down strips of 16 rows, the column sums of
 * a row of the tile shared through local memory (at most 16 bytes for each of GBOX_TW * 2 + 62
 * columns and a spare slot every 2: about 4 KiB). Small tiles keep many work-groups in flight
 * (docs/kernels.md). */
#define GBOX_TW 64

static gboolean
gbox_fits (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  return r->box && d->local_mem_dedicated && !r->combine;
}

/* The rows the GPU box's row pass takes at once (-DGBOX_RB): the facts' (a developer override)
 * where local memory holds their column sums (16 bytes each at most, a spare slot after every
 * segment of mx * rows), else fewer */
static gint
gbox_rows (const ClDeviceFacts * d, const ClKernelRequest * r, gint mx)
{
  gint rb = d->gbox_rows > 1 ? d->gbox_rows : 1;

  for (; rb > 1; rb /= 2) {
    gint cols = GBOX_TW * mx + r->size - 1;

    if ((gsize) rb * (cols + cols / (mx * rb) + 1) * 16 + 256 <= d->local_mem_size)
      break;
  }
  return rb;
}

static const ClVariant gpu_box_sums = { GST_CL_CONVOLVE_METHOD_SEPARABLE, 2, 16,
  CL_SEPARABLE_BOX
};

/* One kernel through local memory (convolve_lsep) where on-chip local memory holds a tile's
 * vertical sums: per pair LSEP_TY rows of the tile's columns and its halo (a spare slot after
 * every LSEP_MX), in work-groups of LSEP_NT work-items. Tiles are LSEP_TX (128) pixels wide in
 * work-groups of 128 x 2, or from size 15 as wide as the work-group's columns allow in
 * multiples of 32 (LSEP_WIDE_LX x 8), so that every work-item takes a column in the vertical
 * pass; those take 4 outputs a work-item in the horizontal pass from size 31 (docs/kernels.md). */
#define LSEP_TX 128
#define LSEP_NT 256
#define LSEP_MX 2
#define LSEP_WIDE_LX 32
#define LSEP_WIDE_FROM 15
#define LSEP_MX4_FROM 31
/* vertical sums of this many rows at a time */
#define LSEP_VY 4

static gboolean
lsep_fits_tile (const ClDeviceFacts * d, const ClKernelRequest * r, gint tx, gint mx, gint ty)
{
  gint cols = tx + r->size - 1, row = cols - 1 + (cols - 1) / mx + 1;
  gsize bytes = (gsize) MAX (r->rank, 1) * ty * row * sizeof (gfloat) *
      cl_variant_sum_values (r->channels, r->only);

  return d->local_mem_dedicated && r->rank >= 1 && !r->combine &&
      d->max_work_group_size >= LSEP_NT && bytes + 256 <= d->local_mem_size;
}

/* The wide tile's width: the work-group's columns less the halo, in multiples of 32 */
static gint
lsep_wide_tx (const ClKernelRequest * r)
{
  return (LSEP_NT - (r->size - 1)) / LSEP_WIDE_LX * LSEP_WIDE_LX;
}

/* Whether an lsep tile of ty rows and mx outputs a work-item is the wide one */
static gboolean
lsep_wide (const ClDeviceFacts * d, const ClKernelRequest * r, gint mx, gint ty)
{
  return r->size >= LSEP_WIDE_FROM && ty == LSEP_NT / LSEP_WIDE_LX &&
      lsep_fits_tile (d, r, lsep_wide_tx (r), mx, ty);
}

static gint
lsep_tx (const ClDeviceFacts * d, const ClKernelRequest * r, gint mx, gint ty)
{
  return lsep_wide (d, r, mx, ty) ? lsep_wide_tx (r) : LSEP_TX;
}

/* Whether lsep leaves out the sums of a 4-sample pixel's fourth sample: it is copied */
static gboolean
lsep_rgb (const ClKernelRequest * r)
{
  return r->channels == 4 && r->only < 0 && (r->passmask & 8);
}

/* lsep's tile heights, the tallest first (each sample read serves up to that many vertical
 * sums) */
static const gint lsep_ty[] = { 8, 4, 2 };

/* The tallest lsep tile that fits into *v; FALSE where none does. */
static gboolean
lsep_default (const ClDeviceFacts * d, const ClKernelRequest * r, ClVariant * v)
{
  gint mx = r->size >= LSEP_MX4_FROM ? 4 : LSEP_MX;

  for (guint i = 0; i < G_N_ELEMENTS (lsep_ty); i++) {
    gboolean wide = lsep_wide (d, r, mx, lsep_ty[i]);

    if (wide || lsep_fits_tile (d, r, LSEP_TX, LSEP_MX, lsep_ty[i])) {
      *v = (ClVariant) { GST_CL_CONVOLVE_METHOD_SEPARABLE, wide ? mx : LSEP_MX, lsep_ty[i],
        CL_SEPARABLE_LOCAL
      };
      return TRUE;
    }
  }
  return FALSE;
}

/* Both passes on the tensor cores (convolve_tsep): 8-bit samples and a blur's one pair (its
 * coefficients and sums as f16 hi + lo pairs), sizes up to 63 (docs/kernels.md, tsep).
 * Work-groups over the widest of tsep_widths columns whose planes fit in local memory,
 * TSEP_SH rows high, of a warp per 8 columns (each takes 8 columns of the vertical pass). */
#define TSEP_SH 128
#define TSEP_NW(tw) ((tw) / 8)
/* The fixed rules' smallest size for tsep: below it convolve_lsep is faster on the H100 and
 * H200 (docs/kernels.md) */
#define TSEP_FROM 31
/* The tuner's: at 15 and below tsep lost to lsep and the box's running sums on every card
 * measured, so its build would only delay the tuning */
#define TSEP_TUNE_FROM 17
static const gint tsep_widths[] = { 64, 32 };

/* the samples whose sums tsep takes */
static gint
tsep_planes (const ClKernelRequest * r)
{
  return r->only >= 0 ? 1 : lsep_rgb (r) ? 3 : r->channels;
}

/* Local memory of a tsep work-group tw columns wide: per plane 16 input rows of the columns
 * and the halo, and the ring of horizontal sums, hi and lo parts (kernels/tsep.cl's ins and
 * ht) */
static gsize
tsep_bytes (const ClKernelRequest * r, gint tw)
{
  gint blocks = (r->size + 14) / 16 + 1, inputs = tw / 16 + blocks - 1;

  return (gsize) tsep_planes (r) * 4 * (16 * (8 * inputs + 4) + 2 * tw * (8 * blocks + 4));
}

/* tsep's width for r, 0 where it does not run */
static gint
tsep_width (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  if (!d->tensor_mma || r->depth != 8 || r->rank != 1 || !r->unit || r->combine ||
      r->size > 63)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (tsep_widths); i++)
    if (tsep_bytes (r, tsep_widths[i]) + 256 <= d->local_mem_size &&
        d->max_work_group_size >= 32 * TSEP_NW (tsep_widths[i]))
      return tsep_widths[i];
  return 0;
}

/* tsep into *v where it runs; FALSE (v untouched) where it does not */
static gboolean
tsep_for (const ClDeviceFacts * d, const ClKernelRequest * r, ClVariant * v)
{
  gint tw = tsep_width (d, r);

  if (tw)
    *v = (ClVariant) { GST_CL_CONVOLVE_METHOD_SEPARABLE, tw, TSEP_SH, CL_SEPARABLE_TENSOR };
  return tw > 0;
}

/* The vertical pass first, row by row (convolve_csep), on CPU-like devices: blocks of 256
 * pixels on 8 rows per work-item; not for a second matrix (combine). */
static gboolean
csep_fits (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  return !d->local_mem_dedicated && r->rank >= 1 && !r->combine;
}

static const ClVariant csep = { GST_CL_CONVOLVE_METHOD_SEPARABLE, 256, 8,
  CL_SEPARABLE_COLUMNS
};

/* csep's output rows whose vertical sums are taken together (a divisor of its 8 rows): 4 where
 * the CPU has 256-bit vectors or wider (each loaded row serves 4 output rows, worth the
 * accumulators AVX2's 16 registers spill), else 1 (docs/kernels.md) */
static gint
csep_group (const ClDeviceFacts * d, gboolean fixed)
{
  return d->native_float_width >= 8 || fixed ? 4 : 1;
}

/* 8-bit samples, a blur's one pair (ClKernelRequest.unit) and sizes up to 31: csep's sums in
 * 16-bit fixed point (-DCSEP_FX, kernels/csep.cl), half as wide as floats. Each product is
 * truncated to a 256th of a sample (on flat content alike, so these add up): at 63 taps a pass
 * that is too far from the float sums for the suites' rounding-tie rule (docs/kernels.md). */
static gboolean
csep_fixed (const ClKernelRequest * r)
{
  return r->depth == 8 && r->unit && r->size <= 31 && !r->combine && !r->swap;
}

/* The separable variant where the matrix splits: running sums for a box on a CPU, on a GPU
 * running sums for a box, tensor cores for large blurs (NVIDIA), else one pass through local
 * memory; the vertical pass first on a CPU, else two passes. */
static ClVariant
separable_for (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  ClVariant v;

  if (r->block == 1)
    return two_pass;
  if (box_fits (d, r))
    return box_sums;
  if (d->tensor_mma == 2 && tsep_for (d, r, &v))
    return v;
  if (gbox_fits (d, r))
    return gpu_box_sums;
  if (d->tensor_mma && r->size >= TSEP_FROM && tsep_for (d, r, &v))
    return v;
  if (lsep_default (d, r, &v))
    return v;
  return csep_fits (d, r) ? csep : two_pass;
}

/* Whether method=vector gets the wider blockings: 4-sample pixels on a CPU with 32 SIMD
 * registers (AVX-512: a native float vector of 16), where more accumulators fit in registers
 * (on 1-sample pixels 3 x 2 stays ahead there). */
static gboolean
wide_vector_blocking (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  return !d->local_mem_dedicated && d->native_float_width >= 16 && r->channels == 4;
}

/* Whether method=vector can split the view's colour planes (convolve_vsplit): 8-bit 4-sample
 * pixels of which 1 to 3 samples are computed and the others copied (RGBA and its kin with
 * alpha or padding, the chroma of YUY2 and UYVY without their luma). */
static gboolean
split_fits (const ClKernelRequest * r)
{
  guint computed = 0xfu & ~r->passmask;

  return r->channels == 4 && r->depth == 8 && r->skipmask == 0 && computed && computed != 0xfu;
}

/* Where GST_CLCONVOLVE_SPLIT says, else on the CPUs of wide_vector_blocking: not a fixed rule
 * there, as they won on one such CPU and lost on another, so only timing may pick them. */
gboolean
cl_variant_split_offered (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  if (!split_fits (r) || r->split == 0)
    return FALSE;
  return r->split == 1 || wide_vector_blocking (d, r);
}

/* The split kernel's blocking: 16 pixels on 3 rows per work-item up to size 7 on the wide
 * CPUs, 2 rows above and elsewhere. */
static ClVariant
split_variant (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  return (ClVariant) { GST_CL_CONVOLVE_METHOD_VECTOR, 1,
    wide_vector_blocking (d, r) && r->size <= 7 ? 3 : 2, 1
  };
}

/* method=vector without tuning: the split planes where they apply if GST_CLCONVOLVE_SPLIT=1,
 * else 3 float8 vectors on 2 rows per work-item; for 4-sample pixels on an AVX-512 CPU 4
 * vectors on 3 rows (12 independent multiply-add chains instead of 6). */
static ClVariant
vector_default (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  if (split_fits (r) && r->split == 1)
    return split_variant (d, r);
  if (wide_vector_blocking (d, r))
    return (ClVariant) { GST_CL_CONVOLVE_METHOD_VECTOR, 4, 3, 0 };
  return (ClVariant) { GST_CL_CONVOLVE_METHOD_VECTOR, 3, 2, 0 };
}

/* separable where the split is much cheaper than the dense sum (2 r size against size^2
 * multiply-adds per sample) and large enough to pay for the second pass: from 7 on a CPU,
 * from 9 with on-chip local memory */
static gboolean
separable_wins (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  return r->rank >= 0 && r->size >= (d->local_mem_dedicated ? 9 : 7) && 4 * r->rank <= r->size;
}

/* combine (two matrices in one pass, or |sum|): only float4, sparse and separable compute it.
 * auto: separable where it wins as for one matrix (rank counts both matrices' pairs), else
 * sparse (one read of each input per tap for both sums), else float4. */
static ClVariant
combined_fixed (const ClDeviceFacts * d, const ClKernelRequest * r, gchar ** why)
{
  ClVariant dense = { GST_CL_CONVOLVE_METHOD_FLOAT4, cl_variant_direct_block (d, r), 1, 0 };
  gint asked = r->method;

  if (asked == GST_CL_CONVOLVE_METHOD_FLOAT4)
    return dense;
  if (asked == GST_CL_CONVOLVE_METHOD_SEPARABLE && r->rank >= 0)
    return one_pass_fits (d, r) && r->block != 1 ? one_pass_for (r, 64) : two_pass;
  if (asked == GST_CL_CONVOLVE_METHOD_SPARSE && sparse_fits (r))
    return sparse_variant (d, r);
  if (asked != GST_CL_CONVOLVE_METHOD_AUTO && why)
    *why = g_strdup_printf ("method=%s cannot combine two sums (combine runs on float4, "
        "sparse and separable) or does not fit this matrix; using what method=auto picks",
        asked == GST_CL_CONVOLVE_METHOD_TILED ? "tiled" :
        asked == GST_CL_CONVOLVE_METHOD_VECTOR ? "vector" :
        asked == GST_CL_CONVOLVE_METHOD_SPARSE ? "sparse" : "separable");
  if (separable_wins (d, r))
    return one_pass_fits (d, r) && r->block != 1 ? one_pass_for (r, 64) : two_pass;
  if (sparse_fits (r))
    return sparse_variant (d, r);
  return dense;
}

ClVariant
cl_variant_fixed (const ClDeviceFacts * d, const ClKernelRequest * r, gchar ** why)
{
  gboolean dedicated = d->local_mem_dedicated;
  ClVariant dense = { GST_CL_CONVOLVE_METHOD_FLOAT4, cl_variant_direct_block (d, r), 1, 0 };
  ClVariant plain = { 0, 1, 1, 0 };
  gint asked = r->method;

  if (why)
    *why = NULL;
  if (r->combine)
    return combined_fixed (d, r, why);
  if (asked == GST_CL_CONVOLVE_METHOD_SPARSE ||
      (asked == GST_CL_CONVOLVE_METHOD_AUTO && sparse_wins (r))) {
    if (sparse_fits (r))
      return sparse_variant (d, r);
    if (why)
      *why = r->skipmask ? g_strdup ("method=sparse writes whole pixels; this view shares its "
          "pixels with another (packed 4:2:2): using float4 for it") :
          g_strdup_printf ("method=sparse: this %dx%d matrix has more than %d non-zero "
          "coefficients (or none); using float4", r->size, r->size, CL_MAX_TAPS);
    return dense;
  }
  /* auto: separable where it wins (separable_wins), running sums for any box */
  if (asked == GST_CL_CONVOLVE_METHOD_SEPARABLE ||
      (asked == GST_CL_CONVOLVE_METHOD_AUTO && (separable_wins (d, r) || box_fits (d, r)))) {
    if (r->rank >= 0)
      return separable_for (d, r);
    if (why)
      *why = g_strdup_printf ("method=separable: this %dx%d matrix needs more than %d vector "
          "pairs; using a dense kernel", r->size, r->size, CL_MAX_RANK);
    asked = GST_CL_CONVOLVE_METHOD_AUTO;
  }
  switch (asked) {
    case GST_CL_CONVOLVE_METHOD_TILED:
      if (tiled_default (d, r, &plain))
        return plain;
      if (why)
        *why = g_strdup_printf ("method=tiled: no tile with a %d-pixel halo fits in %"
            G_GSIZE_FORMAT " bytes of local memory; using float4", r->size / 2,
            d->local_mem_size);
      return dense;
    case GST_CL_CONVOLVE_METHOD_VECTOR:
      if (r->skipmask == 0)
        return vector_default (d, r);
      if (why)
        *why = g_strdup ("method=vector writes whole pixels; this view shares its pixels "
            "with another (packed 4:2:2): using float4 for it");
      return dense;
    case GST_CL_CONVOLVE_METHOD_FLOAT4:
      return dense;
    case GST_CL_CONVOLVE_METHOD_AUTO:
    default:
      /* tiles only where local memory is on-chip (a CPU's "local" memory is ordinary RAM) */
      if (dedicated && tiled_default (d, r, &plain))
        return plain;
      return !dedicated && r->skipmask == 0 ? vector_default (d, r) : dense;
  }
}

/* With on-chip local memory the tiled blockings that fit, float4 and two vector blockings; on a
 * CPU-like device float4 and two vector blockings; the split planes where offered; separable
 * wherever the matrix splits (on a CPU also in one pass, two blockings). Every candidate is a
 * program to build the first time, so the lists hold only blockings that won somewhere in
 * docs/kernels.md's measurements. */
gint
cl_variant_candidates (const ClDeviceFacts * d, const ClKernelRequest * r, ClVariant * out)
{
  static const gint cpu_vector[][2] = { {3, 2}, {4, 1} };
  static const gint wide_vector[][2] = { {3, 2}, {4, 3} };
  static const gint gpu_vector[][2] = { {1, 1}, {3, 2} };
  gboolean dedicated = d->local_mem_dedicated;
  const gint (*vec)[2] = dedicated ? gpu_vector : wide_vector_blocking (d, r) ?
      wide_vector : cpu_vector;
  gint n = 0, n_vec = G_N_ELEMENTS (cpu_vector);

  G_STATIC_ASSERT (G_N_ELEMENTS (wide_vector) == G_N_ELEMENTS (cpu_vector));
  G_STATIC_ASSERT (G_N_ELEMENTS (gpu_vector) == G_N_ELEMENTS (cpu_vector));
  /* with local memory: tiles, float4, vectors, split (where asked), lsep or box, two passes,
   * sparse; without: float4, vectors, split, box, two passes and one, sparse */
  G_STATIC_ASSERT (G_N_ELEMENTS (tiled_blocks) + 1 + G_N_ELEMENTS (cpu_vector) + 1 +
      2 + 1 + 1 + 1 <= CL_MAX_CANDIDATES);
  G_STATIC_ASSERT (1 + G_N_ELEMENTS (cpu_vector) + 1 + 1 + 1 + 3 + 1 <= CL_MAX_CANDIDATES);

  if (r->combine) {
    /* what computes the combined sums: float4, separable, sparse */
    out[n++] = (ClVariant) { GST_CL_CONVOLVE_METHOD_FLOAT4, cl_variant_direct_block (d, r), 1,
      0
    };
    if (r->rank >= 0) {
      out[n++] = two_pass;
      if (one_pass_fits (d, r)) {
        out[n++] = one_pass_for (r, 64);
        out[n++] = one_pass_for (r, 128);
      }
    }
    if (sparse_fits (r))
      out[n++] = sparse_variant (d, r);
    return n;
  }
  for (guint i = 0; i < G_N_ELEMENTS (tiled_blocks) && dedicated; i++)
    if (cl_variant_tile_geometry (d, r, tiled_blocks[i][0], tiled_blocks[i][1]).fits)
      out[n++] = (ClVariant) { GST_CL_CONVOLVE_METHOD_TILED, tiled_blocks[i][0],
        tiled_blocks[i][1], 0
      };
  out[n++] = (ClVariant) { GST_CL_CONVOLVE_METHOD_FLOAT4, cl_variant_direct_block (d, r), 1, 0 };
  for (gint i = 0; i < n_vec && r->skipmask == 0; i++)
    out[n++] = (ClVariant) { GST_CL_CONVOLVE_METHOD_VECTOR, pixel_nv (r, vec[i][0]), vec[i][1],
      0
    };
  if (cl_variant_split_offered (d, r))
    out[n++] = split_variant (d, r);
  if (box_fits (d, r))
    out[n++] = box_sums;
  if (gbox_fits (d, r)) {
    out[n++] = gpu_box_sums;
    /* taller strips read fewer halo rows: they win on large frames from size 15, and lose
     * where the frame leaves too few work-groups (docs/kernels.md, running sums) */
    if (r->size >= 15)
      out[n++] = (ClVariant) { GST_CL_CONVOLVE_METHOD_SEPARABLE, 2, 64, CL_SEPARABLE_BOX };
  }
  /* (a box's running sums take lsep's place) */
  if (!gbox_fits (d, r) && lsep_default (d, r, &out[n]))
    n++;
  if ((r->size >= TSEP_TUNE_FROM || d->tensor_mma == 2) && tsep_for (d, r, &out[n]))
    n++;
  if (csep_fits (d, r))
    out[n++] = csep;
  if (r->rank >= 0) {
    out[n++] = two_pass;
    /* one pass (CPU-like devices): 4 vectors (3 for 3-sample pixels) down 64 rows (csep took
     * the place of the strips of 128: docs/kernels.md, one pass) */
    if (one_pass_fits (d, r))
      out[n++] = one_pass_for (r, 64);
  }
  /* sparse where at most three quarters of the coefficients are non-zero */
  if (sparse_fits (r) && 4 * r->taps <= 3 * r->size * r->size)
    out[n++] = sparse_variant (d, r);
  return n;
}

gchar *
cl_variant_options (const ClDeviceFacts * d, const ClKernelRequest * r, const ClVariant * v)
{
  ClTileGeometry g = cl_variant_tile_geometry (d, r, v->bx, v->by);
  gboolean sparse_tiles = v->method == GST_CL_CONVOLVE_METHOD_SPARSE && v->split;
  GString *sample = g_string_new (NULL);
  gchar *only, *options, *border;

  /* the one sample computed; samples of fewer significant bits than their container */
  if (r->only >= 0)
    g_string_append_printf (sample, " -DONLY=%d", r->only);
  if (r->bits > 0 && r->bits < r->depth)
    g_string_append_printf (sample, " -DBITS=%d -DSHIFT=%d", r->bits, r->shift);
  if (r->swap)
    g_string_append (sample, " -DSWAP");
  /* the generic programs take it as an argument */
  if (r->combine && !v->generic)
    g_string_append_printf (sample, " -DCOMBINE=%d", r->combine);
  only = g_string_free (sample, FALSE);

  /* the pixel shape alone: not the matrix side */
  if (v->generic) {
    options = g_strdup_printf ("-DGENERIC -DCHANNELS=%d -DDEPTH=%d -DSKIPMASK=%u%s",
        r->channels, r->depth, r->skipmask, only);
    g_free (only);
    return options;
  }
  /* the GPU box's rows a row pass (a developer override) */
  gchar rb[24] = "";

  if (v->split == CL_SEPARABLE_BOX && d->local_mem_dedicated && gbox_rows (d, r, v->bx) > 1)
    g_snprintf (rb, sizeof (rb), " -DGBOX_RB=%d", gbox_rows (d, r, v->bx));
  gchar *extra = v->method == GST_CL_CONVOLVE_METHOD_TILED || sparse_tiles ?
      g_strdup_printf (" -DTILE_W=%d -DTILE_H=%d -DTILE_MX=%d -DTILE_MY=%d -DTILE_FLOAT=%d%s",
      g.w, g.h, v->bx, v->by, g.as_float, sparse_tiles ? " -DSPARSE" : "") :
      v->method == GST_CL_CONVOLVE_METHOD_VECTOR && v->split ?
      g_strdup_printf (" -DSPLIT=%u -DNX=%d -DMY=%d", 0xfu & ~r->passmask, v->bx, v->by) :
      v->method == GST_CL_CONVOLVE_METHOD_VECTOR ?
      g_strdup_printf (" -DNV=%d -DMY=%d", v->bx, v->by) :
      v->method == GST_CL_CONVOLVE_METHOD_SPARSE ?
      g_strdup_printf (" -DNV=%d -DMY=%d", v->bx, v->by) :
      v->method == GST_CL_CONVOLVE_METHOD_FLOAT4 ?
      g_strdup_printf (" -DBLOCK=%d", v->bx) : v->split == CL_SEPARABLE_LOCAL ?
      g_strdup_printf (" -DLSEP_TX=%d -DLSEP_LX=%d -DLSEP_NT=%d -DLSEP_TY=%d -DLSEP_VY=%d "
      "-DLSEP_MX=%d -DLSEP_RANK=%d%s", lsep_tx (d, r, v->bx, v->by),
      lsep_wide (d, r, v->bx, v->by) ? LSEP_WIDE_LX : LSEP_TX, LSEP_NT, v->by,
      MIN (LSEP_VY, v->by), v->bx, MAX (r->rank, 1), lsep_rgb (r) ? " -DLSEP_RGB" : "") :
      v->split == CL_SEPARABLE_TENSOR ?
      g_strdup_printf (" -DTSEP_TW=%d -DTSEP_SH=%d -DTSEP_NW=%d%s", v->bx, v->by, TSEP_NW (v->bx),
      lsep_rgb (r) ? " -DTSEP_RGB" : "") :
      v->split == CL_SEPARABLE_COLUMNS ?
      g_strdup_printf (" -DCSEP_W=%d -DCSEP_MY=%d -DCSEP_G=%d%s", v->bx, v->by,
      csep_group (d, csep_fixed (r)), csep_fixed (r) ? " -DCSEP_FX" : "") :
      v->split == CL_SEPARABLE_BOX && d->local_mem_dedicated ?
      g_strdup_printf (" -DGBOX_TW=%d -DGBOX_MX=%d -DSTRIP=%d%s", GBOX_TW, v->bx, v->by, rb) :
      v->split == CL_SEPARABLE_BOX ?
      g_strdup_printf (" -DBOX_W=%d -DSTRIP=%d%s", v->bx, v->by,
      box_sum16 (r) ? " -DBOX_SUM16" : "") : v->bx ?
      g_strdup_printf (" -DNV=%d -DSTRIP=%d", v->bx, v->by) : g_strdup ("");
  /* unaligned vector stores as single moves where the device is a CPU (put8, kernels/common.cl) */
  /* the border is an argument of every kernel; on GPUs it is also compiled in (their code
   * for a constant rule is faster, docs/kernels.md), on CPUs one program serves the four */
  border = d->local_mem_dedicated ? g_strdup_printf (" -DBORDER=%d", r->border) : g_strdup ("");
  options = g_strdup_printf ("-DKSIZE=%d -DCHANNELS=%d -DDEPTH=%d -DSKIPMASK=%u%s%s%s%s",
      r->size, r->channels, r->depth, r->skipmask, border, only, extra,
      d->local_mem_dedicated ? "" : " -DPACKED_IO");
  g_free (border);

  g_free (only);
  g_free (extra);
  return options;
}

ClKernelSource
cl_variant_source (const ClVariant * v)
{
  gboolean separable = v->method == GST_CL_CONVOLVE_METHOD_SEPARABLE;

  gboolean sparse = v->method == GST_CL_CONVOLVE_METHOD_SPARSE;

  return v->method == GST_CL_CONVOLVE_METHOD_TILED || (sparse && v->split) ? CL_SOURCE_TILED :
      sparse ? CL_SOURCE_SPARSE : separable && v->split == CL_SEPARABLE_BOX ? CL_SOURCE_BOX :
      separable && v->split == CL_SEPARABLE_LOCAL ? CL_SOURCE_LSEP :
      separable && v->split == CL_SEPARABLE_COLUMNS ? CL_SOURCE_CSEP :
      separable && v->split == CL_SEPARABLE_TENSOR ? CL_SOURCE_TSEP :
      separable && v->bx > 0 ? CL_SOURCE_VSEP : separable ? CL_SOURCE_SEPARABLE :
      v->split ? CL_SOURCE_VSPLIT : v->method == GST_CL_CONVOLVE_METHOD_VECTOR ?
      CL_SOURCE_VECTOR : CL_SOURCE_DIRECT;
}

gboolean
cl_variant_launch (const ClDeviceFacts * d, const ClKernelRequest * r, const ClVariant * v,
    gsize wg, ClLaunch * out)
{
  gboolean sparse = v->method == GST_CL_CONVOLVE_METHOD_SPARSE;
  gboolean tiled = v->method == GST_CL_CONVOLVE_METHOD_TILED || (sparse && v->split);
  gboolean separable = v->method == GST_CL_CONVOLVE_METHOD_SEPARABLE;
  /* a block of pixels per work-item (box, csep) */
  gboolean blocks = separable && (v->split == CL_SEPARABLE_BOX ||
      v->split == CL_SEPARABLE_COLUMNS);
  gboolean one_pass = separable && v->bx > 0;
  gboolean vector = v->method == GST_CL_CONVOLVE_METHOD_VECTOR || (one_pass && !blocks) ||
      (sparse && !v->split);
  gsize tile = 16;

  memset (out, 0, sizeof (*out));
  if (separable && v->split == CL_SEPARABLE_LOCAL) {
    /* a work-group a tile: its rows of work-items cover the tile's by rows */
    if (wg < LSEP_NT)
      return FALSE;
    gint lx = lsep_wide (d, r, v->bx, v->by) ? LSEP_WIDE_LX : LSEP_TX;

    out->local[0] = lx;
    out->local[1] = LSEP_NT / lx;
    out->px = lsep_tx (d, r, v->bx, v->by) / lx;
    out->py = v->by / (LSEP_NT / lx);
    out->one_pass = TRUE;
    return TRUE;
  }
  if (separable && v->split == CL_SEPARABLE_TENSOR) {
    /* a work-group of a warp per 8 columns a tile of bx columns and by rows */
    if (wg < 32 * TSEP_NW (v->bx))
      return FALSE;
    out->local[0] = 32;
    out->local[1] = TSEP_NW (v->bx);
    out->px = v->bx / 32;
    out->py = v->by / TSEP_NW (v->bx);
    out->one_pass = TRUE;
    return TRUE;
  }
  if (blocks && d->local_mem_dedicated && v->split == CL_SEPARABLE_BOX) {
    /* a work-group a tile of GBOX_TW blocks of bx pixels down a strip */
    if (wg < GBOX_TW)
      return FALSE;
    out->local[0] = GBOX_TW;
    out->local[1] = 1;
    out->px = v->bx;
    out->py = v->by;
    out->one_pass = TRUE;
    return TRUE;
  }
  if (blocks) {
    /* work-groups of one work-item, as many as there are blocks */
    out->local[0] = out->local[1] = 1;
    out->px = v->bx;
    out->py = v->by;
    out->one_pass = TRUE;
    return TRUE;
  }
  if (tiled) {
    ClTileGeometry g = cl_variant_tile_geometry (d, r, v->bx, v->by);

    if (wg < (gsize) g.w * g.h)
      return FALSE;
    out->local[0] = g.w;
    out->local[1] = g.h;
  } else if (vector) {
    /* a row of 16 work-items per group (docs/kernels.md, vector) */
    out->local[0] = MIN (16, wg);
    out->local[1] = 1;
  } else {
    /* the direct kernels run any work-group shape: shrink it to what the kernel allows */
    while (tile > 1 && tile * tile > wg)
      tile /= 2;
    out->local[0] = out->local[1] = tile;
  }
  out->px = v->split && !sparse ? 16 * v->bx : vector ? 8 * v->bx / r->channels :
      separable ? 1 : v->bx;
  out->py = vector || tiled ? v->by : 1;
  out->one_pass = one_pass;
  out->two_pass = separable && !one_pass;
  return TRUE;
}

const gchar *
cl_variant_text (const ClVariant * v, gchar * buf, gsize n)
{
  static const gchar *const names[] = { "auto", "tiled", "float4", "separable", "vector",
    "sparse"
  };
  const gchar *name = v->method >= 0 && v->method < (gint) G_N_ELEMENTS (names) ?
      names[v->method] : "?";

  if (v->generic)
    g_snprintf (buf, n, v->method == GST_CL_CONVOLVE_METHOD_SEPARABLE ? "generic separable" :
        "generic");
  else if (v->method == GST_CL_CONVOLVE_METHOD_FLOAT4)
    g_snprintf (buf, n, "%s block=%d", name, v->bx);
  else if (v->method == GST_CL_CONVOLVE_METHOD_TILED)
    g_snprintf (buf, n, "%s %dx%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_SEPARABLE && v->split == CL_SEPARABLE_BOX)
    g_snprintf (buf, n, "%s box w=%d strip=%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_SEPARABLE && v->split == CL_SEPARABLE_COLUMNS)
    g_snprintf (buf, n, "%s columns w=%d my=%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_SEPARABLE && v->split == CL_SEPARABLE_LOCAL)
    g_snprintf (buf, n, "%s local mx=%d ty=%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_SEPARABLE && v->split == CL_SEPARABLE_TENSOR)
    g_snprintf (buf, n, "%s tensor w=%d h=%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_SEPARABLE && v->bx)
    g_snprintf (buf, n, "%s nv=%d strip=%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_VECTOR && v->split)
    g_snprintf (buf, n, "%s split nx=%d my=%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_VECTOR)
    g_snprintf (buf, n, "%s nv=%d my=%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_SPARSE && v->split)
    g_snprintf (buf, n, "%s tiled %dx%d", name, v->bx, v->by);
  else if (v->method == GST_CL_CONVOLVE_METHOD_SPARSE)
    g_snprintf (buf, n, "%s nv=%d my=%d", name, v->bx, v->by);
  else
    g_snprintf (buf, n, "%s", name);
  return buf;
}
