/* clconvolve: element tests against the plain-C reference
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Every output frame is compared pixel by pixel with tests/reference.c (double precision, written
 * apart from the OpenCL path). Tolerance: 1 LSB (the device sums in float). */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/app/gstappsrc.h>
#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/controller/gsttriggercontrolsource.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <errno.h>
#include <malloc.h>
#include <sys/mman.h>
#endif

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "common.h"
#include "convkernel.h"
#include "reference.h"

typedef struct
{
  const gchar *name;
  gint channels;
  guint passmask;               /* bytes that must come out unchanged (alpha, padding) */
} Format;

static const Format formats[] = {
  {"RGBA", 4, 0x8}, {"BGRA", 4, 0x8}, {"ARGB", 4, 0x1}, {"ABGR", 4, 0x1},
  {"RGBx", 4, 0x8}, {"BGRx", 4, 0x8}, {"xRGB", 4, 0x1}, {"xBGR", 4, 0x1},
  {"GRAY8", 1, 0x0},
};

/* formats of which the helpers below see the first plane alone (no padding through pad): NV12's
 * luma, which planes=auto filters (test_live_changes checks its chroma) */
static const Format luma_formats[] = {
  {"NV12", 1, 0x0},
};


static const gchar *methods[] = { "auto", "float4", "tiled", "separable", "vector" };
static const gint preset_sizes[] = { 1, 3, 5, 7, 15, 31, 63 };

typedef struct
{
  const gchar *format;
  gint width, height;
  const gchar *kernel;          /* preset nick, or NULL for the matrix below */
  gint size;
  const gdouble *matrix;        /* size x size custom coefficients when kernel is NULL */
  gint mw, mh;                  /* or mw x mh of them (rows of mw), when mw is not 0 */
  gdouble divisor, bias, angle, sigma, amount;
  const gchar *border, *method;
  gint pad;                     /* extra bytes per input row, through GstVideoMeta */
  gboolean tune;                /* autotune: off unless a test sets it, see apply_case */
} Case;

#define CASE_DEFAULTS .format = "RGBA", .width = 37, .height = 29, .kernel = "gaussian", \
    .size = 5, .angle = 45.0, .amount = 1.0, .border = "clamp", .method = "auto"

static const Format *
find_format (const gchar * name)
{
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (!strcmp (formats[i].name, name))
      return &formats[i];
  for (guint i = 0; i < G_N_ELEMENTS (luma_formats); i++)
    if (!strcmp (luma_formats[i].name, name))
      return &luma_formats[i];
  g_assert_not_reached ();
  return NULL;
}


static gchar *
describe (const Case * c)
{
  return g_strdup_printf ("%s %dx%d pad=%d kernel=%s size=%d matrix %dx%d divisor=%g bias=%g "
      "angle=%g sigma=%g border=%s method=%s", c->format, c->width, c->height, c->pad,
      c->kernel ? c->kernel : "custom", c->size, c->mw, c->mh, c->divisor, c->bias, c->angle,
      c->sigma, c->border, c->method);
}

static void
apply_case (GstElement * e, const Case * c)
{
  if (c->kernel) {
    gst_util_set_object_arg (G_OBJECT (e), "kernel", c->kernel);
    g_object_set (e, "size", c->size, NULL);
  } else {
    gchar *m = c->mw ? matrix_string_rect (c->matrix, c->mw, c->mh, ";\n") :
        matrix_string (c->matrix, c->size, ";\n");
    g_object_set (e, "matrix", m, NULL);
    g_free (m);
  }
  g_object_set (e, "divisor", c->divisor, "bias", c->bias, "angle", c->angle,
      "sigma", c->sigma, "amount", c->amount, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "border", c->border);
  gst_util_set_object_arg (G_OBJECT (e), "method", c->method);
  /* method=auto runs the fixed rules' variant here unless a test asks for tuning, which
   * builds every candidate program; the tune suite checks the tuned variants' frames against
   * the reference, and the explicit methods run each variant */
  g_object_set (e, "autotune", c->tune, NULL);
}

static gchar *
caps_string (const Case * c)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,framerate=30/1",
      c->format, c->width, c->height);
}

static GstHarness *
harness_for (const Case * c)
{
  GstHarness *h = gst_harness_new ("clconvolve");
  gchar *caps = caps_string (c);

  apply_case (h->element, c);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  g_free (caps);
  return h;
}

/* Random frame; the visible pixels are also returned tightly packed in *pixels. */
static GstBuffer *
make_input (const Case * c, guint32 seed, GstClockTime pts, guint8 ** pixels)
{
  const Format *f = find_format (c->format);
  GstVideoInfo info;
  gint row = c->width * f->channels, stride;
  gsize offset = c->pad ? 64 : 0, size;
  GstBuffer *buf;

  /* without a GstVideoMeta the buffer has GStreamer's default layout (GRAY8 rows are padded
   * to 4 bytes); with one, rows are `pad` bytes longer and the plane starts at byte 64 */
  fail_unless (gst_video_info_set_format (&info, gst_video_format_from_string (c->format),
          c->width, c->height));
  stride = c->pad ? row + c->pad : GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  size = c->pad ? offset + (gsize) stride * c->height : GST_VIDEO_INFO_SIZE (&info);
  buf = gst_buffer_new_allocate (NULL, size, NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < size; i++)
    map.data[i] = g_rand_int_range (rand, 0, 256);
  *pixels = g_malloc ((gsize) row * c->height);
  for (gint y = 0; y < c->height; y++)
    memcpy (*pixels + (gsize) y * row, map.data + offset + (gsize) y * stride, row);
  gst_buffer_unmap (buf, &map);
  g_rand_free (rand);

  if (c->pad) {
    gsize offsets[GST_VIDEO_MAX_PLANES] = { offset };
    gint strides[GST_VIDEO_MAX_PLANES] = { stride };

    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
        gst_video_format_from_string (c->format), c->width, c->height, 1, offsets, strides);
  }
  GST_BUFFER_PTS (buf) = pts;
  return buf;
}

/* The coefficients and divisor the element is expected to apply; *w x *h of them. */
static void
case_coefficients (const Case * c, gdouble * k, gdouble * divisor, gint * w, gint * h)
{
  *w = *h = c->size;
  if (c->mw) {
    gdouble sum = 0.0;

    *w = c->mw;
    *h = c->mh;
    memcpy (k, c->matrix, sizeof (gdouble) * c->mw * c->mh);
    for (gint i = 0; i < c->mw * c->mh; i++)
      sum += k[i];
    *divisor = c->divisor != 0.0 ? c->divisor : fabs (sum) < 1e-9 ? 1.0 : sum;
    return;
  }
  if (c->kernel && !strcmp (c->kernel, "unsharp")) {
    /* in + amount (in - gaussian): the gaussian preset's matrix, scaled, and the centre */
    conv_preset_generate (CONV_PRESET_GAUSSIAN, c->size, c->sigma, 0.0, k);
    for (gint i = 0; i < c->size * c->size; i++)
      k[i] = (i == c->size * c->size / 2 ? 1.0 + c->amount : 0.0) - c->amount * k[i];
  } else if (c->kernel)
    conv_preset_generate (preset_from_nick (c->kernel), c->size, c->sigma, c->angle, k);
  else
    memcpy (k, c->matrix, sizeof (gdouble) * c->size * c->size);
  *divisor = c->divisor != 0.0 ? c->divisor : conv_auto_divisor (k, c->size);
}

/* The expected plane (tight) and, in ties (if not NULL), 1 for the samples whose exact value
 * lies within TIE_MARGIN of a rounding tie. */
static void
reference (const Case * c, const guint8 * in, guint8 * out, guint8 * ties)
{
  const Format *f = find_format (c->format);
  gdouble *k = g_new (gdouble, CONV_MAX_SIZE * CONV_MAX_SIZE), divisor;
  gint kw, kh;
  gint row = c->width * f->channels;
  gsize bytes = (gsize) row * c->height;
  RefBorder border = border_from_nick (c->border);

  case_coefficients (c, k, &divisor, &kw, &kh);
  if (ties) {
    guint8 *lo = g_malloc (bytes);
    void *dst[3] = { lo, out, ties };
    const gdouble bias[3] = { c->bias - TIE_MARGIN, c->bias, c->bias + TIE_MARGIN };

    ref_convolve_biases (in, row, dst, row, c->width, c->height, f->channels, f->passmask, k,
        NULL, kw, kh, divisor, bias, border, REF_COMBINE_NONE, 1);
    for (gsize i = 0; i < bytes; i++)
      ties[i] = ties[i] != lo[i];
    g_free (lo);
  } else {
    ref_convolve_rect_u8 (in, row, out, row, c->width, c->height, f->channels, f->passmask, k,
        kw, kh, divisor, c->bias, border);
  }
  g_free (k);
}

/* Largest difference between an output buffer and the expected tight plane; *where gets the
 * first pixel above the tolerance. */
static gint
max_difference (const Case * c, GstBuffer * out, const guint8 * expect, const guint8 * ties,
    gchar ** where)
{
  const Format *f = find_format (c->format);
  GstVideoInfo info;
  GstVideoFrame frame;
  gint row = c->width * f->channels, worst = 0;

  fail_unless (gst_video_info_set_format (&info, gst_video_format_from_string (c->format),
          c->width, c->height));
  guint off = 0;

  fail_unless (gst_video_frame_map (&frame, &info, out, GST_MAP_READ));
  *where = NULL;
  for (gint y = 0; y < c->height; y++) {
    const guint8 *o = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, 0) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);
    for (gint x = 0; x < row; x++) {
      gint d = abs ((gint) o[x] - (gint) expect[(gsize) y * row + x]);
      if (d > TOLERANCE && !*where)
        *where = g_strdup_printf ("pixel (%d,%d) sample %d: got %u, reference %u",
            x / f->channels, y, x % f->channels, o[x], expect[(gsize) y * row + x]);
      worst = MAX (worst, d);
      off += d != 0 && !ties[(gsize) y * row + x];
    }
  }
  gst_video_frame_unmap (&frame);
  if (worst <= TOLERANCE && !off_away_from_ties_allowed (off, (gsize) row * c->height)) {
    *where = g_strdup_printf ("%u of %d samples away from rounding ties off by 1 "
        "(a systematic error)", off, row * c->height);
    worst = TOLERANCE + 1;
  }
  return worst;
}

/* Pushes one random frame stamped pts through h and checks the output against the reference
 * for c. */
static void
check_frame_at (GstHarness * h, const Case * c, guint32 seed, GstClockTime pts)
{
  const Format *f = find_format (c->format);
  gsize bytes = (gsize) c->width * f->channels * c->height;
  guint8 *in, *expect = g_malloc (bytes), *ties = g_malloc (bytes);
  GstBuffer *out = gst_harness_push_and_pull (h, make_input (c, seed, pts, &in));
  gchar *where = NULL, *what = describe (c);
  gint worst;

  fail_unless (out != NULL, "no output buffer for %s", what);
  reference (c, in, expect, ties);
  worst = max_difference (c, out, expect, ties, &where);
  fail_unless (worst <= TOLERANCE, "%s: off by %d (> %d LSB) at %s", what, worst, TOLERANCE,
      where);
  GST_DEBUG ("%s: max difference %d", what, worst);
  gst_buffer_unref (out);
  g_free (where);
  g_free (what);
  g_free (in);
  g_free (expect);
  g_free (ties);
}

static void
check_frame (GstHarness * h, const Case * c, guint32 seed)
{
  check_frame_at (h, c, seed, 0);
}

static void
run_case (const Case * c)
{
  GstHarness *h = harness_for (c);

  check_frame (h, c, 1234 + c->size);
  gst_harness_teardown (h);
}

static gdouble *
random_matrix (gint n, guint32 seed, gdouble lo, gdouble hi)
{
  GRand *rand = g_rand_new_with_seed (seed);
  gdouble *k = g_new (gdouble, n * n);

  for (gint i = 0; i < n * n; i++)
    k[i] = g_rand_double_range (rand, lo, hi);
  g_rand_free (rand);
  return k;
}

static gdouble
abs_sum (const gdouble * k, gint n)
{
  gdouble s = 0.0;

  for (gint i = 0; i < n * n; i++)
    s += fabs (k[i]);
  return s;
}

/* ------------------------------------------------------------------------------------------ */

GST_START_TEST (test_device_available)
{
  GError *err = NULL;
  gchar *debug = NULL;
  gboolean ok = run_one_frame_pipeline ("clconvolve", &err, &debug);

  fail_unless (ok, "%s. The element said: %s", NO_DEVICE_HINT, err ? err->message : "nothing");
}

GST_END_TEST;

/* every preset at every size of the issue, through the default method */
GST_START_TEST (test_presets)
{
  const gchar *nick = preset_table[__i__].nick;
  gboolean signed_response = !strcmp (nick, "edge") || !strncmp (nick, "sobel", 5);

  for (guint s = 0; s < G_N_ELEMENTS (preset_sizes); s++) {
    Case c = { CASE_DEFAULTS, .kernel = nick, .size = preset_sizes[s],
      .bias = signed_response ? 128.0 : 0.0, .angle = 30.0 + 20.0 * s
    };
    run_case (&c);
  }
}

GST_END_TEST;

/* kernel=unsharp (not in preset_table: these cases cover it) with amounts and sigmas of its
 * own. Sizes 3 and 5 through method=auto with border=clamp run the programs test_presets
 * builds (coefficients are data), so these cases add no build to the suite. */
GST_START_TEST (test_unsharp)
{
  const struct
  {
    gint size;
    gdouble amount, sigma;
  } cases[] = {
    {5, 0.5, 0.0}, {5, 4.0, 1.2}, {3, -1.0, 2.0}, {5, 20.0, 0.0},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    Case c = { CASE_DEFAULTS, .kernel = "unsharp", .size = cases[i].size,
      .amount = cases[i].amount, .sigma = cases[i].sigma
    };
    run_case (&c);
  }
}

GST_END_TEST;

/* rectangular matrices (rows of one odd length): every method and border, the reference
 * taking the w x h matrix as written; the getters give the shape back */
GST_START_TEST (test_rectangular)
{
  const struct
  {
    gint w, h;
    const gchar *method, *border;
    gboolean signed_response;
  } cases[] = {
    {7, 1, "sparse", "mirror", FALSE}, {1, 7, "float4", "wrap", FALSE},
    {5, 3, "vector", "constant", TRUE}, {3, 5, "tiled", "clamp", FALSE},
    {9, 1, "separable", "mirror", FALSE}, {1, 5, "auto", "constant", TRUE},
    {7, 3, "auto", "wrap", FALSE},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gint w = cases[i].w, h = cases[i].h, n = MAX (w, h), size;
    gdouble *k = cases[i].signed_response ? random_matrix (n, 77 + i, -1.0, 1.0) :
        random_matrix (n, 77 + i, 0.1, 1.0);
    Case c = { CASE_DEFAULTS, .kernel = NULL, .matrix = k, .size = n, .mw = w, .mh = h,
      .method = cases[i].method, .border = cases[i].border,
      .bias = cases[i].signed_response ? 128.0 : 0.0,
      .divisor = cases[i].signed_response ? 2.0 : 0.0
    };
    GstHarness *hr = harness_for (&c);
    gchar *text = NULL;
    gdouble *back = g_new (gdouble, CONV_MAX_SIZE * CONV_MAX_SIZE);
    gint bw = 0, bh = 0;
    gchar err[256];

    check_frame (hr, &c, 1234 + i);
    g_object_get (hr->element, "matrix", &text, "size", &size, NULL);
    fail_unless_equals_int (size, n);
    /* the getter's text parses to the same shape and values (it writes its own syntax) */
    fail_unless (conv_matrix_parse_shape (text, back, &bw, &bh, err, sizeof err) == n,
        "matrix getter \"%s\": %s", text, err);
    fail_unless (bw == w && bh == h, "matrix getter \"%s\" reads as %dx%d, set %dx%d", text,
        bw, bh, w, h);
    gst_harness_teardown (hr);
    g_free (back);
    g_free (text);
    g_free (k);
  }
}

GST_END_TEST;

GST_START_TEST (test_gaussian_sigma)
{
  const gdouble sigmas[] = { 0.3, 1.0, 2.5, 9.0 };

  for (guint i = 0; i < G_N_ELEMENTS (sigmas); i++) {
    Case c = { CASE_DEFAULTS, .size = 9, .sigma = sigmas[i] };
    run_case (&c);
  }
}

GST_END_TEST;

/* method=tiled on a CPU (suite_tiled_everywhere: every shape on a GPU): test_custom_random runs
 * it at sizes 3 (its loops unrolled, as up to 15) and 31 (rolled, as 63), test_borders at one size
 * per border (clamp 3, mirror 7, wrap 31, constant 3); the sizes and borders of the other
 * tests (test_method_used, test_frame_sizes, test_two_elements, test_live_changes) remain. */
static gboolean
tiled_size_checked (const gchar * method, gint size)
{
  return strcmp (method, "tiled") || size == 3 || size == 31 || suite_tiled_everywhere ();
}

/* random dense matrices, each method, explicit and automatic divisor (tiled: see above) */
GST_START_TEST (test_custom_random)
{
  const gint sizes[] = { 1, 3, 5, 9, 15, 31, 63 };

  for (guint m = 1; m < G_N_ELEMENTS (methods); m++) {
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
      gint n = sizes[i];

      if (!tiled_size_checked (methods[m], n))
        continue;
      gdouble *k = random_matrix (n, 77 + n, -1.0, 1.0);
      gdouble *pos = random_matrix (n, 99 + n, 0.0, 1.0);
      Case signed_k = { CASE_DEFAULTS, .kernel = NULL, .size = n, .matrix = k,
        .divisor = abs_sum (k, n) / 3.0, .bias = 100.0, .method = methods[m]
      };
      Case auto_divisor = { CASE_DEFAULTS, .kernel = NULL, .size = n, .matrix = pos,
        .method = methods[m], .width = 23, .height = 18
      };

      run_case (&signed_k);
      run_case (&auto_divisor);
      g_free (k);
      g_free (pos);
    }
  }
}

GST_END_TEST;

/* each border mode, each method, on frames larger and smaller than the kernel; method=tiled
 * at one of the sizes per border (see tiled_size_checked) */
GST_START_TEST (test_borders)
{
  const gint sizes[] = { 3, 7, 31 };
  const gint dims[][2] = { {17, 13}, {5, 4}, {1, 1}, {2, 9} };

  for (guint m = 1; m < G_N_ELEMENTS (methods); m++) {
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++) {
      gdouble *k;

      if (!strcmp (methods[m], "tiled") && s != __i__ % G_N_ELEMENTS (sizes) &&
          !suite_tiled_everywhere ())
        continue;
      k = random_matrix (sizes[s], 5 + s, 0.0, 1.0);

      for (guint d = 0; d < G_N_ELEMENTS (dims); d++) {
        Case c = { CASE_DEFAULTS, .kernel = NULL, .matrix = k, .size = sizes[s],
          .width = dims[d][0], .height = dims[d][1], .border = border_names[__i__],
          .method = methods[m]
        };
        run_case (&c);
      }
      g_free (k);
    }
  }
}

GST_END_TEST;

/* each format, each method, tight and padded strides: alpha/padding bytes must pass through */
GST_START_TEST (test_formats)
{
  const Format *f = &formats[__i__];
  gdouble *k = random_matrix (5, 11, -0.5, 1.0);

  for (guint m = 1; m < G_N_ELEMENTS (methods); m++) {
    for (gint pad = 0; pad <= 12; pad += 12) {
      Case c = { CASE_DEFAULTS, .format = f->name, .kernel = NULL, .matrix = k, .size = 5,
        .divisor = abs_sum (k, 5) / 2.0, .bias = 40.0, .border = "mirror",
        .method = methods[m], .pad = pad + (f->channels == 1 ? 3 : 0)
      };
      Case preset = { CASE_DEFAULTS, .format = f->name, .kernel = "motionblur", .size = 7,
        .method = methods[m], .pad = pad
      };
      run_case (&c);
      run_case (&preset);
    }
  }
  g_free (k);
}

GST_END_TEST;

GST_START_TEST (test_frame_sizes)
{
  const gint dims[][2] = { {1, 1}, {2, 1}, {1, 3}, {5, 4}, {17, 13}, {16, 16}, {641, 479} };

  for (guint m = 1; m < G_N_ELEMENTS (methods); m++) {
    for (guint d = 0; d < G_N_ELEMENTS (dims); d++) {
      Case c = { CASE_DEFAULTS, .width = dims[d][0], .height = dims[d][1],
        .method = methods[m], .border = "mirror"
      };
      run_case (&c);
    }
    {
      Case tiny = { CASE_DEFAULTS, .width = 1, .height = 1, .size = 63, .method = methods[m],
        .border = "wrap"
      };
      run_case (&tiny);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_padded_strides)
{
  for (guint m = 1; m < G_N_ELEMENTS (methods); m++) {
    Case rgba = { CASE_DEFAULTS, .width = 17, .height = 13, .pad = 28, .method = methods[m],
      .kernel = "sharpen", .size = 3
    };
    Case gray = { CASE_DEFAULTS, .format = "GRAY8", .width = 19, .height = 11, .pad = 5,
      .method = methods[m], .kernel = "box", .size = 7
    };
    run_case (&rgba);
    run_case (&gray);
  }
}

GST_END_TEST;

/* The stats' "variant" of h's element (the first pixel shape's kernel variant). */
static gchar *
element_variant (GstHarness * h)
{
  GstStructure *st = NULL;
  gchar *v;

  g_object_get (h->element, "stats", &st, NULL);
  fail_unless (st != NULL && gst_structure_get_string (st, "variant") != NULL, "%s",
      struct_text (st));
  v = g_strdup (gst_structure_get_string (st, "variant"));
  gst_structure_free (st);
  return v;
}

/* 7x7 as the sum of two outer products a b^T of different, non-proportional pairs: exactly
 * rank 2, so method=separable runs two vector pairs (a row and a column pass each) */
static gdouble *
rank2_matrix (void)
{
  const gdouble a1[7] = { 1, 2, 3, 4, 3, 2, 1 }, b1[7] = { 1, 1, 2, 3, 2, 1, 1 };
  const gdouble a2[7] = { 1, -1, 0, 2, 0, -1.5, 1 }, b2[7] = { 0, 1, -2, 1, 3, -1, 2 };
  gdouble *k = g_new (gdouble, 49);

  for (gint j = 0; j < 7; j++)
    for (gint i = 0; i < 7; i++)
      k[j * 7 + i] = a1[j] * b1[i] + a2[j] * b2[i];
  return k;
}

/* low-rank and full-rank custom matrices on each method that handles them: the output is the
 * reference's, and the variant that ran is the one asked for (separable, in one pass or two,
 * only where the matrix splits: the full-rank one falls back to a dense kernel; vector and
 * float4 as asked, RGBA and GRAY8 sharing no pixels between views) */
GST_START_TEST (test_low_rank)
{
  const gchar *fmts[] = { "RGBA", "GRAY8" };
  const gchar *meths[] = { "auto", "vector", "separable", "float4" };
  const gint dims[][2] = { {37, 29}, {61, 23} };
  gdouble *low = rank2_matrix (), *full = random_matrix (7, 4711, -1.0, 1.0);

  for (guint f = 0; f < G_N_ELEMENTS (fmts); f++) {
    for (guint m = 0; m < G_N_ELEMENTS (meths); m++) {
      for (gint r = 0; r < 2; r++) {
        for (guint d = 0; d < G_N_ELEMENTS (dims); d++) {
          Case c = { CASE_DEFAULTS, .format = fmts[f], .kernel = NULL, .size = 7,
            .matrix = r ? full : low, .divisor = r ? abs_sum (full, 7) / 3.0 : 0.0,
            .bias = r ? 128.0 : 0.0, .method = meths[m], .border = border_names[(m + d) % 4],
            .width = dims[d][0], .height = dims[d][1]
          };
          GstHarness *h = harness_for (&c);
          gchar *variant, *what = describe (&c);

          check_frame (h, &c, 300 + 10 * m + d);
          check_frame (h, &c, 301 + 10 * m + d);
          variant = element_variant (h);
          if (!strcmp (meths[m], "separable"))
            fail_unless (r ? !g_str_has_prefix (variant, "separable") :
                g_str_has_prefix (variant, "separable"),
                "%s (%s): ran %s", what, r ? "full rank" : "rank 2", variant);
          else if (strcmp (meths[m], "auto"))
            fail_unless (g_str_has_prefix (variant, meths[m]), "%s: ran %s", what, variant);
          g_free (variant);
          g_free (what);
          gst_harness_teardown (h);
        }
      }
    }
  }
  g_free (full);
  g_free (low);
}

GST_END_TEST;

/* Sets var to value (NULL: unsets it); returns what was there for env_put_back. */
static gchar *
env_swap (const gchar * var, const gchar * value)
{
  gchar *saved = g_strdup (g_getenv (var));

  if (value)
    g_setenv (var, value, TRUE);
  else
    g_unsetenv (var);
  return saved;
}

/* Puts back what env_swap returned (and frees it). */
static void
env_put_back (const gchar * var, gchar * saved)
{
  g_free (env_swap (var, saved));
  g_free (saved);
}

/* The generic kernels (what runs while a specialised one is built), forced by the developer
 * override: "1" runs the two-pass separable one where the matrix splits into few pairs (rank 1
 * presets, unsharp as one pair and a centre term, a rank-2 15x15 matrix) and the dense one
 * elsewhere (a full-rank matrix, rank 1 at size 3); "dense" runs the dense one for all. Every
 * border, 4-sample, 1-sample and NV12 luma pixels, matrices wider than the frame,
 * renegotiations between pixel shapes: each frame matches the reference. */
GST_START_TEST (test_generic_kernels)
{
  const gchar *mode = __i__ ? "dense" : "1";
  gdouble *full = random_matrix (7, 4711, -1.0, 1.0), *v = random_matrix (15, 8, -1.0, 1.0);
  gdouble *low = g_new (gdouble, 15 * 15);
  gchar *saved;

  /* rank 2: the sum of two outer products of the random rows 0, 1 and 2, 3 */
  for (gint j = 0; j < 15; j++)
    for (gint i = 0; i < 15; i++)
      low[j * 15 + i] = v[j] * v[15 + i] + v[30 + j] * v[45 + i];
  saved = env_swap ("GST_CLCONVOLVE_GENERIC", mode);
  for (guint b = 0; b < TEST_N_BORDERS; b++) {
    const Case cases[] = {
      {CASE_DEFAULTS, .size = 7, .border = border_names[b]},
      {CASE_DEFAULTS, .kernel = "unsharp", .size = 7, .amount = 2.5, .border = border_names[b]},
      {CASE_DEFAULTS, .format = "GRAY8", .kernel = "box", .size = 9,
          .border = border_names[b]},
      {CASE_DEFAULTS, .format = "NV12", .width = 38, .height = 30, .kernel = "motionblur",
          .size = 11, .angle = 0.0, .border = border_names[b]},
      {CASE_DEFAULTS, .format = "GRAY8", .kernel = NULL, .matrix = low, .size = 15,
          .divisor = abs_sum (low, 15) / 2.0, .bias = 128.0, .border = border_names[b]},
      {CASE_DEFAULTS, .width = 9, .height = 7, .size = 31, .border = border_names[b]},
      {CASE_DEFAULTS, .kernel = NULL, .matrix = full, .size = 7,
          .divisor = abs_sum (full, 7) / 3.0, .bias = 128.0, .border = border_names[b]},
      {CASE_DEFAULTS, .kernel = "box", .size = 3, .border = border_names[b]},
    };

    for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
      GstHarness *h = harness_for (&cases[k]);
      gboolean two_pass = __i__ == 0 && k < 6;
      gchar *variant, *what = describe (&cases[k]);

      check_frame (h, &cases[k], 900 + 10 * b + k);
      variant = element_variant (h);
      fail_unless (!strcmp (variant, two_pass ? "generic separable" : "generic"), "%s: ran %s",
          what, variant);
      g_free (variant);
      g_free (what);
      gst_harness_teardown (h);
    }
  }
  {
    /* renegotiations: each pixel shape its own generic programs, made and released in turn */
    Case steps[] = {
      {CASE_DEFAULTS, .size = 7}, {CASE_DEFAULTS, .format = "GRAY8", .size = 7},
      {CASE_DEFAULTS, .format = "NV12", .width = 38, .height = 30, .size = 7},
      {CASE_DEFAULTS, .format = "xBGR", .width = 40, .height = 21, .size = 7},
      {CASE_DEFAULTS, .format = "NV12", .width = 22, .height = 16, .size = 7},
    };
    GstHarness *h = harness_for (&steps[0]);

    for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
      gchar *caps = caps_string (&steps[i]), *variant;

      gst_harness_set_src_caps_str (h, caps);
      gst_harness_set_sink_caps_str (h, caps);
      check_frame (h, &steps[i], 950 + i);
      check_frame (h, &steps[i], 960 + i);
      variant = element_variant (h);
      fail_unless_equals_string (variant, __i__ ? "generic" : "generic separable");
      g_free (variant);
      g_free (caps);
    }
    gst_harness_teardown (h);
  }
  env_put_back ("GST_CLCONVOLVE_GENERIC", saved);
  g_free (low);
  g_free (v);
  g_free (full);
}

GST_END_TEST;

/* ---------------------------------------------------------------- properties */

static gchar *last_warning;
static guint warnings;

static void
count_warning (const gchar * domain, GLogLevelFlags level, const gchar * message, gpointer data)
{
  warnings++;
  g_free (last_warning);
  last_warning = g_strdup (message);
}

/* Runs code, which must print exactly one warning of our own log domain containing needle. */
#define ASSERT_OUR_WARNING(code, needle) G_STMT_START { \
    guint before = warnings; \
    code; \
    fail_unless_equals_int (warnings, before + 1); \
    fail_unless (strstr (last_warning, needle) != NULL, "warning '%s' lacks '%s'", \
        last_warning, needle); \
} G_STMT_END

GST_START_TEST (test_refused_values)
{
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  gint size;
  gint kernel;
  gchar *matrix;
  guint handler = g_log_set_handler ("clconvolve", G_LOG_LEVEL_WARNING, count_warning, NULL);

  fail_unless (e != NULL);
  g_object_set (e, "size", 7, NULL);
  ASSERT_OUR_WARNING (g_object_set (e, "size", 4, NULL), "odd");
  g_object_get (e, "size", &size, NULL);
  fail_unless_equals_int (size, 7);
  ASSERT_WARNING (g_object_set (e, "size", 65, NULL));
  ASSERT_WARNING (g_object_set (e, "size", 0, NULL));
  g_object_get (e, "size", &size, NULL);
  fail_unless_equals_int (size, 7);

  ASSERT_OUR_WARNING (g_object_set (e, "matrix", "1,2,3,4", NULL), "odd square");
  ASSERT_OUR_WARNING (g_object_set (e, "matrix", "1 2 3 4 5 6 7 8", NULL), "odd square");
  ASSERT_OUR_WARNING (g_object_set (e, "matrix", "1 2 3; 4 5 6; 7 8", NULL), "same odd count");
  ASSERT_OUR_WARNING (g_object_set (e, "matrix", "1,2,x,4,5,6,7,8,9", NULL), "'x'");
  ASSERT_OUR_WARNING (g_object_set (e, "matrix", "1,2,nan,4,5,6,7,8,9", NULL), "nan");
  ASSERT_OUR_WARNING (g_object_set (e, "matrix", "1,2,3,4,inf,6,7,8,9", NULL), "inf");
  ASSERT_OUR_WARNING (g_object_set (e, "matrix", "", NULL), "empty");
  g_object_set (e, "divisor", 2.0, NULL);
  ASSERT_WARNING (g_object_set (e, "divisor", NAN, NULL));
  ASSERT_WARNING (g_object_set (e, "bias", INFINITY, NULL));
  {
    gdouble divisor, bias;

    g_object_get (e, "divisor", &divisor, "bias", &bias, NULL);
    fail_unless (divisor == 2.0 && bias == 0.0, "divisor %g bias %g", divisor, bias);
  }
  g_object_get (e, "kernel", &kernel, "size", &size, "matrix", &matrix, NULL);
  fail_unless_equals_int (kernel, CONV_PRESET_GAUSSIAN);
  fail_unless_equals_int (size, 7);
  fail_unless (matrix == NULL);

  /* a matrix sets kernel=custom and its size; size then follows the matrix */
  g_object_set (e, "matrix", "0 -1 0; -1 5 -1; 0 -1 0", NULL);
  g_object_get (e, "kernel", &kernel, "size", &size, "matrix", &matrix, NULL);
  fail_unless_equals_int (kernel, CONV_PRESET_CUSTOM);
  fail_unless_equals_int (size, 3);
  fail_unless (matrix != NULL && strstr (matrix, "5") != NULL);
  g_free (matrix);
  ASSERT_OUR_WARNING (g_object_set (e, "size", 5, NULL), "matrix");
  gst_util_set_object_arg (G_OBJECT (e), "kernel", "box");
  g_object_set (e, "size", 5, NULL);
  g_object_get (e, "size", &size, NULL);
  fail_unless_equals_int (size, 5);
  gst_util_set_object_arg (G_OBJECT (e), "kernel", "custom");
  g_object_get (e, "size", &size, NULL);
  fail_unless_equals_int (size, 3);

  g_log_remove_handler ("clconvolve", handler);
  gst_object_unref (e);
}

GST_END_TEST;

/* a refused matrix mid-stream changes nothing: the stream goes on with the previous kernel */
GST_START_TEST (test_refused_matrix_midstream)
{
  Case c = { CASE_DEFAULTS, .kernel = "sharpen", .size = 3 };
  GstHarness *h = harness_for (&c);
  guint handler = g_log_set_handler ("clconvolve", G_LOG_LEVEL_WARNING, count_warning, NULL);

  check_frame (h, &c, 1);
  ASSERT_OUR_WARNING (g_object_set (h->element, "matrix", "1,2,3,4", NULL), "odd square");
  check_frame (h, &c, 2);
  g_log_remove_handler ("clconvolve", handler);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* One change in a live schedule: before frame `frame` is pushed, the properties in `set`
 * ("name=value ...", as gst-launch writes them) are set; matrix=N sets a random N x N matrix. */
typedef struct
{
  guint frame;
  const gchar *set;
} LiveStep;

static GstHarness *harness_with_bus (const Case * c, gboolean discrete, GstBus ** bus);

/* Sets one step's properties on e and the same settings in c (the settings the reference
 * uses); matrices[n] keeps the random n x n matrix of matrix=n. */
static void
live_apply (GstElement * e, Case * c, const LiveStep * step, gdouble ** matrices)
{
  gchar **pairs = g_strsplit (step->set, " ", -1);
  gint size;

  for (gchar ** p = pairs; *p; p++) {
    gchar **kv = g_strsplit (*p, "=", 2);
    const gchar *name = kv[0], *value = kv[1];

    fail_unless (value != NULL, "'%s' is not name=value", *p);
    if (!strcmp (name, "matrix")) {
      gint n = atoi (value);
      gchar *m;

      fail_unless (n % 2 == 1 && n < 10, "matrix=%s", value);
      if (!matrices[n])
        matrices[n] = random_matrix (n, 40 + n, 0.0, 1.0);
      m = matrix_string (matrices[n], n, ";\n");
      g_object_set (e, "matrix", m, NULL);
      g_free (m);
      c->kernel = NULL;
      c->matrix = matrices[n];
      c->size = n;
    } else {
      gst_util_set_object_arg (G_OBJECT (e), name, value);
      if (!strcmp (name, "kernel"))
        c->kernel = g_intern_string (value);
      else if (!strcmp (name, "size"))
        c->size = atoi (value);
      else if (!strcmp (name, "border"))
        c->border = g_intern_string (value);
      else if (!strcmp (name, "method"))
        c->method = g_intern_string (value);
      else if (!strcmp (name, "angle"))
        c->angle = g_ascii_strtod (value, NULL);
      else if (!strcmp (name, "divisor"))
        c->divisor = g_ascii_strtod (value, NULL);
      else if (!strcmp (name, "bias"))
        c->bias = g_ascii_strtod (value, NULL);
      else if (!strcmp (name, "sigma"))
        c->sigma = g_ascii_strtod (value, NULL);
      else
        fail ("the schedule sets unknown property '%s'", name);
    }
    g_strfreev (kv);
  }
  g_strfreev (pairs);
  /* a preset chosen after a matrix keeps the matrix's size */
  g_object_get (e, "size", &size, NULL);
  fail_unless_equals_int (size, c->size);
}

/* Whether the chroma plane of NV12 frames a and b (the input and output) is the same. */
static gboolean
chroma_unchanged (const Case * c, GstBuffer * a, GstBuffer * b)
{
  GstVideoInfo info;
  GstVideoFrame fa, fb;
  gboolean same = TRUE;

  fail_unless (gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, c->width, c->height));
  fail_unless (gst_video_frame_map (&fa, &info, a, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &info, b, GST_MAP_READ));
  for (gint y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT (&info, 1) && same; y++)
    same = !memcmp ((const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, 1) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, 1),
        (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, 1) +
        (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, 1), c->width);
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return same;
}

/* The suites set SYNC_ENV (the streaming thread waits for the worker, so that a frame runs
 * the variant a test checks); the tests of live changes unset it for the elements they start,
 * and put back what was there. */
#define HELPER_ENV "GST_CLCONVOLVE_HELPER"
#define SYNC_ENV "GST_CLCONVOLVE_SYNC_BUILDS"

static gchar *
sync_builds_off (void)
{
  return env_swap (SYNC_ENV, NULL);
}

static void
sync_builds_restore (gchar * saved)
{
  env_put_back (SYNC_ENV, saved);
}

/* Pushes n_frames distinct frames (increasing PTS) through one element on the given path,
 * changing settings by the schedule: each output is the reference for the settings in force
 * when its frame was pushed (whichever kernel variant ran), and exactly one comes out per frame,
 * in order, with its PTS; no warning or error on the bus. For NV12 the luma is filtered
 * (planes=auto) and the chroma must come out unchanged. */
static void
run_live_schedule (Case c, gboolean discrete, const LiveStep * steps, guint n_steps,
    guint n_frames)
{
  const Format *f = find_format (c.format);
  gsize bytes = (gsize) c.width * f->channels * c.height;
  guint8 *expect = g_malloc (bytes), *ties = g_malloc (bytes);
  gdouble *matrices[10] = { NULL };
  const gchar *last = "(initial settings)";
  gboolean nv12 = !strcmp (c.format, "NV12");
  GstBus *bus;
  gchar *saved = sync_builds_off ();
  GstHarness *h = harness_with_bus (&c, discrete, &bus);
  GstMessage *msg;

  sync_builds_restore (saved);

  for (guint frame = 0, s = 0; frame < n_frames; frame++) {
    GstClockTime pts = gst_util_uint64_scale (frame, GST_SECOND, 30);
    guint8 *in;
    GstBuffer *buf, *copy = NULL, *out;
    gchar *where = NULL, *what, *settings;
    gint worst;

    if (s < n_steps && steps[s].frame == frame) {
      live_apply (h->element, &c, &steps[s], matrices);
      last = steps[s++].set;
    }
    settings = describe (&c);
    what = g_strdup_printf ("%s path, frame %u, after '%s' (%s)", discrete ? "discrete" :
        "unified", frame, last, settings);
    g_free (settings);
    buf = make_input (&c, 7000 + frame, pts, &in);
    if (nv12)
      copy = gst_buffer_copy_deep (buf);
    reference (&c, in, expect, ties);
    out = gst_harness_push_and_pull (h, buf);
    fail_unless (out != NULL, "%s: no output", what);
    fail_unless (GST_BUFFER_PTS (out) == pts, "%s: output PTS %" GST_TIME_FORMAT ", pushed %"
        GST_TIME_FORMAT, what, GST_TIME_ARGS (GST_BUFFER_PTS (out)), GST_TIME_ARGS (pts));
    worst = max_difference (&c, out, expect, ties, &where);
    fail_unless (worst <= TOLERANCE, "%s: off by %d (> %d LSB) at %s", what, worst, TOLERANCE,
        where);
    fail_unless (!copy || chroma_unchanged (&c, copy, out), "%s: the chroma changed", what);
    gst_buffer_replace (&copy, NULL);
    gst_buffer_unref (out);
    g_free (where);
    g_free (what);
    g_free (in);
  }
  fail_unless (gst_harness_try_pull (h) == NULL, "more outputs than the %u frames", n_frames);
  fail_unless_equals_int (gst_harness_buffers_received (h), n_frames);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  if (msg) {
    GError *err = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, NULL);
    else
      gst_message_parse_warning (msg, &err, NULL);
    fail ("%s path, %s: %s on the bus", discrete ? "discrete" : "unified", c.format,
        err->message);
  }

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  for (guint i = 0; i < G_N_ELEMENTS (matrices); i++)
    g_free (matrices[i]);
  g_free (expect);
  g_free (ties);
}

/* Settings changed between frames while playing apply from the next frame: 60 RGBA frames
 * through a schedule that changes size (3, 5, 9), kernel (presets, motionblur's angle, sigma,
 * a custom matrix), divisor and bias, each border and each method, reusing the programs it has
 * built where it can (each new size, method and border is a build); on both paths (loop 0:
 * unified, 1: discrete), and NV12 with a shorter one (2, 3). */
GST_START_TEST (test_live_changes)
{
  static const LiveStep rgba[] = {
    {4, "kernel=box"},
    {8, "kernel=sharpen border=mirror"},
    {12, "method=vector"},
    {15, "matrix=3"},
    {19, "kernel=motionblur angle=30 size=5"},
    {23, "border=wrap"},
    {27, "method=tiled"},
    {30, "kernel=box divisor=3 bias=-20"},
    {34, "border=constant divisor=0 bias=0 kernel=gaussian sigma=2"},
    {38, "size=9"},
    {42, "method=separable"},
    {45, "kernel=box"},
    {49, "method=auto"},
    {53, "matrix=9"},
    {57, "kernel=motionblur angle=120"},
  };
  static const LiveStep nv12[] = {
    {4, "kernel=box border=wrap"},
    {8, "size=5 method=vector"},
    {12, "matrix=5"},
    {16, "kernel=sharpen method=separable border=mirror"},
  };
  Case c = { CASE_DEFAULTS, .width = 64, .height = 48, .size = 3, .method = "float4" };

  if (__i__ < 2) {
    run_live_schedule (c, __i__ == 1, rgba, G_N_ELEMENTS (rgba), 60);
  } else {
    c.format = "NV12";
    run_live_schedule (c, __i__ == 3, nv12, G_N_ELEMENTS (nv12), 20);
  }
}

GST_END_TEST;

/* controllable properties follow a GstController binding at each frame's stream time */
GST_START_TEST (test_controller)
{
  Case c = { CASE_DEFAULTS, .kernel = "motionblur", .size = 7 };
  GstHarness *h = harness_for (&c);
  GstControlSource *bias = gst_trigger_control_source_new ();
  GstControlSource *angle = gst_trigger_control_source_new ();
  GstTimedValueControlSource *tb = GST_TIMED_VALUE_CONTROL_SOURCE (bias);
  GstTimedValueControlSource *ta = GST_TIMED_VALUE_CONTROL_SOURCE (angle);

  gst_object_add_control_binding (GST_OBJECT (h->element),
      gst_direct_control_binding_new_absolute (GST_OBJECT (h->element), "bias", bias));
  gst_object_add_control_binding (GST_OBJECT (h->element),
      gst_direct_control_binding_new_absolute (GST_OBJECT (h->element), "angle", angle));
  gst_timed_value_control_source_set (tb, 0, 0.0);
  gst_timed_value_control_source_set (tb, GST_SECOND, 50.0);
  gst_timed_value_control_source_set (ta, 0, 0.0);
  gst_timed_value_control_source_set (ta, GST_SECOND, 90.0);

  c.angle = 0.0;
  check_frame_at (h, &c, 1, 0);
  c.bias = 50.0;
  c.angle = 90.0;
  check_frame_at (h, &c, 2, GST_SECOND);

  gst_object_unref (bias);
  gst_object_unref (angle);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* stats count frames; with profiling every stage that ran has a device time: upload and
 * download only where frames are copied to the device (a GPU, or the CPU with the developer
 * override GST_CLCONVOLVE_DISCRETE=1), never on a CPU that works on the frame in place */
GST_START_TEST (test_stats)
{
  for (gint run = 0; run < 4; run++) {
    gboolean profiling = run & 1, force_discrete = run >> 1;
    Case c = { CASE_DEFAULTS };
    GstHarness *h = gst_harness_new ("clconvolve");
    gchar *caps = caps_string (&c);
    GstStructure *st;
    guint64 frames = 0, up = 0, kern = 0, down = 0, busy = 0;
    const gchar *out_path;
    gboolean discrete;
    gchar *name = NULL;

    /* profiling and the override are read at start: set them in NULL state, then start */
    gst_element_set_state (h->element, GST_STATE_NULL);
    g_object_set (h->element, "profiling", profiling, NULL);
    if (force_discrete)
      g_setenv ("GST_CLCONVOLVE_DISCRETE", "1", TRUE);
    gst_harness_play (h);
    g_unsetenv ("GST_CLCONVOLVE_DISCRETE");
    apply_case (h->element, &c);
    gst_harness_set_src_caps_str (h, caps);
    gst_harness_set_sink_caps_str (h, caps);
    for (guint i = 0; i < 3; i++)
      check_frame (h, &c, i);
    g_object_get (h->element, "stats", &st, NULL);
    fail_unless (gst_structure_get (st, "frames", G_TYPE_UINT64, &frames, "upload-ns",
            G_TYPE_UINT64, &up, "kernel-ns", G_TYPE_UINT64, &kern, "download-ns",
            G_TYPE_UINT64, &down, "busy-ns", G_TYPE_UINT64, &busy, NULL));
    fail_unless_equals_uint64 (frames, 3);
    out_path = gst_structure_get_string (st, "output-path");
    fail_unless (out_path != NULL, "%s", struct_text (st));
    discrete = g_str_has_suffix (out_path, "-dma");
    fail_unless (discrete || !force_discrete, "%s", struct_text (st));
    g_object_get (h->element, "device-name", &name, NULL);
    fail_unless (name && *name, "device-name is empty while playing");
    g_free (name);
    if (profiling && discrete) {
      fail_unless (up > 0 && kern > 0 && down > 0, "%s", struct_text (st));
      fail_unless (busy >= kern && busy <= up + kern + down, "%s", struct_text (st));
    } else if (profiling) {
      fail_unless (up == 0 && kern > 0 && down == 0 && busy == kern, "%s", struct_text (st));
    } else {
      fail_unless (up == 0 && kern == 0 && down == 0 && busy == 0, "%s", struct_text (st));
    }
    gst_structure_free (st);
    g_free (caps);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* the same element stopped and started again, without any property change, keeps filtering
 * correctly (coefficients, kernels and buffers are re-created) */
GST_START_TEST (test_restart)
{
  Case c = { CASE_DEFAULTS, .kernel = "emboss", .size = 5, .bias = 20.0 };
  GstHarness *h = harness_for (&c);
  gchar *caps = caps_string (&c), *name = NULL;

  check_frame (h, &c, 1);
  for (gint i = 0; i < 2; i++) {
    fail_unless_equals_int (gst_element_set_state (h->element, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
    g_object_get (h->element, "device-name", &name, NULL);
    fail_unless (name == NULL, "device-name '%s' while stopped", name);
    gst_harness_play (h);
    gst_harness_set_src_caps_str (h, caps);
    check_frame (h, &c, 2 + i);
  }
  g_free (caps);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* caps change mid-stream: another channel count (new program) and larger frames (new buffers) */
GST_START_TEST (test_caps_change)
{
  Case steps[] = {
    {CASE_DEFAULTS, .format = "RGBA", .width = 37, .height = 29},
    {CASE_DEFAULTS, .format = "GRAY8", .width = 61, .height = 17},
    {CASE_DEFAULTS, .format = "ARGB", .width = 640, .height = 480},
    {CASE_DEFAULTS, .format = "GRAY8", .width = 13, .height = 5},
    {CASE_DEFAULTS, .format = "xBGR", .width = 641, .height = 481},
  };
  GstHarness *h = harness_for (&steps[0]);

  for (guint m = 1; m < G_N_ELEMENTS (methods); m++) {
    gst_util_set_object_arg (G_OBJECT (h->element), "method", methods[m]);
    for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
      gchar *caps = caps_string (&steps[i]);

      steps[i].method = methods[m];
      gst_harness_set_src_caps_str (h, caps);
      gst_harness_set_sink_caps_str (h, caps);
      check_frame (h, &steps[i], i);
      g_free (caps);
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* the method that actually runs, read from the element's INFO log line */
static GString *method_log;

static void
capture_log (GstDebugCategory * category, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message,
    gpointer data)
{
  const gchar *text = gst_debug_message_get (message);

  if (!strcmp (gst_debug_category_get_name (category), "clconvolve") && strstr (text, "running "))
    g_string_append_printf (method_log, "%s\n", text);
}

GST_START_TEST (test_method_used)
{
  const struct
  {
    const gchar *asked, *ran;
    gint size;
  } cases[] = {
    {"tiled", "running tiled", 5}, {"float4", "running float4", 5},
    {"tiled", "running tiled", 31}, {"float4", "running float4", 31},
  };
  GstDebugLevel old = gst_debug_get_default_threshold ();

  method_log = g_string_new (NULL);
  gst_debug_set_threshold_for_name ("clconvolve", GST_LEVEL_INFO);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (capture_log, NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    Case c = { CASE_DEFAULTS, .method = cases[i].asked, .size = cases[i].size };

    g_string_truncate (method_log, 0);
    run_case (&c);
    fail_unless (strstr (method_log->str, cases[i].ran) != NULL,
        "method=%s size=%d: expected '%s' in the log, got: %s", cases[i].asked, cases[i].size,
        cases[i].ran, method_log->str);
  }
  gst_debug_remove_log_function (capture_log);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
  gst_debug_set_threshold_for_name ("clconvolve", old);
  g_string_free (method_log, TRUE);
}

GST_END_TEST;

/* two elements on the same device at once (shared context and program cache): sobel-x with
 * integer coefficients is exact in float, so the chain's reference is the reference twice */
GST_START_TEST (test_two_elements)
{
  Case first = { CASE_DEFAULTS, .kernel = "sobel-x", .size = 3, .bias = 128.0,
    .width = 50, .height = 40
  };
  Case second = { CASE_DEFAULTS, .kernel = "motionblur", .size = 9, .width = 50, .height = 40,
    .method = "tiled"
  };
  GstHarness *h = gst_harness_new_parse ("clconvolve name=a kernel=sobel-x size=3 bias=128 "
      "! clconvolve name=b kernel=motionblur size=9 method=tiled");
  gchar *caps = caps_string (&first), *where = NULL;
  gsize bytes = 50 * 4 * 40;
  guint8 *in, *mid = g_malloc (bytes), *expect = g_malloc (bytes), *ties = g_malloc (bytes);
  GstBuffer *out;

  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  out = gst_harness_push_and_pull (h, make_input (&first, 5, 0, &in));
  reference (&first, in, mid, NULL);
  reference (&second, mid, expect, ties);
  fail_unless (max_difference (&second, out, expect, ties, &where) <= TOLERANCE, "%s", where);
  gst_buffer_unref (out);
  g_free (where);
  g_free (caps);
  g_free (in);
  g_free (mid);
  g_free (expect);
  g_free (ties);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* planes above 2 GiB are refused at negotiation with a clear error, not indexed out of range */
GST_START_TEST (test_huge_frame_refused)
{
  GstElement *pipe = gst_parse_launch ("appsrc name=src caps=video/x-raw,format=RGBA,"
      "width=30000,height=20000,framerate=30/1 format=time ! clconvolve ! fakesink", NULL);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  GstMessage *msg;
  GError *err = NULL;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  gst_app_src_push_buffer (GST_APP_SRC (src), gst_buffer_new_allocate (NULL, 16, NULL));
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 60 * GST_SECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (g_error_matches (err, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT), "%s",
      err->message);
  fail_unless (strstr (err->message, "2 GiB") != NULL, "%s", err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (pipe);
}

GST_END_TEST;

static GstHarness *harness_own_context (const Case * c);

/* stats field (a number) of the element */
static guint64
stats_u64 (GstHarness * h, const gchar * field)
{
  GstStructure *st = NULL;
  guint64 v = 0;
  guint u = 0;

  g_object_get (h->element, "stats", &st, NULL);
  fail_unless (st != NULL);
  if (!gst_structure_get_uint64 (st, field, &v)) {
    fail_unless (gst_structure_get_uint (st, field, &u), "no %s in %s", field,
        struct_text (st));
    v = u;
  }
  gst_structure_free (st);
  return v;
}

/* The element messages of the worker's jobs on bus: how many have phase (and, if not NULL, a
 * "what" containing needle); each ended one says how long it took. */
static guint
count_job_messages (GstBus * bus, const gchar * phase, const gchar * needle, gint helped)
{
  GstMessage *msg;
  guint n = 0;

  while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *st = gst_message_get_structure (msg);
    guint64 duration;
    gboolean helper;

    if (gst_structure_has_name (st, "clconvolve-job") &&
        !g_strcmp0 (gst_structure_get_string (st, "phase"), phase) &&
        (!needle || strstr (gst_structure_get_string (st, "what"), needle))) {
      n++;
      if (strcmp (phase, "started"))
        fail_unless (gst_structure_get_uint64 (st, "duration", &duration) && duration > 0 &&
            gst_structure_get_boolean (st, "helper", &helper) && (helped < 0 ||
                helper == helped), "%s (expected helper=%d)", struct_text (st), helped);
    }
    gst_message_unref (msg);
  }
  return n;
}

/* The streaming thread never waits for the worker: with the worker held up before each job
 * (the developer override, 60 s), settings that need programs nobody built apply from the
 * next frame, each frame matches the reference, the generic kernel runs them and their jobs
 * stay pending; a message says each job started. Stopping with a job pending then returns
 * (the element's own context, released with it, stops its worker: ASan checks the leaks). */
GST_START_TEST (test_slow_worker)
{
  Case c = { CASE_DEFAULTS, .format = "RGBA", .width = 40, .height = 30, .kernel = "box",
    .size = 3, .method = "float4"
  };
  const gint sizes[] = { 5, 7, 9 };
  gchar *saved = sync_builds_off ();
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  guint frame = 0;

  g_setenv ("GST_CLCONVOLVE_WORKER_DELAY_MS", "60000", TRUE);
  h = harness_own_context (&c);
  g_unsetenv ("GST_CLCONVOLVE_WORKER_DELAY_MS");
  sync_builds_restore (saved);
  gst_element_set_bus (h->element, bus);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    gchar *v;

    c.size = sizes[i];
    c.border = border_names[i % TEST_N_BORDERS];
    apply_case (h->element, &c);
    for (guint k = 0; k < 2; k++, frame++) {
      check_frame_at (h, &c, 100 + frame, frame * GST_SECOND / 30);
      v = element_variant (h);
      /* the separable box: the generic separable kernel where an earlier run left its program
       * in the caches, else the dense one while its job waits too */
      fail_unless (!strcmp (v, "generic separable") || !strcmp (v, "generic"), "ran %s", v);
      fail_unless_equals_int (stats_u64 (h, "jobs-pending"), strcmp (v, "generic") ? 1 : 2);
      g_free (v);
    }
  }
  fail_unless_equals_int (stats_u64 (h, "generic-frames"), frame);
  /* the first setting's job, then one per size */
  fail_unless (count_job_messages (bus, "started", "float4 block=", -1) >= G_N_ELEMENTS (sizes));
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The worker's "job started" lines (debug category clworker), in the order it started them. */
static GMutex started_lock;
static GPtrArray *started_jobs;

static void
capture_started (GstDebugCategory * category, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message,
    gpointer unused)
{
  const gchar *text = gst_debug_message_get (message), *what;

  if (strcmp (gst_debug_category_get_name (category), "clworker") || !text ||
      !(what = strstr (text, " job started: ")))
    return;
  g_mutex_lock (&started_lock);
  g_ptr_array_add (started_jobs, g_strdup (what + strlen (" job started: ")));
  g_mutex_unlock (&started_lock);
}

/* The worker runs the builds a stream waits for before the programs it prepares for other
 * formats (issue 43): on a context of its own (nothing built), a GRAY8 stream's first frame
 * queues its own variant's build, then the generic programs of the other 8-bit pixel shapes
 * (a matrix that does not split: no generic separable job before them); the stream's job (of
 * its one 8-bit sample) starts before all of the others, where first in, first out would run
 * it last (and queuing the others first would let an idle worker start one of them). */
GST_START_TEST (test_needed_build_first)
{
  Case c = { CASE_DEFAULTS, .format = "GRAY8", .width = 40, .height = 30, .kernel = "edge",
    .size = 3, .method = "vector"
  };
  gchar *saved = sync_builds_off ();
  GstHarness *h;
  gint64 end;
  guint frame = 0, mine = 0, others = 0, others_before = 0;
  gboolean own = FALSE;

  started_jobs = g_ptr_array_new_with_free_func (g_free);
  gst_debug_set_threshold_for_name ("clworker", GST_LEVEL_INFO);
  gst_debug_add_log_function (capture_started, NULL, NULL);
  h = harness_own_context (&c);
  sync_builds_restore (saved);
  /* until the stream runs its own variant and the prepared programs have started */
  end = g_get_monotonic_time () + 90 * G_TIME_SPAN_SECOND;
  while (g_get_monotonic_time () < end && (!own || others < 3)) {
    gchar *v;

    check_frame_at (h, &c, 300 + frame, frame * GST_SECOND / 30);
    frame++;
    v = element_variant (h);
    own = !g_str_has_prefix (v, "generic");
    g_free (v);
    g_mutex_lock (&started_lock);
    others = 0;
    for (guint i = 0; i < started_jobs->len; i++)
      others += !strstr (g_ptr_array_index (started_jobs, i), " 1 sample of 8 bits");
    g_mutex_unlock (&started_lock);
    g_usleep (20000);
  }
  gst_debug_remove_log_function (capture_started);
  gst_debug_set_threshold_for_name ("clworker", GST_LEVEL_WARNING);
  fail_unless (own, "the stream never ran its own variant");
  fail_unless (others >= 3, "only %u prepared programs started: the test needs them queued",
      others);
  /* how many of the others started before the stream's last job */
  others = 0;
  for (guint i = 0; i < started_jobs->len; i++) {
    if (strstr (g_ptr_array_index (started_jobs, i), " 1 sample of 8 bits")) {
      mine++;
      others_before = others;
    } else {
      others++;
    }
  }
  fail_unless (mine >= 1, "no job of the stream's pixel shape started");
  fail_unless (others_before == 0, "%u prepared programs started before the stream's last "
      "job (of %u jobs)", others_before, started_jobs->len);
  gst_harness_teardown (h);
  g_clear_pointer (&started_jobs, g_ptr_array_unref);
}

GST_END_TEST;

/* Streams whose builds keep the worker busy still get the generic programs prepared for their
 * later renegotiations (issue 43): 3 GRAY8 elements on one context of their own, whose worker
 * takes at least 1 s a job (GST_CLCONVOLVE_WORKER_DELAY_MS), each with a size no other has
 * (small ones, quick to compile), so that the jobs they need (its variant and the generic
 * separable program, about two an element) fill the queue for 5 s and more, the 3 s mark well
 * inside them also on a loaded machine. A prepared program (another
 * pixel shape's), once it has waited 3 s, must start before the last of those jobs; first
 * in, first out by priority would run it after all of them, and a stream that changes its
 * settings faster than its builds end would then never get it (its first frame of a new
 * format compiling one on the streaming thread). Every frame matches the reference. */
#define STARVED_ELEMENTS 3
GST_START_TEST (test_prepared_not_starved)
{
  Case c = { CASE_DEFAULTS, .format = "GRAY8", .width = 40, .height = 30, .kernel = "edge",
    .method = "vector"
  };
  gchar *saved = sync_builds_off ();
  cl_device_id device;
  cl_context cl = app_context (&device);
  GstContext *given = app_gst_context (cl, device);
  GstHarness *h[STARVED_ELEMENTS];
  gint first_prepared = -1, last_needed = -1;
  guint frame = 0, own = 0;
  gint64 end;

  started_jobs = g_ptr_array_new_with_free_func (g_free);
  gst_debug_set_threshold_for_name ("clworker", GST_LEVEL_INFO);
  gst_debug_add_log_function (capture_started, NULL, NULL);
  g_setenv ("GST_CLCONVOLVE_WORKER_DELAY_MS", "1000", TRUE);
  for (gint i = 0; i < STARVED_ELEMENTS; i++) {
    GstElement *e = gst_element_factory_make ("clconvolve", NULL);
    gchar *caps;

    c.size = 3 + 2 * i;
    caps = caps_string (&c);
    apply_case (e, &c);
    gst_element_set_context (e, given);
    h[i] = harness_on_path (e, FALSE);
    gst_harness_set_src_caps_str (h[i], caps);
    gst_harness_set_sink_caps_str (h[i], caps);
    gst_object_unref (e);
    g_free (caps);
    check_frame_at (h[i], &c, 950 + frame, frame * GST_SECOND / 30);
    frame++;
  }
  g_unsetenv ("GST_CLCONVOLVE_WORKER_DELAY_MS");
  sync_builds_restore (saved);
  /* until every element runs its own variant */
  end = g_get_monotonic_time () + 120 * G_TIME_SPAN_SECOND;
  while (own < STARVED_ELEMENTS && g_get_monotonic_time () < end) {
    own = 0;
    for (gint i = 0; i < STARVED_ELEMENTS; i++) {
      gchar *v = element_variant (h[i]);

      c.size = 3 + 2 * i;
      check_frame_at (h[i], &c, 950 + frame, frame * GST_SECOND / 30);
      frame++;
      own += !g_str_has_prefix (v, "generic");
      g_free (v);
    }
    g_usleep (50000);
  }
  gst_debug_remove_log_function (capture_started);
  gst_debug_set_threshold_for_name ("clworker", GST_LEVEL_WARNING);
  fail_unless_equals_int (own, STARVED_ELEMENTS);
  for (guint i = 0; i < started_jobs->len; i++) {
    if (!strstr (g_ptr_array_index (started_jobs, i), " 1 sample of 8 bits")) {
      if (first_prepared < 0)
        first_prepared = i;
    } else {
      last_needed = i;
    }
  }
  fail_unless (first_prepared >= 0 && first_prepared < last_needed, "the first prepared "
      "program started as job %d of %u, the last job the streams needed as %d", first_prepared,
      started_jobs->len, last_needed);
  for (gint i = 0; i < STARVED_ELEMENTS; i++)
    gst_harness_teardown (h[i]);
  gst_context_unref (given);
  clReleaseContext (cl);
  g_clear_pointer (&started_jobs, g_ptr_array_unref);
}

GST_END_TEST;

/* A tuning job nobody wants any more stops: with a helper that fails every build at once (the
 * worker then builds in its own process) and never answers a tuning job, a method=auto request
 * first runs the fixed rules' variant, then its tuning job waits in the helper; a new size drops
 * it, the worker ends that helper, and the new size's build is done within seconds (not after
 * the tuning job). Every frame matches the reference. */
GST_START_TEST (test_dropped_tuning_stops)
{
  Case c = { CASE_DEFAULTS, .format = "RGBA", .width = 40, .height = 30, .size = 5,
    .tune = TRUE
  };
  const gchar *script = "#!/bin/sh\n"
      "while IFS= read -r line; do\n"
      "  case \"$line\" in\n"
      "    tune*) sleep 600 </dev/null >/dev/null 2>&1 & wait ;;\n"
      "    *) echo 'clconvolve-job -11 0 0 0 0 0 0' ;;\n"
      "  esac\n"
      "done\n";
  gchar *dir = g_dir_make_tmp ("clconvolve-helper-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "helper.sh", NULL);
  gchar *saved = sync_builds_off (), *helper;
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  guint frame = 0, tunes = 0, done = 0;
  gint64 changed;

  fail_unless (g_file_set_contents (path, script, -1, NULL) && g_chmod (path, 0755) == 0);
  helper = env_swap (HELPER_ENV, path);
  h = harness_own_context (&c);
  sync_builds_restore (saved);
  gst_element_set_bus (h->element, bus);
  /* the fixed variant's build (in this process), then the tuning job */
  for (; frame < 600 && !tunes; frame++) {
    check_frame_at (h, &c, 700 + frame, frame * GST_SECOND / 30);
    tunes = count_job_messages (bus, "started", "method=auto, 5x5", -1);
    g_usleep (100 * 1000);
  }
  fail_unless (tunes == 1, "no tuning job after %u frames", frame);
  /* in the helper by now */
  g_usleep (1000 * 1000);
  c.size = 7;
  apply_case (h->element, &c);
  changed = g_get_monotonic_time ();
  for (; g_get_monotonic_time () - changed < 60 * G_USEC_PER_SEC && !done; frame++) {
    check_frame_at (h, &c, 700 + frame, frame * GST_SECOND / 30);
    done = count_job_messages (bus, "done", ", 7x7,", FALSE);
    g_usleep (100 * 1000);
  }
  fail_unless (done == 1, "size 7's build not done after %.1f s (held up by the dropped "
      "tuning job?)", (g_get_monotonic_time () - changed) / 1e6);
  /* about one build: far from the helper's 600 s */
  fail_unless (g_get_monotonic_time () - changed < 30 * G_USEC_PER_SEC);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
  env_put_back (HELPER_ENV, helper);
  g_remove (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* Once the worker is done, the element switches to the specialised kernel between two frames
 * (a "done" message says what and how long), and the frames before and after match the
 * reference: with the helper process doing the job first, with none (GST_CLCONVOLVE_HELPER=""),
 * with one that cannot run (the worker does it itself, with a warning), and with helpers that
 * never answer or answer without end (a script: ended at the deadline,
 * GST_CLCONVOLVE_HELPER_TIMEOUT=2 here, or at the answer's size limit, then the worker does
 * the job: the switch comes within the deadline and a build). */
#define HELPER_TIMEOUT_ENV "GST_CLCONVOLVE_HELPER_TIMEOUT"
static const struct
{
  const gchar *path;            /* GST_CLCONVOLVE_HELPER; NULL: the suite's, this build's */
  gboolean helped;
  const gchar *script;          /* a helper written for the test (path NULL) */
} helpers[] = {
  {NULL, TRUE}, {"", FALSE}, {"/nonexistent/clconvolve-warmup", FALSE},
  {NULL, FALSE, "#!/bin/sh\nread -r line\nexec sleep 600\n"},
  {NULL, FALSE, "#!/bin/sh\nread -r line\nwhile :; do printf xxxxxxxxxxxxxxxx; done\n"},
};

GST_START_TEST (test_switch_when_ready)
{
  Case c = { CASE_DEFAULTS, .format = "RGBA", .width = 40, .height = 30, .kernel = "gaussian",
    .size = 5, .method = "vector", .border = "wrap"
  };
  gchar *saved = sync_builds_off ();
  gchar *dir = NULL, *script = NULL, *timeout = NULL, *helper;
  GstBus *bus = gst_bus_new ();
  GstHarness *h;
  gchar *v = NULL;
  guint frame = 0;
  gint64 start;

  if (helpers[__i__].script) {
    dir = g_dir_make_tmp ("clconvolve-helper-XXXXXX", NULL);
    script = g_build_filename (dir, "helper.sh", NULL);
    fail_unless (g_file_set_contents (script, helpers[__i__].script, -1, NULL) &&
        g_chmod (script, 0755) == 0);
    timeout = env_swap (HELPER_TIMEOUT_ENV, "2");
  }
  helper = env_swap (HELPER_ENV, script ? script : helpers[__i__].path ?
      helpers[__i__].path : g_getenv (HELPER_ENV));
  start = g_get_monotonic_time ();
  h = harness_own_context (&c);
  sync_builds_restore (saved);
  gst_element_set_bus (h->element, bus);
  /* up to 2 minutes for the worker (PoCL compiling from nothing on a slow machine) */
  for (; frame < 1200; frame++) {
    check_frame_at (h, &c, 200 + frame, frame * GST_SECOND / 30);
    g_free (v);
    v = element_variant (h);
    if (g_str_has_prefix (v, "vector "))
      break;
    fail_unless (g_str_has_prefix (v, "generic"), "ran %s", v);
    g_usleep (100 * 1000);
  }
  fail_unless (g_str_has_prefix (v, "vector "), "still %s after %u frames", v, frame);
  /* a helper that never answers costs its deadline (2 s), then the builds: a generic and the
   * specialised one, a few seconds each on a slow machine */
  if (script)
    fail_unless (g_get_monotonic_time () - start < 40 * G_USEC_PER_SEC,
        "the switch took %.1f s with a helper that %s", (g_get_monotonic_time () - start) / 1e6,
        __i__ == 3 ? "never answers" : "answers without end");
  check_frame_at (h, &c, 5000, frame * GST_SECOND / 30);
  fail_unless_equals_int (stats_u64 (h, "jobs-pending"), 0);
  fail_unless (count_job_messages (bus, "done", "vector ", helpers[__i__].helped) == 1);
  env_put_back (HELPER_ENV, helper);
  if (script) {
    env_put_back (HELPER_TIMEOUT_ENV, timeout);
    g_remove (script);
    g_rmdir (dir);
    g_free (script);
    g_free (dir);
  }
  g_free (v);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* properties changed from another thread while 1000 frames flow: every output frame must be
 * the reference for one of the settings the other thread can leave behind */
typedef struct
{
  GstElement *element;
  volatile gint stop;
} Toggler;

static gpointer
toggle_properties (gpointer data)
{
  Toggler *t = data;
  const gchar *kernels[] = { "box", "gaussian" };
  guint i = 0;

  while (!g_atomic_int_get (&t->stop)) {
    gst_util_set_object_arg (G_OBJECT (t->element), "kernel", kernels[i & 1]);
    g_object_set (t->element, "size", (i & 2) ? 5 : 3, "bias", (i & 4) ? 10.0 : 0.0, NULL);
    i++;
    g_usleep (50);
  }
  return NULL;
}

GST_START_TEST (test_stress_properties)
{
  Case base = { CASE_DEFAULTS, .format = "GRAY8", .width = 32, .height = 24 };
  GstHarness *h = harness_for (&base);
  Case cases[8];
  guint8 *in = NULL, *expect[8], *ties[8];
  gsize bytes = (gsize) base.width * base.height;
  Toggler t = { h->element, 0 };
  GThread *thread;
  guint seen[8] = { 0 };
  GstBuffer *input;

  input = make_input (&base, 42, 0, &in);
  for (guint i = 0; i < 8; i++) {
    cases[i] = base;
    cases[i].kernel = (i & 1) ? "gaussian" : "box";
    cases[i].size = (i & 2) ? 5 : 3;
    cases[i].bias = (i & 4) ? 10.0 : 0.0;
    expect[i] = g_malloc (bytes);
    ties[i] = g_malloc (bytes);
    reference (&cases[i], in, expect[i], ties[i]);
  }

  thread = g_thread_new ("toggler", toggle_properties, &t);
  for (guint frame = 0; frame < 1000; frame++) {
    GstBuffer *out = gst_harness_push_and_pull (h, gst_buffer_ref (input));
    gboolean matched = FALSE;

    fail_unless (out != NULL, "frame %u lost", frame);
    for (guint i = 0; i < 8 && !matched; i++) {
      gchar *where = NULL;
      if (max_difference (&cases[i], out, expect[i], ties[i], &where) <= TOLERANCE) {
        matched = TRUE;
        seen[i]++;
      }
      g_free (where);
    }
    fail_unless (matched, "frame %u matches none of the 8 possible settings", frame);
    gst_buffer_unref (out);
  }
  g_atomic_int_set (&t.stop, 1);
  g_thread_join (thread);

  for (guint i = 0; i < 8; i++)
    GST_INFO ("setting %u seen %u times", i, seen[i]);
  gst_buffer_unref (input);
  for (guint i = 0; i < 8; i++) {
    g_free (expect[i]);
    g_free (ties[i]);
  }
  g_free (in);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Points GST_CLCONVOLVE_KERNEL_SOURCE (read when an element starts) at a file whose program
 * does not build, the compiler naming the undeclared identifier; returns the file's path. The
 * variable's value before is kept in *saved for broken_source_end. */
static gchar *
broken_source_begin (const gchar * identifier, gchar ** saved)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("clconvolve-broken-XXXXXX.cl", &path, NULL);
  gchar *text = g_strdup_printf ("__kernel void convolve_direct (__global uchar *p) "
      "{ p[0] = %s; }\n", identifier);

  fail_unless (fd >= 0);
  fail_unless (g_file_set_contents (path, text, -1, NULL));
  close (fd);
  g_free (text);
  *saved = g_strdup (g_getenv ("GST_CLCONVOLVE_KERNEL_SOURCE"));
  g_setenv ("GST_CLCONVOLVE_KERNEL_SOURCE", path, TRUE);
  return path;
}

/* Puts the variable back as broken_source_begin found it. */
static void
broken_source_end (gchar * saved)
{
  if (saved)
    g_setenv ("GST_CLCONVOLVE_KERNEL_SOURCE", saved, TRUE);
  else
    g_unsetenv ("GST_CLCONVOLVE_KERNEL_SOURCE");
  g_free (saved);
}

/* a program that does not build gives LIBRARY/INIT with the compiler's log in the debug text */
GST_START_TEST (test_build_failure)
{
  gchar *saved;
  gchar *path = broken_source_begin ("undeclared", &saved);
  GError *err = NULL;
  gchar *debug = NULL;

  fail_if (run_one_frame_pipeline ("clconvolve", &err, &debug));
  broken_source_end (saved);
  fail_unless (err != NULL);
  fail_unless (g_error_matches (err, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT),
      "unexpected error %s", err->message);
  fail_unless (debug && strstr (debug, "build log") && strstr (debug, "undeclared"),
      "debug text lacks the build log: %s", debug);
  g_clear_error (&err);
  g_free (debug);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* a device that does not exist gives RESOURCE/NOT_FOUND naming it */
GST_START_TEST (test_unknown_device)
{
  GError *err = NULL;
  gchar *debug = NULL;

  fail_if (run_one_frame_pipeline ("clconvolve device=no-such-device-xyz", &err, &debug));
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND));
  fail_unless (strstr (err->message, "no-such-device-xyz") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "pocl-opencl-icd") != NULL, "%s", err->message);
  g_clear_error (&err);
  g_free (debug);
}

GST_END_TEST;

/* a real pipeline with negotiation against videotestsrc and videoconvert */
GST_START_TEST (test_pipeline)
{
  GError *err = NULL;
  gchar *debug = NULL;
  gboolean ok = run_one_frame_pipeline ("videoconvert ! clconvolve kernel=motionblur size=7 "
      "! videoconvert", &err, &debug);

  fail_unless (ok, "%s", err ? err->message : "no EOS");
}

GST_END_TEST;

/* ---------------------------------------------------------------- bad input and bounded memory */

/* A harness for c on the unified or the discrete path, its element on a bus of its own. */
static GstHarness *
harness_with_bus (const Case * c, gboolean discrete, GstBus ** bus)
{
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  GstHarness *h;
  gchar *caps = caps_string (c);

  apply_case (e, c);
  h = harness_on_path (e, discrete);
  gst_object_unref (e);
  *bus = gst_bus_new ();
  gst_element_set_bus (h->element, *bus);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  g_free (caps);
  return h;
}

/* The program fails to build when caps are set, before any frame: set_info asks for the
 * kernels, so the element posts LIBRARY/INIT with the build log at negotiation, and the first
 * buffer is refused instead of failing mid-stream. */
GST_START_TEST (test_build_failure_at_negotiation)
{
  Case c = { CASE_DEFAULTS, .method = "float4" };
  gchar *saved;
  gchar *path = broken_source_begin ("nothing", &saved);
  gchar *caps = caps_string (&c);
  GstVideoInfo info;
  GstHarness *h;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;

  h = harness_with_bus (&c, FALSE, &bus);
  broken_source_end (saved);

  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error on the bus once the caps were set");
  gst_message_parse_error (msg, &err, &debug);
  fail_unless (g_error_matches (err, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_INIT),
      "unexpected error %s", err->message);
  fail_unless (debug && strstr (debug, "nothing"), "debug text lacks the build log: %s", debug);
  {
    GstCaps *cc = gst_caps_from_string (caps);

    fail_unless (gst_video_info_from_caps (&info, cc));
    gst_caps_unref (cc);
  }
  fail_if (gst_harness_push (h, gst_harness_create_buffer (h, info.size)) == GST_FLOW_OK,
      "a frame was accepted after the build failed");
  fail_unless_equals_int (gst_harness_buffers_received (h), 0);

  gst_message_unref (msg);
  g_clear_error (&err);
  g_free (debug);
  gst_harness_teardown (h);
  gst_object_unref (bus);
  g_unlink (path);
  g_free (path);
  g_free (caps);
}

GST_END_TEST;

/* Pushes buf, which the element must drop: no output, one warning on bus naming the problem
 * (needle), and the stream goes on. */
static void
push_dropped (GstHarness * h, GstBus * bus, GstBuffer * buf, const gchar * needle,
    const gchar * what)
{
  GstMessage *msg;
  GError *err = NULL;
  GstBuffer *out;

  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  out = gst_harness_try_pull (h);
  fail_unless (out == NULL, "%s: a frame came out", what);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING, "%s: no warning", what);
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "invalid input frame") && strstr (err->message, needle),
      "%s: warning '%s' lacks '%s'", what, err->message, needle);
  g_clear_error (&err);
  gst_message_unref (msg);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR) == NULL,
      "%s: more than one message", what);
}

/* An RGBA frame of c's caps size (no padding) with a GstVideoMeta of the given offset,
 * stride and format. */
static GstBuffer *
meta_buffer (const Case * c, gsize size, gsize offset, gint stride, GstVideoFormat format)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  gsize offsets[GST_VIDEO_MAX_PLANES] = { offset };
  gint strides[GST_VIDEO_MAX_PLANES] = { stride };

  fill_garbage (buf);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, format, c->width, c->height,
      1, offsets, strides);
  return buf;
}

/* Input buffers that are not the frame their caps say (truncated, or with a GstVideoMeta whose
 * planes leave the memory or contradict the caps) are dropped with a warning on either path:
 * nothing is read past their memory and no unfilled frame goes downstream; the frames around
 * them match the reference. */
GST_START_TEST (test_invalid_input_frames)
{
  gboolean discrete = __i__;
  Case c = { CASE_DEFAULTS, .width = 67, .height = 35, .kernel = "sharpen", .size = 3,
    .method = "float4"
  };
  gsize row = 67 * 4, size = row * 35;
  GstBus *bus;
  GstHarness *h = harness_with_bus (&c, discrete, &bus);

  check_frame (h, &c, 1);
  push_dropped (h, bus, meta_buffer (&c, size, 0, 4 * row, GST_VIDEO_FORMAT_RGBA),
      "runs past the end", "a meta with four times the stride");
  check_frame (h, &c, 2);
  push_dropped (h, bus, meta_buffer (&c, size, size - row, row, GST_VIDEO_FORMAT_RGBA),
      "runs past the end", "a meta whose plane starts at the last row");
  push_dropped (h, bus, meta_buffer (&c, size, 2 * size, row, GST_VIDEO_FORMAT_RGBA),
      "could not be mapped", "a meta whose plane starts past the memory");
  push_dropped (h, bus, meta_buffer (&c, size, 0, row - 4, GST_VIDEO_FORMAT_RGBA),
      "shorter than its rows", "a meta whose stride is shorter than a row");
  push_dropped (h, bus, meta_buffer (&c, size, 0, row, GST_VIDEO_FORMAT_BGRA),
      "contradicts the caps", "a meta of another format");
  check_frame (h, &c, 3);
  {
    GstBuffer *half = gst_buffer_new_allocate (NULL, size / 2, NULL);

    fill_garbage (half);
    push_dropped (h, bus, half, "holds 4690 bytes", "a buffer of half the frame");
    push_dropped (h, bus, gst_buffer_new (), "holds 0 bytes", "an empty buffer");
  }
  check_frame (h, &c, 4);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The same for a plane of a planar format: I420 whose V plane's offset in the meta lies in the
 * last bytes of the buffer. A correct frame before and after it comes out. */
GST_START_TEST (test_invalid_planar_frame)
{
  gboolean discrete = __i__;
  GstVideoInfo info;
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  GstHarness *h = harness_on_path (e, discrete);
  GstBus *bus = gst_bus_new ();
  const gchar *caps = "video/x-raw,format=I420,width=64,height=48,framerate=30/1";
  GstBuffer *buf, *out;
  gsize offsets[GST_VIDEO_MAX_PLANES];
  gint strides[GST_VIDEO_MAX_PLANES];

  gst_object_unref (e);
  gst_element_set_bus (h->element, bus);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, 64, 48);
  for (gint p = 0; p < 3; p++) {
    offsets[p] = GST_VIDEO_INFO_PLANE_OFFSET (&info, p);
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p);
  }
  for (gint i = 0; i < 3; i++) {
    buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
    fill_garbage (buf);
    if (i == 1)
      offsets[2] = GST_VIDEO_INFO_SIZE (&info) - 10;
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_I420, 64,
        48, 3, offsets, strides);
    offsets[2] = GST_VIDEO_INFO_PLANE_OFFSET (&info, 2);
    if (i == 1) {
      push_dropped (h, bus, buf, "plane 2", "I420 with its V plane in the last bytes");
      continue;
    }
    out = gst_harness_push_and_pull (h, buf);
    fail_unless (out != NULL, "no output for a correct I420 frame");
    gst_buffer_unref (out);
  }
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR) == NULL);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

static guint
stats_uint (GstHarness * h, const gchar * field)
{
  GstStructure *st = NULL;
  guint v = 0;

  g_object_get (h->element, "stats", &st, NULL);
  fail_unless (st && gst_structure_get_uint (st, field, &v), "%s", struct_text (st));
  gst_structure_free (st);
  return v;
}

/* A harness on a context of the element's own, over a new OpenCL context: its program
 * counts start from zero (the device's default context is kept for the process, with the
 * programs of the tests before). */
static GstHarness *
harness_own_context (const Case * c)
{
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  cl_device_id device;
  cl_context cl = app_context (&device);
  GstContext *given = app_gst_context (cl, device);
  gchar *caps = caps_string (c);
  GstHarness *h;

  apply_case (e, c);
  gst_element_set_context (e, given);
  h = harness_on_path (e, FALSE);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  /* the element's context holds the OpenCL one from here */
  gst_object_unref (e);
  gst_context_unref (given);
  clReleaseContext (cl);
  g_free (caps);
  return h;
}

/* The device's programs stay bounded however the settings change: with at most 2 idle
 * programs, 8 settings that each need a program of their own (float4 at sizes 7-21, after the
 * first frame's 5) leave at most the one in use and 2 idle, and every frame matches the
 * reference (the kernel in use is never released). The border changes with each setting too,
 * and alone builds nothing on a CPU: it is an argument of the kernels, not a build option. */
GST_START_TEST (test_programs_bounded)
{
  Case c = { CASE_DEFAULTS, .width = 23, .height = 17, .kernel = "box", .method = "float4" };
  GstHarness *h;
  guint built0, built, after;
  DeviceFacts d;

  /* read when a context is created */
  g_setenv ("GST_CLCONVOLVE_IDLE_PROGRAMS", "2", TRUE);
  h = harness_own_context (&c);
  check_frame (h, &c, 0);
  g_unsetenv ("GST_CLCONVOLVE_IDLE_PROGRAMS");
  built0 = stats_uint (h, "programs-built");
  for (gint i = 0; i < 8; i++) {
    c.size = 7 + 2 * i;
    c.border = border_names[(i + 1) % 4];
    apply_case (h->element, &c);
    check_frame (h, &c, 10 + i);
    fail_unless (stats_uint (h, "programs-held") <= 3, "%d settings: %u programs held", i + 1,
        stats_uint (h, "programs-held"));
  }
  built = stats_uint (h, "programs-built");
  for (gint i = 0; i < 4; i++) {
    c.border = border_names[i];
    apply_case (h->element, &c);
    check_frame (h, &c, 30 + i);
  }
  after = stats_uint (h, "programs-built");
  gst_harness_teardown (h);
  fail_unless (built >= built0 + 8, "only %u programs built for 8 sizes", built - built0);
  /* (GPUs compile the rule in: a program per border there) */
  fail_unless (suite_device_facts (&d), "OpenCL does not know the suite's device");
  fail_unless (d.local_mem_dedicated || after == built, "%u programs built for the 4 borders "
      "alone", after - built);
}

GST_END_TEST;

#ifdef __GLIBC__
/* 32 MB of heap in blocks of 64 KB (under malloc's mmap threshold) that a thread of its own
 * allocates, touches and frees, keeping its arena (no other thread takes it while it lives) and
 * the highest block (else free() gives the top of the heap back by itself); the thread ends at
 * its push of anything to done. */
typedef struct
{
  GAsyncQueue *ready, *done;
  guintptr freed[512];          /* the blocks freed */
  gint n;
} FreedHeap;

#define FREED_BLOCK (64 * 1024)

static gpointer
freed_heap_main (gpointer data)
{
  FreedHeap *f = data;
  gpointer blocks[G_N_ELEMENTS (f->freed) + 1];
  gint top = 0;

  for (gint i = 0; i < (gint) G_N_ELEMENTS (blocks); i++) {
    blocks[i] = malloc (FREED_BLOCK);
    memset (blocks[i], 1, FREED_BLOCK);
    if (blocks[i] > blocks[top])
      top = i;
  }
  for (gint i = 0; i < (gint) G_N_ELEMENTS (blocks); i++)
    if (i != top) {
      f->freed[f->n++] = (guintptr) blocks[i];
      free (blocks[i]);
    }
  g_async_queue_push (f->ready, f);
  g_async_queue_pop (f->done);
  free (blocks[top]);
  return NULL;
}

/* The share of the freed blocks' pages resident in memory (mincore), each block's first page
 * left out (malloc's bookkeeping of a free chunk lies there) */
static gdouble
resident_share (const FreedHeap * f)
{
  guintptr page = (guintptr) sysconf (_SC_PAGESIZE);
  gsize n = 0, in = 0;
  guchar vec[FREED_BLOCK / 4096];

  for (gint b = 0; b < f->n; b++) {
    guintptr lo = ((f->freed[b] + page - 1) & ~(page - 1)) + page;
    guintptr hi = (f->freed[b] + FREED_BLOCK) & ~(page - 1);
    gsize pages = (hi - lo) / page;

    fail_unless (pages <= G_N_ELEMENTS (vec) && mincore ((gpointer) lo, hi - lo, vec) == 0,
        "mincore: %s", g_strerror (errno));
    for (gsize i = 0; i < pages; i++)
      in += vec[i] & 1;
    n += pages;
  }
  return (gdouble) in / n;
}
#endif

/* The worker gives the heap the process freed back to the system once it has run a job (glibc
 * keeps freed heap in its arenas: builds free most of what LLVM and PoCL allocate for them) */
GST_START_TEST (test_worker_trims_heap)
{
#ifdef __GLIBC__
  Case c = { CASE_DEFAULTS, .width = 23, .height = 17, .kernel = "box", .method = "float4" };
  FreedHeap f = { g_async_queue_new (), g_async_queue_new (), {0}, 0 };
  GThread *thread = g_thread_new ("freed-heap", freed_heap_main, &f);
  gdouble after;
  GstHarness *h;

  /* first, whether malloc_trim gives such pages back in this process at all (not where a
   * sanitizer's allocator or a preloaded one serves malloc) */
  g_async_queue_pop (f.ready);
  malloc_trim (0);
  after = resident_share (&f);
  g_async_queue_push (f.done, &f);
  g_thread_join (thread);
  if (after <= 0.25) {
    f.n = 0;
    thread = g_thread_new ("freed-heap", freed_heap_main, &f);
    /* without a trim, these pages stay resident for good */
    g_async_queue_pop (f.ready);
    /* a context of its own: a worker that has not trimmed yet, so it trims after its first
     * job (the workers of the contexts of earlier tests may trim too) */
    h = harness_own_context (&c);
    check_frame (h, &c, 0);
    for (gint i = 0; i < 100 && (after = resident_share (&f)) > 0.25; i++)
      g_usleep (100 * 1000);
    gst_harness_teardown (h);
    g_async_queue_push (f.done, &f);
    g_thread_join (thread);
    fail_unless (after <= 0.25, "%.0f %% of 32 MB of freed heap still resident 10 s after a "
        "build", 100 * after);
  } else {
    GST_INFO ("malloc_trim gives nothing back here (%.0f %% resident): nothing to check",
        100 * after);
  }
  g_async_queue_unref (f.ready);
  g_async_queue_unref (f.done);
#endif
}

GST_END_TEST;

/* method=auto keeps only the program it chose: the candidates it timed and dropped are
 * released as soon as it has chosen */
GST_START_TEST (test_tuning_releases_candidates)
{
  Case c = { CASE_DEFAULTS, .format = "GRAY8", .width = 64, .height = 48, .kernel = "gaussian",
    .size = 7, .tune = TRUE
  };
  GstHarness *h = harness_own_context (&c);

  check_frame (h, &c, 1);
  fail_unless_equals_int (stats_uint (h, "tunings"), 1);
  fail_unless (stats_uint (h, "programs-built") >= 3, "%u programs built",
      stats_uint (h, "programs-built"));
  fail_unless_equals_int (stats_uint (h, "programs-held"), 1);
  check_frame (h, &c, 2);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Coefficients that are not finite floats once divided (or whose weighted sums would overflow
 * float) are refused with a warning naming the problem, whichever property leads to them, and
 * the stream goes on with the previous kernel: nine 1e308 (the automatic divisor overflows),
 * box with divisor 1e-300, and a size that makes a tiny divisor's sums overflow. */
GST_START_TEST (test_unusable_coefficients)
{
  Case c = { CASE_DEFAULTS, .kernel = "box", .size = 3, .method = "float4" };
  GstHarness *h = harness_for (&c);
  guint handler = g_log_set_handler ("clconvolve", G_LOG_LEVEL_WARNING, count_warning, NULL);
  gdouble divisor;
  gint size;

  check_frame (h, &c, 1);
  ASSERT_OUR_WARNING (g_object_set (h->element, "matrix", "1e308 1e308 1e308; 1e308 1e308 "
          "1e308; 1e308 1e308 1e308", NULL), "automatic divisor) overflows");
  check_frame (h, &c, 2);
  ASSERT_OUR_WARNING (g_object_set (h->element, "divisor", 1e-300, NULL), "overflows float");
  g_object_get (h->element, "divisor", &divisor, NULL);
  fail_unless (divisor == 0.0, "divisor %g", divisor);
  check_frame (h, &c, 3);
  ASSERT_OUR_WARNING (g_object_set (h->element, "divisor", 1e300, NULL), "underflows");
  check_frame (h, &c, 4);

  /* a divisor with which sharpen 1's weighted sums fit in float and sharpen 3's do not */
  {
    gdouble k1[1], k3[9];

    conv_preset_generate (CONV_PRESET_SHARPEN, 1, 0.0, 0.0, k1);
    conv_preset_generate (CONV_PRESET_SHARPEN, 3, 0.0, 0.0, k3);
    fail_unless (abs_sum (k3, 3) > 2.0 * abs_sum (k1, 1));
    c.kernel = "sharpen";
    c.size = 1;
    c.divisor = (abs_sum (k1, 1) + abs_sum (k3, 3)) / 2.0 * CONV_MAX_SAMPLE / G_MAXFLOAT;
  }
  apply_case (h->element, &c);
  check_frame (h, &c, 5);
  ASSERT_OUR_WARNING (g_object_set (h->element, "size", 3, NULL), "size 3 refused");
  g_object_get (h->element, "size", &size, NULL);
  fail_unless_equals_int (size, 1);
  check_frame (h, &c, 6);
  g_log_remove_handler ("clconvolve", handler);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A matrix written with decimal commas is refused with a warning that says so (read as
 * separators it would be 49 coefficients, a 7x7 matrix of 0s and 4s), and the previous kernel
 * stays. */
GST_START_TEST (test_decimal_comma_matrix)
{
  Case c = { CASE_DEFAULTS, .kernel = "sharpen", .size = 3, .method = "float4" };
  GstHarness *h = harness_for (&c);
  guint handler = g_log_set_handler ("clconvolve", G_LOG_LEVEL_WARNING, count_warning, NULL);
  GString *m = g_string_new (NULL);
  gint kernel;

  for (gint i = 0; i < 25; i++)
    g_string_append (m, i == 12 ? "0.04 " : "0,04 ");
  check_frame (h, &c, 1);
  ASSERT_OUR_WARNING (g_object_set (h->element, "matrix", m->str, NULL), "decimal comma");
  ASSERT_OUR_WARNING (g_object_set (h->element, "matrix", "1,5 2,5 1,5", NULL),
      "decimal comma");
  g_object_get (h->element, "kernel", &kernel, NULL);
  fail_unless_equals_int (kernel, CONV_PRESET_SHARPEN);
  check_frame (h, &c, 2);
  g_string_free (m, TRUE);
  g_log_remove_handler ("clconvolve", handler);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A matrix that its divisor leaves unable to change any sample (1e-30 at the centre: it sums to
 * about 0, so the automatic divisor is 1) posts one warning that says so; an all-zero matrix
 * one that says it is all zeros (no divisor would help); a small matrix that the automatic
 * divisor normalises (1e-3 at the centre) posts none. */
GST_START_TEST (test_vanishing_divisor)
{
  const struct
  {
    const gchar *matrix;
    guint warnings;
    const gchar *says;
  } cases[] = {
    {"0 0 0 0 1e-30 0 0 0 0", 1, "too small to change any sample"},
    {"0 0 0 0 0 0 0 0 0", 1, "is all zeros"},
    {"0 0 0 0 1e-3 0 0 0 0", 0, "too small to change any sample"}
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=3 ! "
        "video/x-raw,format=GRAY8,width=32,height=24 ! clconvolve matrix=\"%s\" ! fakesink",
        cases[i].matrix);
    GstElement *pipe = gst_parse_launch (desc, NULL);
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg;
    GstMessageType type = GST_MESSAGE_UNKNOWN;
    guint posted = 0, other = 0;

    gst_element_set_state (pipe, GST_STATE_PLAYING);
    while (type != GST_MESSAGE_EOS && type != GST_MESSAGE_ERROR &&
        (msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS |
                GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
      GError *err = NULL;

      type = GST_MESSAGE_TYPE (msg);
      if (type == GST_MESSAGE_WARNING) {
        gst_message_parse_warning (msg, &err, NULL);
        if (strstr (err->message, cases[i].says))
          posted++;
        else
          other++;
        g_clear_error (&err);
      }
      gst_message_unref (msg);
    }
    /* (the pipeline stopped before any check: a failure leaves nothing running) */
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipe);
    g_free (desc);
    fail_unless (type == GST_MESSAGE_EOS, "%s: no end of stream", cases[i].matrix);
    fail_unless (posted == cases[i].warnings && other == 0, "%s: %u warnings (%u others)",
        cases[i].matrix, posted, other);
  }
}

GST_END_TEST;

/* A method that cannot run the settings falls back with one warning on the bus (issue 43: the
 * docs promise it), not one per frame: method=tiled cannot combine two sums. */
GST_START_TEST (test_fallback_warned_once)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=5 ! "
      "video/x-raw,format=RGBA,width=32,height=24 ! clconvolve method=tiled kernel=sobel-x "
      "combine=magnitude ! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;
  guint posted = 0;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  while ((msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS |
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    GstMessageType type = GST_MESSAGE_TYPE (msg);
    GError *err = NULL;

    if (type == GST_MESSAGE_WARNING) {
      gst_message_parse_warning (msg, &err, NULL);
      fail_unless (strstr (err->message, "cannot combine") != NULL, "warning: %s",
          err->message);
      posted++;
      g_clear_error (&err);
    }
    gst_message_unref (msg);
    fail_if (type == GST_MESSAGE_ERROR, "the pipeline failed");
    if (type != GST_MESSAGE_WARNING)
      break;
  }
  fail_unless_equals_int (posted, 1);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* The caps of pad: its format's depth and whether it is memory:CLBuffer. */
static void
pad_caps (GstElement * e, const gchar * pad_name, gint * depth, gboolean * cl)
{
  GstPad *pad = gst_element_get_static_pad (e, pad_name);
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstVideoInfo info;

  fail_unless (caps && gst_video_info_from_caps (&info, caps), "no caps on %s", pad_name);
  *depth = GST_VIDEO_FORMAT_INFO_DEPTH (info.finfo, 0);
  *cl = gst_caps_features_contains (gst_caps_get_features (caps, 0), "memory:CLBuffer");
  gst_caps_unref (caps);
  gst_object_unref (pad);
}

/* First contact (issue 43): behind videoconvert, which takes every format, the element gets an
 * 8-bit format in system memory and gives system memory to a sink that takes anything; between
 * two elements the frames stay in memory:CLBuffer. */
GST_START_TEST (test_first_contact_caps)
{
  const gchar *lines[] = {
    "videotestsrc num-buffers=2 ! videoconvert ! clconvolve name=a ! fakesink",
    "videotestsrc num-buffers=2 ! clconvolve name=a ! clconvolve name=b ! fakesink",
  };

  for (guint l = 0; l < G_N_ELEMENTS (lines); l++) {
    GstElement *pipe = gst_parse_launch (lines[l], NULL), *a, *b;
    GstBus *bus = gst_element_get_bus (pipe);
    GstMessage *msg;
    gint depth;
    gboolean cl;

    gst_element_set_state (pipe, GST_STATE_PLAYING);
    msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s did not end", lines[l]);
    gst_message_unref (msg);
    a = gst_bin_get_by_name (GST_BIN (pipe), "a");
    b = gst_bin_get_by_name (GST_BIN (pipe), "b");
    pad_caps (a, "sink", &depth, &cl);
    fail_unless (depth == 8 && !cl, "%s: input of %d bits%s", lines[l], depth,
        cl ? " in memory:CLBuffer" : "");
    pad_caps (a, "src", &depth, &cl);
    fail_unless (cl == (b != NULL), "%s: output %s memory:CLBuffer", lines[l],
        cl ? "in" : "not in");
    if (b) {
      pad_caps (b, "src", &depth, &cl);
      fail_if (cl, "%s: memory:CLBuffer to fakesink", lines[l]);
      gst_object_unref (b);
    }
    gst_object_unref (a);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipe);
  }
}

GST_END_TEST;

/* device strings that can never match are refused when set: indices other than "P:D", auto
 * among indices; the empty default and the auto forms are taken */
GST_START_TEST (test_device_spec_refused)
{
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  guint handler = g_log_set_handler ("clconvolve", G_LOG_LEVEL_WARNING, count_warning, NULL);
  const gchar *refused[] = { "0:0:0", "1", "0:", ":0", "::", "0::1" };
  gchar *device;

  g_object_set (e, "device", "0:0", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    ASSERT_OUR_WARNING (g_object_set (e, "device", refused[i], NULL), "P:D");
    g_object_get (e, "device", &device, NULL);
    fail_unless_equals_string (device, "0:0");
    g_free (device);
  }
  /* auto places among kinds or names, not indices */
  ASSERT_OUR_WARNING (g_object_set (e, "device", "auto:0:1", NULL), "not among indices");
  ASSERT_OUR_WARNING (g_object_set (e, "device", "AUTO:1", NULL), "not among indices");
  for (guint i = 0; i < 3; i++) {
    const gchar *taken[] = { "auto", "auto:", "Auto:GPU" };

    g_object_set (e, "device", taken[i], NULL);
    g_object_get (e, "device", &device, NULL);
    fail_unless_equals_string (device, taken[i]);
    g_free (device);
  }
  g_object_set (e, "device", "cpu", NULL);
  g_object_get (e, "device", &device, NULL);
  fail_unless_equals_string (device, "cpu");
  g_free (device);
  /* the default, empty, is no indices at all */
  g_object_set (e, "device", "", NULL);
  g_object_get (e, "device", &device, NULL);
  fail_unless_equals_string (device, "");
  g_free (device);
  g_log_remove_handler ("clconvolve", handler);
  gst_object_unref (e);
}

GST_END_TEST;

static void
on_device_name (GObject * e, GParamSpec * pspec, gpointer data)
{
  GPtrArray *seen = data;
  gchar *name = NULL;

  g_object_get (e, "device-name", &name, NULL);
  g_ptr_array_add (seen, name ? name : g_strdup ("(null)"));
}

/* The device cannot change while the element runs: a new one is refused with a warning and the
 * property keeps the device in use; stopped, it is taken. device-name is notified only when it
 * changes: once at start (never a NULL first, which gst-launch -v printed), once at stop. */
GST_START_TEST (test_device_refused_while_running)
{
  GstElement *pipe = start_pipeline ("videotestsrc num-buffers=2 ! clconvolve name=c device=\"\" "
      "! fakesink", FALSE);
  GstElement *e = element_by_name (pipe, "c");
  guint handler = g_log_set_handler ("clconvolve", G_LOG_LEVEL_WARNING, count_warning, NULL);
  GPtrArray *seen = g_ptr_array_new_with_free_func (g_free);
  GstMessage *msg;
  gchar *device, *name = NULL;

  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  g_object_get (e, "device-name", &name, NULL);
  fail_unless (name != NULL);
  ASSERT_OUR_WARNING (g_object_set (e, "device", "cpu", NULL), "cannot change while");
  g_object_get (e, "device", &device, NULL);
  fail_unless_equals_string (device, "");
  g_free (device);

  g_signal_connect (e, "notify::device-name", G_CALLBACK (on_device_name), seen);
  fail_unless_equals_int (gst_element_set_state (pipe, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_set (e, "device", "cpu", NULL);
  g_object_get (e, "device", &device, NULL);
  fail_unless_equals_string (device, "cpu");
  g_free (device);
  g_object_set (e, "device", "", NULL);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE);
  fail_unless_equals_int (gst_element_get_state (pipe, NULL, NULL, 60 * GST_SECOND),
      GST_STATE_CHANGE_SUCCESS);
  stop_pipeline (pipe);
  /* stop (READY): NULL; start again: the name; stop: NULL */
  fail_unless_equals_int (seen->len, 3);
  fail_unless_equals_string (g_ptr_array_index (seen, 0), "(null)");
  fail_unless_equals_string (g_ptr_array_index (seen, 1), name);
  fail_unless_equals_string (g_ptr_array_index (seen, 2), "(null)");
  g_ptr_array_unref (seen);
  g_free (name);
  g_log_remove_handler ("clconvolve", handler);
}

GST_END_TEST;

/* Pushes a frame of c and fails unless the very same buffer comes out (passthrough). */
static void
check_passes_through (GstHarness * h, const Case * c, guint32 seed)
{
  guint8 *pixels;
  GstBuffer *in = make_input (c, seed, 0, &pixels), *out;
  gchar *what = describe (c);

  gst_buffer_ref (in);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (out == in, "%s: the buffer did not pass through", what);
  gst_buffer_unref (out);
  gst_buffer_unref (in);
  g_free (pixels);
  g_free (what);
}

/* The identity (the preset, or any matrix that divides to a 1 at the centre with no bias)
 * passes buffers through untouched, and the element convolves again when the settings change;
 * frames in flight leave before a frame that passes through, in order. */
GST_START_TEST (test_identity_passthrough)
{
  const gdouble two[9] = { 0, 0, 0, 0, 2, 0, 0, 0, 0 };
  Case id = { CASE_DEFAULTS, .kernel = "identity", .size = 3 };
  Case blur = { CASE_DEFAULTS, .kernel = "box", .size = 3 };
  Case scaled = { CASE_DEFAULTS, .kernel = NULL, .size = 3, .matrix = two, .divisor = 2 };
  Case biased = { CASE_DEFAULTS, .kernel = "identity", .size = 3, .bias = 9 };
  GstHarness *h = harness_for (&id);
  guint8 *pixels[4];
  GstBuffer *last;

  check_passes_through (h, &id, 1);
  apply_case (h->element, &blur);
  check_frame (h, &blur, 2);
  apply_case (h->element, &scaled);
  check_passes_through (h, &scaled, 3);
  apply_case (h->element, &biased);
  check_frame (h, &biased, 4);
  apply_case (h->element, &id);
  check_passes_through (h, &id, 5);
  gst_harness_teardown (h);

  /* three frames in flight, then the identity */
  h = harness_for (&blur);
  g_object_set (h->element, "max-inflight", 3, NULL);
  for (guint f = 0; f < 3; f++)
    fail_unless_equals_int (gst_harness_push (h, make_input (&blur, 10 + f, f * GST_SECOND,
                &pixels[f])), GST_FLOW_OK);
  apply_case (h->element, &id);
  last = make_input (&id, 13, 3 * GST_SECOND, &pixels[3]);
  gst_buffer_ref (last);
  fail_unless_equals_int (gst_harness_push (h, last), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 4);
  for (guint f = 0; f < 4; f++) {
    GstBuffer *out = gst_harness_pull (h);

    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), f * GST_SECOND);
    if (f < 3) {
      gsize bytes = (gsize) blur.width * 4 * blur.height;
      guint8 *expect = g_malloc (bytes), *ties = g_malloc (bytes);
      gchar *where = NULL;
      gint worst;

      reference (&blur, pixels[f], expect, ties);
      worst = max_difference (&blur, out, expect, ties, &where);
      fail_unless (worst <= TOLERANCE, "frame %u in flight: off by %d at %s", f, worst, where);
      g_free (where);
      g_free (expect);
      g_free (ties);
    } else
      fail_unless (out == last, "the identity's frame did not pass through");
    gst_buffer_unref (out);
    g_free (pixels[f]);
  }
  gst_buffer_unref (last);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ---------------------------------------------------------------- shared contexts */

/* The OpenCL context object an element uses (its "context" property), a new reference. */
static GObject *
element_context (GstElement * e)
{
  GObject *ctx = NULL;

  g_object_get (e, "context", &ctx, NULL);
  fail_unless (ctx != NULL, "%s has no context", GST_ELEMENT_NAME (e));
  return ctx;
}

/* Two elements of one pipeline share one context (found by the context query or the
 * pipeline's have-context), and it is the one the pipeline keeps as gst.cl.context. */
GST_START_TEST (test_context_shared)
{
  GstElement *pipe = start_pipeline ("videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,"
      "width=64,height=48 ! clconvolve name=a kernel=box size=3 ! clconvolve name=b "
      "kernel=sharpen size=3 ! fakesink name=sink", FALSE);
  GstMessage *msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  GObject *a, *b, *kept = NULL;
  GstContext *c;

  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "no EOS");
  gst_message_unref (msg);
  a = element_context (element_by_name (pipe, "a"));
  b = element_context (element_by_name (pipe, "b"));
  fail_unless (a == b, "two contexts in one pipeline");
  c = gst_element_get_context (pipe, "gst.cl.context");
  fail_unless (c != NULL, "the pipeline kept no gst.cl.context");
  fail_unless (gst_structure_get (gst_context_get_structure (c), "context", G_TYPE_OBJECT,
          &kept, NULL) || gst_structure_get (gst_context_get_structure (c), "context",
          G_OBJECT_TYPE (a), &kept, NULL));
  fail_unless (kept == a, "the pipeline keeps another context");
  g_object_unref (kept);
  gst_context_unref (c);
  g_object_unref (a);
  g_object_unref (b);
  stop_pipeline (pipe);
}

GST_END_TEST;

static GstBusSyncReply
answer_need_context (GstBus * bus, GstMessage * msg, gpointer data)
{
  const gchar *type = NULL;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT &&
      gst_message_parse_context_type (msg, &type) && !g_strcmp0 (type, "gst.cl.context"))
    gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), data);
  return GST_BUS_PASS;
}

/* An application's OpenCL context, set on the element before it starts (loop 0) or given in
 * answer to its need-context message (loop 1), is the one it uses, and the frames match the
 * reference. */
GST_START_TEST (test_context_from_application)
{
  Case c = { CASE_DEFAULTS, .kernel = "emboss", .size = 3, .method = "float4" };
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  GstBus *bus = gst_bus_new ();
  cl_device_id device;
  cl_context cl = app_context (&device);
  GstContext *given = app_gst_context (cl, device);
  GObject *ctx;
  gpointer used = NULL;
  GstHarness *h;
  gchar *caps = caps_string (&c);

  apply_case (e, &c);
  gst_element_set_bus (e, bus);
  if (__i__ == 0)
    gst_element_set_context (e, given);
  else
    gst_bus_set_sync_handler (bus, answer_need_context, given, NULL);
  h = harness_on_path (e, FALSE);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  check_frame (h, &c, 1);
  ctx = element_context (h->element);
  g_object_get (ctx, "cl-context", &used, NULL);
  fail_unless (used == cl, "the element uses another OpenCL context than the application's");
  g_object_unref (ctx);
  gst_harness_teardown (h);
  gst_object_unref (e);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_context_unref (given);
  g_free (caps);
  clReleaseContext (cl);
}

GST_END_TEST;

static Suite *
clconvolve_suite (void)
{
  Suite *s = suite_create ("clconvolve");
  TCase *tc;

  tc = tcase_create ("device");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_device_available);
  tcase_add_test (tc, test_unknown_device);
  tcase_add_test (tc, test_build_failure);
  tcase_add_test (tc, test_build_failure_at_negotiation);
  tcase_add_test (tc, test_pipeline);
  tcase_add_test (tc, test_restart);
  tcase_add_test (tc, test_huge_frame_refused);

  tc = tcase_create ("context");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, NULL, stop_leftover_pipelines);
  tcase_add_test (tc, test_context_shared);
  tcase_add_loop_test (tc, test_context_from_application, 0, 2);

  tc = tcase_create ("output");
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_presets, 0, TEST_N_PRESETS);
  tcase_add_test (tc, test_gaussian_sigma);
  tcase_add_test (tc, test_unsharp);
  tcase_add_test (tc, test_rectangular);
  tcase_add_test (tc, test_custom_random);
  tcase_add_loop_test (tc, test_borders, 0, TEST_N_BORDERS);
  tcase_add_loop_test (tc, test_formats, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_frame_sizes);
  tcase_add_test (tc, test_low_rank);
  tcase_add_loop_test (tc, test_generic_kernels, 0, 2);
  tcase_add_test (tc, test_padded_strides);
  tcase_add_test (tc, test_caps_change);
  tcase_add_test (tc, test_method_used);
  tcase_add_test (tc, test_two_elements);

  tc = tcase_create ("properties");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_refused_values);
  tcase_add_test (tc, test_refused_matrix_midstream);
  tcase_add_loop_test (tc, test_live_changes, 0, 4);
  tcase_add_test (tc, test_controller);
  tcase_add_test (tc, test_stats);
  tcase_add_test (tc, test_stress_properties);
  tcase_add_loop_test (tc, test_switch_when_ready, 0, G_N_ELEMENTS (helpers));
  tcase_add_test (tc, test_device_spec_refused);
  tcase_add_test (tc, test_first_contact_caps);
  tcase_add_test (tc, test_fallback_warned_once);
  tcase_add_test (tc, test_vanishing_divisor);
  tcase_add_test (tc, test_device_refused_while_running);
  tcase_add_test (tc, test_identity_passthrough);

  /* the reliability checks, also run under the sanitizers (scripts/test) */
  tc = tcase_create ("reliability");
  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_invalid_input_frames, 0, 2);
  tcase_add_loop_test (tc, test_invalid_planar_frame, 0, 2);
  tcase_add_test (tc, test_programs_bounded);
  tcase_add_test (tc, test_tuning_releases_candidates);
  tcase_add_test (tc, test_worker_trims_heap);
  tcase_add_test (tc, test_unusable_coefficients);
  tcase_add_test (tc, test_slow_worker);
  tcase_add_test (tc, test_needed_build_first);
  tcase_add_test (tc, test_prepared_not_starved);
  tcase_add_test (tc, test_dropped_tuning_stops);
  tcase_add_test (tc, test_decimal_comma_matrix);

  return s;
}

int
main (int argc, char **argv)
{
  return run_device_suite (argc, argv, clconvolve_suite, "clconvolve", __FILE__, NULL);
}
