/* clconvolve: the variant rules, without a device
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Made-up devices against the rules as docs/kernels.md states them (which variant each device
 * runs, what the tuner times, the tile arithmetic of method=tiled), worked out by hand here:
 * a GPU with 48 KiB of on-chip local memory and 1024 work-items, CPUs with AVX-512 (a native
 * float vector of 16) and AVX2 (8), and a device with 4 KiB of local memory and 128
 * work-items. */

#include "variants.h"

#include <string.h>

static const ClDeviceFacts gpu = { TRUE, 49152, 1024, 1 };
static const ClDeviceFacts avx512 = { FALSE, 4 << 20, 4096, 16 };
static const ClDeviceFacts avx2 = { FALSE, 4 << 20, 4096, 8 };
static const ClDeviceFacts sse = { FALSE, 4 << 20, 4096, 4 };
static const ClDeviceFacts small = { TRUE, 4096, 128, 1 };
/* the GPU above with tensor cores (an NVIDIA of compute capability 8.0 or later) */
static const ClDeviceFacts tensor = { TRUE, 49152, 1024, 1, TRUE };

enum
{
  AUTO = GST_CL_CONVOLVE_METHOD_AUTO,
  TILED = GST_CL_CONVOLVE_METHOD_TILED,
  FLOAT4 = GST_CL_CONVOLVE_METHOD_FLOAT4,
  SEPARABLE = GST_CL_CONVOLVE_METHOD_SEPARABLE,
  VECTOR = GST_CL_CONVOLVE_METHOD_VECTOR,
  SPARSE = GST_CL_CONVOLVE_METHOD_SPARSE
};

/* A 1080p request of a dense (rank -1) size x size matrix, every sample computed. */
static ClKernelRequest
req (gint method, gint size, gint channels, gint depth)
{
  ClKernelRequest r = { method, size, channels, depth, 0, -1, 0, 0, -1, 1920, 1080, 0, TRUE,
    -1, FALSE
  };
  return r;
}

static gchar *
text (const ClVariant * v)
{
  gchar buf[64];

  return g_strdup (cl_variant_text (v, buf, sizeof (buf)));
}

/* the fixed choice, as text, with no fallback warning */
static void
assert_fixed (const ClDeviceFacts * d, const ClKernelRequest * r, const gchar * expect)
{
  gchar *why = NULL;
  ClVariant v = cl_variant_fixed (d, r, &why);
  gchar *got = text (&v);

  g_assert_cmpstr (got, ==, expect);
  g_assert_null (why);
  g_free (got);
}

/* the fixed choice with a fallback warning that contains needle */
static void
assert_fallback (const ClDeviceFacts * d, const ClKernelRequest * r, const gchar * expect,
    const gchar * needle)
{
  gchar *why = NULL;
  ClVariant v = cl_variant_fixed (d, r, &why);
  gchar *got = text (&v);

  g_assert_cmpstr (got, ==, expect);
  g_assert_nonnull (why);
  g_assert_nonnull (strstr (why, needle));
  g_free (why);
  g_free (got);
}

/* the candidates, as texts joined by ", " (valid until the next call) */
static const gchar *
candidates_text (const ClDeviceFacts * d, const ClKernelRequest * r)
{
  static gchar *last;
  ClVariant c[CL_MAX_CANDIDATES];
  gint n = cl_variant_candidates (d, r, c);
  GString *s = g_string_new (NULL);

  g_assert_cmpint (n, <=, CL_MAX_CANDIDATES);
  for (gint i = 0; i < n; i++) {
    gchar *t = text (&c[i]);

    g_string_append_printf (s, "%s%s", i ? ", " : "", t);
    g_free (t);
  }
  g_free (last);
  last = g_string_free (s, FALSE);
  return last;
}

static void
assert_candidates (const ClDeviceFacts * d, const ClKernelRequest * r, const gchar * expect)
{
  g_assert_cmpstr (candidates_text (d, r), ==, expect);
}

/* the build options of variant v */
static void
assert_options_of (const ClDeviceFacts * d, const ClKernelRequest * r, const ClVariant * v,
    const gchar * expect)
{
  gchar *o = cl_variant_options (d, r, v);

  g_assert_cmpstr (o, ==, expect);
  g_free (o);
}

static void
assert_options (const ClDeviceFacts * d, const ClKernelRequest * r, const gchar * expect)
{
  ClVariant v = cl_variant_fixed (d, r, NULL);

  assert_options_of (d, r, &v, expect);
}

/* variant v's launch for work-groups of up to wg: lx x ly work-items, px pixels and py rows
 * each */
static void
assert_launch_of (const ClDeviceFacts * d, const ClKernelRequest * r, const ClVariant * v,
    gsize wg, gsize lx, gsize ly, gint px, gint py)
{
  ClLaunch l;

  g_assert_true (cl_variant_launch (d, r, v, wg, &l));
  g_assert_cmpuint (l.local[0], ==, lx);
  g_assert_cmpuint (l.local[1], ==, ly);
  g_assert_cmpint (l.px, ==, px);
  g_assert_cmpint (l.py, ==, py);
}

static void
assert_launch (const ClDeviceFacts * d, const ClKernelRequest * r, gsize wg, gsize lx,
    gsize ly, gint px, gint py)
{
  ClVariant v = cl_variant_fixed (d, r, NULL);

  assert_launch_of (d, r, &v, wg, lx, ly, px, py);
}

/* On-chip local memory: tiles. RGBA 7x7 at 2x4 outputs per work-item: a 70x38 tile of float4
 * is 42560 bytes, under 48 KiB; at 31x31 the 94x62 float tile (93 KB) does not fit but the
 * raw one (23 KB) does. Separable from 9 for a rank-1 matrix, in one kernel through local
 * memory where its ring fits, else two passes. */
static void
test_gpu (void)
{
  ClKernelRequest r = req (AUTO, 7, 4, 8), g9 = req (AUTO, 9, 4, 8), g7 = req (AUTO, 7, 4, 8);
  ClKernelRequest big = req (AUTO, 31, 4, 8);
  ClVariant v;
  ClLaunch l;

  assert_fixed (&gpu, &r, "tiled 2x4");
  assert_options (&gpu, &r, "-DKSIZE=7 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DTILE_W=32 -DTILE_H=8 -DTILE_MX=2 -DTILE_MY=4 -DTILE_FLOAT=1");
  /* on GPUs the rule is compiled in as well */
  r.border = 2;
  assert_options (&gpu, &r, "-DKSIZE=7 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=2 "
      "-DTILE_W=32 -DTILE_H=8 -DTILE_MX=2 -DTILE_MY=4 -DTILE_FLOAT=1");
  r.border = 0;
  assert_launch (&gpu, &r, 1024, 32, 8, 2, 4);
  assert_options (&gpu, &big, "-DKSIZE=31 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DTILE_W=32 -DTILE_H=8 -DTILE_MX=2 -DTILE_MY=4 -DTILE_FLOAT=0");

  g9.rank = 1;
  g7.rank = 1;
  assert_fixed (&gpu, &g9, "separable local mx=2 ty=8");
  assert_fixed (&gpu, &g7, "tiled 2x4");
  v = cl_variant_fixed (&gpu, &g9, NULL);
  g_assert_cmpint (cl_variant_source (&v), ==, CL_SOURCE_LSEP);
  g_assert_cmpstr (cl_kernel_source_entry (cl_variant_source (&v)), ==, "convolve_lsep");
  g_assert_true (cl_variant_launch (&gpu, &g9, &v, 1024, &l));
  g_assert_true (l.one_pass);
  g_assert_false (l.two_pass);
  g_assert_cmpuint (l.local[0], ==, 128);
  g_assert_cmpuint (l.local[1], ==, 2);
  g_assert_cmpint (l.px, ==, 1);
  g_assert_cmpint (l.py, ==, 4);
  /* compiled for more work-items than the device allows in a group: it cannot run */
  g_assert_false (cl_variant_launch (&gpu, &g9, &v, 128, &l));
  assert_options (&gpu, &g9, "-DKSIZE=9 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DLSEP_TX=128 -DLSEP_LX=128 -DLSEP_NT=256 -DLSEP_TY=8 -DLSEP_VY=4 -DLSEP_MX=2 "
      "-DLSEP_RANK=1");
  /* the fourth sample copied (RGBA's alpha, as channels=auto does): its sums left out */
  g9.passmask = 8;
  assert_options (&gpu, &g9, "-DKSIZE=9 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DLSEP_TX=128 -DLSEP_LX=128 -DLSEP_NT=256 -DLSEP_TY=8 -DLSEP_VY=4 -DLSEP_MX=2 "
      "-DLSEP_RANK=1 -DLSEP_RGB");
  g9.passmask = 0;
  /* from 15 the wide tile: its 224 + 14 columns fill the 256 work-items (32 x 8), 7 pixels
   * of the launch's x a work-item; from 31 4 outputs a work-item (224 + 30 columns; at 63 192
   * + 62) */
  g9.size = 15;
  assert_fixed (&gpu, &g9, "separable local mx=2 ty=8");
  v = cl_variant_fixed (&gpu, &g9, NULL);
  assert_options (&gpu, &g9, "-DKSIZE=15 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DLSEP_TX=224 -DLSEP_LX=32 -DLSEP_NT=256 -DLSEP_TY=8 -DLSEP_VY=4 -DLSEP_MX=2 "
      "-DLSEP_RANK=1");
  g_assert_true (cl_variant_launch (&gpu, &g9, &v, 1024, &l));
  g_assert_cmpuint (l.local[0], ==, 32);
  g_assert_cmpuint (l.local[1], ==, 8);
  g_assert_cmpint (l.px, ==, 7);
  g_assert_cmpint (l.py, ==, 1);
  g9.size = 31;
  assert_fixed (&gpu, &g9, "separable local mx=4 ty=8");
  assert_options (&gpu, &g9, "-DKSIZE=31 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DLSEP_TX=224 -DLSEP_LX=32 -DLSEP_NT=256 -DLSEP_TY=8 -DLSEP_VY=4 -DLSEP_MX=4 "
      "-DLSEP_RANK=1");
  /* its tile per pair: ty rows of the 127 + size columns of float4 and a spare slot after
   * every 2; at 63 that fits in 48 KiB for 8 rows (36,352 bytes), with two pairs for 4, with
   * three for 2 (27,264); on a device of 128 work-items not at all: two passes there */
  g9.size = 63;
  assert_fixed (&gpu, &g9, "separable local mx=4 ty=8");
  assert_options (&gpu, &g9, "-DKSIZE=63 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DLSEP_TX=192 -DLSEP_LX=32 -DLSEP_NT=256 -DLSEP_TY=8 -DLSEP_VY=4 -DLSEP_MX=4 "
      "-DLSEP_RANK=1");
  /* two pairs: the wide tile does not fit, the narrow one with 4 rows does */
  g9.rank = 2;
  assert_fixed (&gpu, &g9, "separable local mx=2 ty=4");
  g9.rank = 3;
  assert_fixed (&gpu, &g9, "separable local mx=2 ty=2");
  g9.rank = 2;
  assert_fixed (&small, &g9, "separable");
  v = cl_variant_fixed (&small, &g9, NULL);
  g_assert_true (cl_variant_launch (&small, &g9, &v, 1024, &l));
  g_assert_false (l.one_pass);
  g_assert_true (l.two_pass);
  g_assert_cmpuint (l.local[0], ==, 16);
  g_assert_cmpuint (l.local[1], ==, 16);
  g9.rank = 1;
  assert_fixed (&small, &g9, "separable");

  r.method = FLOAT4;
  assert_fixed (&gpu, &r, "float4 block=1");
  r.method = VECTOR;
  assert_fixed (&gpu, &r, "vector nv=3 my=2");

  r.method = AUTO;
  assert_candidates (&gpu, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2");
  assert_candidates (&gpu, &g7, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable local mx=2 ty=8, separable");
  /* a view that shares its pixels (packed 4:2:2 luma): no vector kernels */
  r.skipmask = 0xa;
  assert_candidates (&gpu, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1");
}

/* A CPU with AVX-512: method=vector's wide blocking (4 vectors on 3 rows) for 4-sample pixels,
 * 3 x 2 for 1-sample ones; separable in one pass from 7 (4 rank <= size), two passes on the
 * discrete path, with GST_CLCONVOLVE_BLOCK=1 and above 31; float4 blocks of 8; the split planes
 * offered where a copied sample leaves 1 to 3 of 4 computed. */
static void
test_avx512 (void)
{
  ClKernelRequest r = req (AUTO, 7, 4, 8), gray = req (AUTO, 7, 1, 8);
  ClKernelRequest sep = req (AUTO, 7, 4, 8), rgbx = req (AUTO, 7, 4, 8);
  ClKernelRequest luma = req (AUTO, 5, 2, 8);
  ClVariant v;
  ClLaunch l;

  assert_fixed (&avx512, &r, "vector nv=4 my=3");
  assert_launch (&avx512, &r, 4096, 16, 1, 8, 3);
  assert_options (&avx512, &r, "-DKSIZE=7 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DNV=4 -DMY=3 -DPACKED_IO");
  assert_fixed (&avx512, &gray, "vector nv=3 my=2");
  assert_launch (&avx512, &gray, 4096, 16, 1, 24, 2);

  sep.rank = 1;
  assert_fixed (&avx512, &sep, "separable columns w=256 my=8");
  assert_options (&avx512, &sep, "-DKSIZE=7 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DCSEP_W=256 -DCSEP_MY=8 -DCSEP_G=4 -DPACKED_IO");
  v = cl_variant_fixed (&avx512, &sep, NULL);
  g_assert_cmpint (cl_variant_source (&v), ==, CL_SOURCE_CSEP);
  g_assert_cmpstr (cl_kernel_source_entry (cl_variant_source (&v)), ==, "convolve_csep");
  g_assert_true (cl_variant_launch (&avx512, &sep, &v, 4096, &l));
  g_assert_true (l.one_pass);
  g_assert_false (l.two_pass);
  g_assert_cmpint (l.px, ==, 256);
  g_assert_cmpint (l.py, ==, 8);
  assert_candidates (&avx512, &sep, "float4 block=8, vector nv=3 my=2, vector nv=4 my=3, "
      "separable columns w=256 my=8, separable, separable nv=4 strip=64");
  /* a blur's one pair on 8-bit samples: sums in 16-bit fixed point; not on 16-bit samples */
  sep.unit = TRUE;
  assert_options (&avx512, &sep, "-DKSIZE=7 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DCSEP_W=256 -DCSEP_MY=8 -DCSEP_G=4 -DCSEP_FX -DPACKED_IO");
  /* ... up to size 31 */
  sep.method = SEPARABLE;
  sep.size = 33;
  assert_options (&avx512, &sep, "-DKSIZE=33 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DCSEP_W=256 -DCSEP_MY=8 -DCSEP_G=4 -DPACKED_IO");
  sep.size = 7;
  sep.method = AUTO;
  sep.depth = 16;
  assert_options (&avx512, &sep, "-DKSIZE=7 -DCHANNELS=4 -DDEPTH=16 -DSKIPMASK=0 "
      "-DCSEP_W=256 -DCSEP_MY=8 -DCSEP_G=4 -DPACKED_IO");
  sep.depth = 8;
  sep.unit = FALSE;
  /* the one-pass kernel's strips are too tall for bands; csep's 8 rows are not */
  sep.discrete = TRUE;
  assert_fixed (&avx512, &sep, "separable columns w=256 my=8");
  assert_candidates (&avx512, &sep, "float4 block=8, vector nv=3 my=2, vector nv=4 my=3, "
      "separable columns w=256 my=8, separable");
  sep.discrete = FALSE;
  sep.block = 1;
  assert_fixed (&avx512, &sep, "separable");
  sep.block = 0;
  sep.size = 33;
  assert_fixed (&avx512, &sep, "separable columns w=256 my=8");
  sep.size = 7;
  sep.rank = 2;                 /* 8 multiply-adds of two pairs against 7: dense */
  assert_fixed (&avx512, &sep, "vector nv=4 my=3");

  /* RGBx: the padding byte copied */
  rgbx.passmask = 0x8;
  assert_candidates (&avx512, &rgbx, "float4 block=8, vector nv=3 my=2, vector nv=4 my=3, "
      "vector split nx=1 my=3");
  rgbx.split = 0;
  assert_candidates (&avx512, &rgbx, "float4 block=8, vector nv=3 my=2, vector nv=4 my=3");
  rgbx.split = 1;
  assert_fixed (&avx512, &rgbx, "vector split nx=1 my=3");
  assert_options (&avx512, &rgbx, "-DKSIZE=7 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DSPLIT=7 -DNX=1 -DMY=3 -DPACKED_IO");
  assert_launch (&avx512, &rgbx, 4096, 16, 1, 16, 3);
  rgbx.size = 9;
  assert_fixed (&avx512, &rgbx, "vector split nx=1 my=2");

  /* YUY2 chroma with luma selected too: the chroma view shares its pixels */
  luma.skipmask = 0x5;
  luma.only = 1;
  luma.border = 2;
  assert_fixed (&avx512, &luma, "float4 block=8");
  assert_options (&avx512, &luma, "-DKSIZE=5 -DCHANNELS=2 -DDEPTH=8 -DSKIPMASK=5 "
      "-DONLY=1 -DBLOCK=8 -DPACKED_IO");
  /* on CPUs the border is a kernel argument alone: one program for every rule */
  luma.border = 3;
  assert_options (&avx512, &luma, "-DKSIZE=5 -DCHANNELS=2 -DDEPTH=8 -DSKIPMASK=5 "
      "-DONLY=1 -DBLOCK=8 -DPACKED_IO");
  luma.border = 2;
  assert_launch (&avx512, &luma, 4096, 16, 16, 8, 1);
  luma.method = VECTOR;
  assert_fallback (&avx512, &luma, "float4 block=8", "shares its pixels");
  luma.block = 3;
  assert_fallback (&avx512, &luma, "float4 block=3", "shares its pixels");

  r.method = SEPARABLE;         /* rank -1: does not split */
  assert_fallback (&avx512, &r, "vector nv=4 my=3", "more than 4 vector pairs");
}

/* A CPU with AVX2: 3 x 2 for every pixel size, and the split planes only when asked for. */
static void
test_avx2 (void)
{
  ClKernelRequest r = req (AUTO, 7, 4, 8);

  assert_fixed (&avx2, &r, "vector nv=3 my=2");
  assert_launch (&avx2, &r, 4096, 16, 1, 6, 2);
  r.passmask = 0x8;
  assert_candidates (&avx2, &r, "float4 block=8, vector nv=3 my=2, vector nv=4 my=1");
  r.split = 1;
  assert_fixed (&avx2, &r, "vector split nx=1 my=2");
  assert_candidates (&avx2, &r, "float4 block=8, vector nv=3 my=2, vector nv=4 my=1, "
      "vector split nx=1 my=2");
}

/* 4 KiB of local memory and 128 work-items: 8x8 work-groups; RGBA 7x7 at 2x4 fits only as raw
 * samples (22x38x4 = 3344 bytes), 15x15 only at 1x1 (22x22x4), 31x31 not at all (38x38x4 =
 * 5776): float4, and method=tiled says why. A kernel compiled for fewer than 64 work-items
 * cannot run a tile; the direct kernel's square work-group shrinks to 8x8. */
static void
test_small_local (void)
{
  ClKernelRequest r = req (AUTO, 7, 4, 8), mid = req (AUTO, 15, 4, 8);
  ClKernelRequest big = req (AUTO, 31, 4, 8);
  ClVariant v;
  ClLaunch l;

  assert_fixed (&small, &r, "tiled 2x4");
  assert_options (&small, &r, "-DKSIZE=7 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DTILE_W=8 -DTILE_H=8 -DTILE_MX=2 -DTILE_MY=4 -DTILE_FLOAT=0");
  assert_launch (&small, &r, 128, 8, 8, 2, 4);
  v = cl_variant_fixed (&small, &r, NULL);
  g_assert_false (cl_variant_launch (&small, &r, &v, 32, &l));

  assert_fixed (&small, &mid, "tiled 1x1");
  assert_candidates (&small, &mid, "tiled 1x1, float4 block=1, vector nv=1 my=1, "
      "vector nv=3 my=2");

  assert_fixed (&small, &big, "float4 block=1");
  assert_launch (&small, &big, 128, 8, 8, 1, 1);
  assert_candidates (&small, &big, "float4 block=1, vector nv=1 my=1, vector nv=3 my=2");
  big.method = TILED;
  assert_fallback (&small, &big, "float4 block=1", "15-pixel halo fits in 4096 bytes");
}

/* Every variant's program file and entry point. */
static void
test_sources (void)
{
  const struct
  {
    ClVariant v;
    ClKernelSource src;
    const gchar *entry;
  } cases[] = {
    {{FLOAT4, 8, 1, 0}, CL_SOURCE_DIRECT, "convolve_direct"},
    {{VECTOR, 4, 3, 0}, CL_SOURCE_VECTOR, "convolve_vector"},
    {{VECTOR, 1, 3, 1}, CL_SOURCE_VSPLIT, "convolve_vsplit"},
    {{TILED, 2, 4, 0}, CL_SOURCE_TILED, "convolve_tiled"},
    {{SEPARABLE, 0, 0, 0}, CL_SOURCE_SEPARABLE, "convolve_cols"},
    {{SEPARABLE, 4, 64, 0}, CL_SOURCE_VSEP, "convolve_vsep"},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_assert_cmpint (cl_variant_source (&cases[i].v), ==, cases[i].src);
    g_assert_cmpstr (cl_kernel_source_entry (cases[i].src), ==, cases[i].entry);
  }
}

/* The generic variant: one program per pixel shape (neither the matrix side nor the border in
 * its options), the float4 file's entry point, one pixel per work-item. */
static void
test_generic (void)
{
  ClKernelRequest a = req (FLOAT4, 7, 4, 8), b = req (VECTOR, 13, 4, 8);
  gchar *oa, *ob, *t = text (&cl_variant_generic);
  ClLaunch l;

  b.border = 2;
  oa = cl_variant_options (&avx512, &a, &cl_variant_generic);
  ob = cl_variant_options (&avx512, &b, &cl_variant_generic);
  g_assert_cmpstr (oa, ==, ob);
  g_assert_cmpstr (oa, ==, "-DGENERIC -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0");
  g_free (ob);
  b = req (FLOAT4, 7, 2, 16);
  b.only = 0;
  ob = cl_variant_options (&avx512, &b, &cl_variant_generic);
  g_assert_cmpstr (ob, ==, "-DGENERIC -DCHANNELS=2 -DDEPTH=16 -DSKIPMASK=0 -DONLY=0");
  g_free (ob);
  /* 10 bits in the high bits (P010 chroma); 16 of 16 needs nothing */
  b.bits = 10;
  b.shift = 6;
  ob = cl_variant_options (&avx512, &b, &cl_variant_generic);
  g_assert_cmpstr (ob, ==,
      "-DGENERIC -DCHANNELS=2 -DDEPTH=16 -DSKIPMASK=0 -DONLY=0 -DBITS=10 -DSHIFT=6");
  g_free (ob);
  b.bits = 16;
  b.shift = 0;
  ob = cl_variant_options (&avx512, &b, &cl_variant_generic);
  g_assert_cmpstr (ob, ==, "-DGENERIC -DCHANNELS=2 -DDEPTH=16 -DSKIPMASK=0 -DONLY=0");
  g_assert_cmpstr (t, ==, "generic");
  g_assert_cmpint (cl_variant_source (&cl_variant_generic), ==, CL_SOURCE_DIRECT);
  g_assert_true (cl_variant_launch (&avx512, &a, &cl_variant_generic, 4096, &l));
  g_assert_cmpint (l.px, ==, 1);
  g_assert_cmpint (l.py, ==, 1);
  g_assert_false (l.two_pass);
  g_free (oa);
  g_free (ob);
  g_free (t);
}

/* 3-byte pixels (RGB, BGR): the float8 kernels with 3 or 6 vectors per row (8 NV samples
 * whole pixels), on a GPU tiles whose float3 values take 16 bytes (13x13 at 2x4: a 76x44 tile
 * of 16-byte values, 53504 bytes, is over 48 KiB, so the tile holds raw 4-byte pixels).
 * Big-endian samples (GRAY16_BE): -DSWAP, method=vector but no one-pass separable. */
static void
test_rgb24_swap (void)
{
  ClKernelRequest rgb = req (AUTO, 7, 3, 8), be = req (AUTO, 7, 1, 16);
  ClKernelRequest rgb13 = req (AUTO, 13, 3, 8);

  be.swap = TRUE;
  assert_fixed (&avx2, &rgb, "vector nv=3 my=2");
  assert_fixed (&avx512, &be, "vector nv=3 my=2");
  assert_candidates (&avx512, &rgb, "float4 block=8, vector nv=3 my=2, vector nv=6 my=1");
  assert_candidates (&gpu, &rgb, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=3 my=1, vector nv=3 my=2");
  assert_launch (&avx2, &rgb, 4096, 16, 1, 8, 2);
  rgb.rank = be.rank = 1;
  assert_candidates (&avx2, &rgb, "float4 block=8, vector nv=3 my=2, vector nv=6 my=1, "
      "separable columns w=256 my=8, separable, separable nv=3 strip=64");
  assert_candidates (&avx2, &be, "float4 block=8, vector nv=3 my=2, vector nv=4 my=1, "
      "separable columns w=256 my=8, separable");
  assert_fixed (&avx2, &rgb, "separable columns w=256 my=8");
  assert_fixed (&avx2, &be, "separable columns w=256 my=8");
  /* 4 output rows at a time with 256-bit vectors or wider, in floats and in fixed point; one
   * with narrower ones */
  assert_options (&avx2, &rgb, "-DKSIZE=7 -DCHANNELS=3 -DDEPTH=8 -DSKIPMASK=0 "
      "-DCSEP_W=256 -DCSEP_MY=8 -DCSEP_G=4 -DPACKED_IO");
  assert_options (&sse, &rgb, "-DKSIZE=7 -DCHANNELS=3 -DDEPTH=8 -DSKIPMASK=0 "
      "-DCSEP_W=256 -DCSEP_MY=8 -DCSEP_G=1 -DPACKED_IO");
  rgb.unit = TRUE;
  assert_options (&sse, &rgb, "-DKSIZE=7 -DCHANNELS=3 -DDEPTH=8 -DSKIPMASK=0 "
      "-DCSEP_W=256 -DCSEP_MY=8 -DCSEP_G=4 -DCSEP_FX -DPACKED_IO");
  rgb.unit = FALSE;
  be.rank = -1;
  assert_options (&avx2, &be, "-DKSIZE=7 -DCHANNELS=1 -DDEPTH=16 -DSKIPMASK=0 "
      "-DSWAP -DNV=3 -DMY=2 -DPACKED_IO");
  assert_fixed (&gpu, &rgb13, "tiled 2x4");
  assert_options (&gpu, &rgb13, "-DKSIZE=13 -DCHANNELS=3 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DTILE_W=32 -DTILE_H=8 -DTILE_MX=2 -DTILE_MY=4 -DTILE_FLOAT=0");
  g_assert_cmpint (cl_variant_sum_values (3, -1), ==, 4);
  g_assert_cmpint (cl_variant_sum_values (3, 1), ==, 1);
  g_assert_cmpint (cl_variant_sum_values (2, -1), ==, 2);
}

/* The generic separable variant: the same options (its own program file), two passes of one
 * pixel per work-item; picked for matrices from 5x5 that split into at most size / 4 pairs. */
static void
test_generic_separable (void)
{
  const ClVariant *g = &cl_variant_generic_separable;
  ClKernelRequest r = req (FLOAT4, 9, 4, 8);
  gchar *o = cl_variant_options (&avx512, &r, g), *t = text (g);
  ClLaunch l;
  const struct
  {
    gint size, rank;
    gboolean two_pass;
  } rules[] = {
    {3, 0, FALSE}, {5, 1, TRUE}, {7, 1, TRUE}, {7, 2, FALSE}, {9, 2, TRUE}, {15, 3, TRUE},
    {15, 4, FALSE}, {63, 4, TRUE}, {9, -1, FALSE},
  };

  g_assert_cmpstr (o, ==, "-DGENERIC -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0");
  g_assert_cmpstr (t, ==, "generic separable");
  g_assert_cmpint (cl_variant_source (g), ==, CL_SOURCE_SEPARABLE);
  g_assert_true (cl_variant_launch (&gpu, &r, g, 1024, &l));
  g_assert_true (l.two_pass);
  g_assert_false (l.one_pass);
  g_assert_cmpint (l.px, ==, 1);
  g_assert_cmpint (l.py, ==, 1);
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++) {
    ClVariant v;

    r.size = rules[i].size;
    r.rank = rules[i].rank;
    v = cl_variant_generic_for (&r);
    g_assert_true (v.generic);
    g_assert_cmpint (v.method == SEPARABLE, ==, rules[i].two_pass);
  }
  g_free (o);
  g_free (t);
}

/* method=sparse: the taps field (non-zero coefficients rounded up to a multiple of the side,
 * none past CL_MAX_TAPS); on a CPU 4 float8 on 2 rows (6 for 3-sample pixels), on a GPU the
 * taps over method=tiled's tile and blocking (tiled.cl -DSPARSE), one float8 where no tile
 * fits; auto's rule (at most half the matrix, and no more than 2 rank size), the tuner's offer
 * (at most three quarters), the fallbacks to float4. */
static void
test_sparse (void)
{
  ClKernelRequest r = req (SPARSE, 31, 4, 8), rgb = req (SPARSE, 15, 3, 8);
  ClKernelRequest a = req (AUTO, 31, 4, 8);
  ClVariant v;

  g_assert_cmpint (cl_variant_taps (91, 31), ==, 93);
  g_assert_cmpint (cl_variant_taps (31, 31), ==, 31);
  g_assert_cmpint (cl_variant_taps (1, 63), ==, 63);
  g_assert_cmpint (cl_variant_taps (1000, 63), ==, 1008);
  g_assert_cmpint (cl_variant_taps (1020, 63), ==, CL_MAX_TAPS);
  g_assert_cmpint (cl_variant_taps (CL_MAX_TAPS + 1, 63), ==, 0);
  g_assert_cmpint (cl_variant_taps (0, 5), ==, 0);

  r.taps = 93;
  assert_fixed (&avx512, &r, "sparse nv=4 my=2");
  assert_options (&avx512, &r, "-DKSIZE=31 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DNV=4 -DMY=2 -DPACKED_IO");
  assert_launch (&avx512, &r, 4096, 16, 1, 8, 2);
  v = cl_variant_fixed (&avx512, &r, NULL);
  g_assert_cmpint (cl_variant_source (&v), ==, CL_SOURCE_SPARSE);
  g_assert_cmpstr (cl_kernel_source_entry (CL_SOURCE_SPARSE), ==, "convolve_sparse");
  rgb.taps = 45;
  assert_fixed (&avx2, &rgb, "sparse nv=6 my=2");
  assert_launch (&avx2, &rgb, 4096, 16, 1, 16, 2);

  assert_fixed (&gpu, &r, "sparse tiled 2x4");
  assert_options (&gpu, &r, "-DKSIZE=31 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DTILE_W=32 -DTILE_H=8 -DTILE_MX=2 -DTILE_MY=4 -DTILE_FLOAT=0 -DSPARSE");
  assert_launch (&gpu, &r, 1024, 32, 8, 2, 4);
  v = cl_variant_fixed (&gpu, &r, NULL);
  g_assert_cmpint (cl_variant_source (&v), ==, CL_SOURCE_TILED);
  /* 4 KiB of local memory: no tile of a 30-pixel halo */
  assert_fixed (&small, &r, "sparse nv=1 my=1");
  g_assert_true (cl_variant_sparse_tiles (&gpu, &r, &v));
  g_assert_false (cl_variant_sparse_tiles (&small, &r, &v));

  /* auto: motion blur 31 at 45 degrees (91 taps), at 0 (31, rank 1: against 62 of the
   * separable passes); size 5 at 45 degrees (13 of 25: more than half); a rank-1 matrix
   * with taps beyond 2 rank size */
  a.taps = 93;
  assert_fixed (&avx512, &a, "sparse nv=4 my=2");
  assert_fixed (&gpu, &a, "sparse tiled 2x4");
  a.taps = 31;
  a.rank = 1;
  assert_fixed (&avx512, &a, "sparse nv=4 my=2");
  a.taps = 93;
  assert_fixed (&avx512, &a, "separable columns w=256 my=8");
  a.size = 5;
  a.rank = -1;
  a.taps = 15;
  assert_fixed (&avx512, &a, "vector nv=4 my=3");
  assert_candidates (&avx512, &a, "float4 block=8, vector nv=3 my=2, vector nv=4 my=3, "
      "sparse nv=4 my=2");
  a.taps = 20;
  assert_candidates (&avx512, &a, "float4 block=8, vector nv=3 my=2, vector nv=4 my=3");

  /* fallbacks: a shared view (packed 4:2:2), too many taps */
  r.skipmask = 0x5;
  assert_fallback (&avx512, &r, "float4 block=8", "shares its pixels");
  r.skipmask = 0;
  r.taps = 0;
  assert_fallback (&gpu, &r, "float4 block=1", "more than 1024");
}

/* combine: float4, sparse and separable only. Sobel 3 magnitude: 8 taps of both matrices
 * (rounded to 9), 2 pairs; sobel 31: 2 pairs, separable from 9 on a GPU and 7 on a CPU. */
static void
test_combine (void)
{
  ClKernelRequest r = req (AUTO, 3, 4, 8), big = req (AUTO, 31, 1, 8);
  ClKernelRequest t = req (TILED, 3, 4, 8), dense = req (AUTO, 5, 4, 8);

  r.combine = big.combine = t.combine = 1;
  r.rank = big.rank = t.rank = 2;
  r.taps = t.taps = 9;
  big.taps = CL_MAX_TAPS;
  assert_fixed (&gpu, &r, "sparse tiled 2x4");
  assert_fixed (&avx512, &r, "sparse nv=4 my=2");
  assert_options (&avx512, &r, "-DKSIZE=3 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DCOMBINE=1 -DNV=4 -DMY=2 -DPACKED_IO");
  assert_fixed (&gpu, &big, "separable");
  assert_fixed (&avx2, &big, "separable nv=4 strip=64");
  /* a method that cannot combine: what auto picks, with a warning */
  assert_fallback (&gpu, &t, "sparse tiled 2x4", "cannot combine");
  t.method = VECTOR;
  assert_fallback (&avx2, &t, "sparse nv=4 my=2", "cannot combine");
  /* no split and too many taps (a dense 5x5 pair, taps 0): float4 */
  dense.combine = 3;
  assert_fixed (&avx2, &dense, "float4 block=8");
  /* abs: one matrix, the same rule */
  dense.combine = 2;
  dense.taps = 25;
  assert_fixed (&gpu, &dense, "sparse tiled 2x4");
  /* the tuner: what computes the combination, nothing else */
  assert_candidates (&gpu, &r, "float4 block=1, separable, sparse tiled 2x4");
  assert_candidates (&avx512, &r, "float4 block=8, separable, separable nv=4 strip=64, "
      "separable nv=4 strip=128, sparse nv=4 my=2");
}

/* A box (every coefficient equal): running sums on CPU-like devices working in place, at any
 * size, layout and split, and on GPUs in work-groups of 64 (also on the discrete path: bands of
 * whole strips); not on a CPU's discrete path, or combined with a second matrix. */
static void
test_box (void)
{
  ClKernelRequest r = req (AUTO, 63, 4, 8), gray = req (SEPARABLE, 3, 1, 16);
  ClVariant v;
  ClLaunch l;

  r.rank = gray.rank = 1;
  r.box = gray.box = TRUE;
  r.passmask = 8;
  assert_fixed (&avx512, &r, "separable box w=256 strip=128");
  assert_fixed (&avx2, &gray, "separable box w=256 strip=128");
  gray.skipmask = 2;
  gray.swap = TRUE;
  assert_fixed (&avx2, &gray, "separable box w=256 strip=128");
  v = cl_variant_fixed (&avx512, &r, NULL);
  g_assert_cmpint (cl_variant_source (&v), ==, CL_SOURCE_BOX);
  g_assert_cmpstr (cl_kernel_source_entry (cl_variant_source (&v)), ==, "convolve_box");
  g_assert_true (cl_variant_launch (&avx512, &r, &v, 4096, &l));
  g_assert_true (l.one_pass);
  g_assert_false (l.two_pass);
  g_assert_cmpint (l.px, ==, 256);
  g_assert_cmpint (l.py, ==, 128);
  g_assert_cmpint (l.local[0], ==, 1);
  /* 16-bit sums where every window's sum fits: 8-bit samples up to size 15 */
  for (gint i = 0; i < 3; i++) {
    static const gint sizes[] = { 15, 17, 63 };
    gchar *want = g_strdup_printf ("-DKSIZE=%d -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
        "-DBOX_W=256 -DSTRIP=128%s -DPACKED_IO", sizes[i], sizes[i] <= 15 ? " -DBOX_SUM16" : "");

    r.size = sizes[i];
    assert_options (&avx512, &r, want);
    g_free (want);
  }
  assert_candidates (&avx512, &r, "float4 block=8, vector nv=3 my=2, vector nv=4 my=3, "
      "vector split nx=1 my=2, separable box w=256 strip=128, separable columns w=256 my=8, "
      "separable");
  /* where the running sums do not run: the other separable kernels */
  r.discrete = TRUE;
  assert_fixed (&avx512, &r, "separable columns w=256 my=8");
  assert_fixed (&gpu, &r, "separable box w=2 strip=16");
  r.discrete = FALSE;
  assert_fixed (&gpu, &r, "separable box w=2 strip=16");
  v = cl_variant_fixed (&gpu, &r, NULL);
  g_assert_cmpstr (cl_kernel_source_entry (cl_variant_source (&v)), ==, "convolve_box");
  g_assert_true (cl_variant_launch (&gpu, &r, &v, 1024, &l));
  g_assert_true (l.one_pass);
  g_assert_cmpint (l.local[0], ==, 64);
  g_assert_cmpint (l.local[1], ==, 1);
  g_assert_cmpint (l.px, ==, 2);
  g_assert_cmpint (l.py, ==, 16);
  g_assert_false (cl_variant_launch (&gpu, &r, &v, 32, &l));
  assert_options (&gpu, &r, "-DKSIZE=63 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=0 "
      "-DGBOX_TW=64 -DGBOX_MX=2 -DSTRIP=16");
  /* GST_CLCONVOLVE_GBOX_ROWS: rows a row pass where local memory holds them (at 63, 190
   * column sums and a spare slot every segment, 16 bytes each: 8 rows 25,856 bytes, 16 rows
   * 50,176, over the 48 KiB) */
  {
    /* the rows asked, the size, the rows the options give */
    const gint rows[][3] = { {8, 63, 8}, {16, 63, 8}, {16, 15, 16} };

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
      ClDeviceFacts f = gpu;
      gchar *want = g_strdup_printf ("-DKSIZE=%d -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
          "-DBORDER=0 -DGBOX_TW=64 -DGBOX_MX=2 -DSTRIP=16 -DGBOX_RB=%d", rows[i][1], rows[i][2]);

      f.gbox_rows = rows[i][0];
      r.size = rows[i][1];
      assert_options (&f, &r, want);
      g_free (want);
    }
    r.size = 63;
  }
  /* its candidates: the running sums in lsep's place, strips of 64 too from size 15 */
  assert_candidates (&gpu, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable box w=2 strip=16, "
      "separable box w=2 strip=64, separable");
  r.size = 7;
  assert_candidates (&gpu, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable box w=2 strip=16, separable");
  r.size = 63;
  r.box = FALSE;
  assert_fixed (&gpu, &r, "separable local mx=4 ty=8");
  assert_fixed (&avx512, &r, "separable columns w=256 my=8");
  r.box = TRUE;
  r.combine = GST_CL_CONVOLVE_COMBINE_MAGNITUDE;
  r.rank = 2;
  assert_fixed (&avx512, &r, "separable");
}

/* Tensor cores: tsep is timed beside lsep (and the box's running sums) for 8-bit blurs of
 * one pair from 17 up to 63, 64 columns a work-group where its planes fit in local memory, else 32:
 * per plane 16 rows of the columns and halo as f16 pairs (8 (64 / 16 + T - 1) + 4 words a
 * row), and the ring of T blocks of 16 rows, hi and lo (T = (size + 14) / 16 + 1, 8 T + 4
 * words a column). RGBA with alpha copied at 15 (T = 2): 3 x 4 x (16 x 44 + 2 x 64 x 20) =
 * 39,168 bytes; at 63 (T = 5) 64 columns take 80,640, 32 columns 43,776; every sample
 * computed at 63: 58,368 with 32 columns, none fits. */
static void
test_tensor (void)
{
  ClKernelRequest r = req (AUTO, 15, 4, 8);
  ClDeviceFacts tensor2 = tensor;
  ClVariant v;
  ClLaunch l;

  r.rank = 1;
  r.unit = TRUE;
  r.passmask = 8;
  /* the tuner times it from TSEP_TUNE_FROM (17), at every size where the variable forces it */
  assert_candidates (&tensor, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable local mx=2 ty=8, separable");
  tensor2.tensor_mma = 2;
  assert_candidates (&tensor2, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable local mx=2 ty=8, "
      "separable tensor w=64 h=128, separable");
  r.size = 17;
  g_assert_true (strstr (candidates_text (&tensor, &r), "separable tensor w=64 h=128"));
  r.size = 15;
  /* not where the device has none */
  assert_candidates (&gpu, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable local mx=2 ty=8, separable");
  v = (ClVariant) { SEPARABLE, 64, 128, CL_SEPARABLE_TENSOR };
  g_assert_cmpstr (cl_kernel_source_entry (cl_variant_source (&v)), ==, "convolve_tsep");
  assert_options_of (&tensor, &r, &v, "-DKSIZE=15 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DBORDER=0 -DTSEP_TW=64 -DTSEP_SH=128 -DTSEP_NW=8 -DTSEP_RGB");
  /* 8 warps of 32 over 64 columns and 128 rows: 2 pixels and 16 rows a work-item */
  assert_launch_of (&tensor, &r, &v, 1024, 32, 8, 2, 16);
  /* the fixed rules: lsep below TSEP_FROM (31), tsep from it; at every size with
   * GST_CLCONVOLVE_TENSOR=2 (tensor_mma 2); not where the variable turned it off (0) */
  assert_fixed (&tensor, &r, "separable local mx=2 ty=8");
  tensor2.tensor_mma = 2;
  assert_fixed (&tensor2, &r, "separable tensor w=64 h=128");
  r.size = 31;
  assert_fixed (&tensor, &r, "separable tensor w=32 h=128");
  tensor2.tensor_mma = 0;
  assert_fixed (&tensor2, &r, "separable local mx=4 ty=8");
  r.box = TRUE;
  assert_fixed (&tensor, &r, "separable box w=2 strip=16");
  r.box = FALSE;
  r.size = 15;
  g_assert_true (cl_variant_launch (&tensor, &r, &v, 1024, &l));
  g_assert_true (l.one_pass);
  g_assert_false (cl_variant_launch (&tensor, &r, &v, 128, &l));
  /* 63: 32 columns with alpha copied (4 warps: 1 pixel and 32 rows a work-item), none with
   * every sample computed */
  r.size = 63;
  v = (ClVariant) { SEPARABLE, 32, 128, CL_SEPARABLE_TENSOR };
  assert_options_of (&tensor, &r, &v, "-DKSIZE=63 -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 "
      "-DBORDER=0 -DTSEP_TW=32 -DTSEP_SH=128 -DTSEP_NW=4 -DTSEP_RGB");
  assert_launch_of (&tensor, &r, &v, 1024, 32, 4, 1, 32);
  assert_candidates (&tensor, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable local mx=4 ty=8, "
      "separable tensor w=32 h=128, separable");
  r.passmask = 0;
  assert_candidates (&tensor, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable local mx=4 ty=8, separable");
  r.passmask = 8;
  /* a box: beside the running sums */
  r.size = 31;
  r.box = TRUE;
  assert_candidates (&tensor, &r, "tiled 2x4, tiled 1x4, tiled 1x1, float4 block=1, "
      "vector nv=1 my=1, vector nv=3 my=2, separable box w=2 strip=16, "
      "separable box w=2 strip=64, separable tensor w=32 h=128, separable");
  r.box = FALSE;
  /* not for 16-bit samples, a matrix that is no blur, two pairs, a combination, or past 63 */
  r.depth = 16;
  g_assert_false (strstr (candidates_text (&tensor, &r), "tensor"));
  r.depth = 8;
  r.unit = FALSE;
  g_assert_false (strstr (candidates_text (&tensor, &r), "tensor"));
  r.unit = TRUE;
  r.rank = 2;
  g_assert_false (strstr (candidates_text (&tensor, &r), "tensor"));
  r.rank = 1;
  r.size = 65;
  g_assert_false (strstr (candidates_text (&tensor, &r), "tensor"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/variants/gpu", test_gpu);
  g_test_add_func ("/variants/avx512", test_avx512);
  g_test_add_func ("/variants/avx2", test_avx2);
  g_test_add_func ("/variants/small-local", test_small_local);
  g_test_add_func ("/variants/sources", test_sources);
  g_test_add_func ("/variants/generic", test_generic);
  g_test_add_func ("/variants/generic-separable", test_generic_separable);
  g_test_add_func ("/variants/rgb24-swap", test_rgb24_swap);
  g_test_add_func ("/variants/sparse", test_sparse);
  g_test_add_func ("/variants/combine", test_combine);
  g_test_add_func ("/variants/box", test_box);
  g_test_add_func ("/variants/tensor", test_tensor);
  return g_test_run ();
}
