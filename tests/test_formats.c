/* clconvolve: YUV and 16-bit gray formats against the plain-C reference
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the element promises for I420, YV12, Y42B, Y444, NV12, NV21, YUY2, UYVY, GRAY8 and
 * GRAY16_LE (and the planes property on the 4-byte RGB formats), checked on every plane of
 * every output frame:
 *   - each selected component (planes=y, u, v, or auto: luma; r, g, b, a, or auto: r+g+b on
 *     RGB) is the reference convolution (tests/reference.c) of that component taken as an image
 *     of its own size, borders at its own edges: chroma of I420/YV12/NV12/NV21 is
 *     ceil(w/2) x ceil(h/2), of Y42B, YUY2 and UYVY ceil(w/2) x h, of Y444 w x h; tolerance
 *     1 LSB plus the rounding-tie rule of common.h (away from a tie at most a fraction
 *     of a component's samples may be off by one); 16-bit samples with bias x 257;
 *   - every other byte of the frame (unselected planes and components, the padding Y byte of an
 *     odd-width YUY2/UYVY row, alpha and padding bytes of RGB) is bit-exact equal to the input.
 * The components are taken out of and put back into the frame by this file's own table of each
 * format (fmts[] and sample_offset ()), not by the element's layout code nor GstVideoFormatInfo,
 * so that a wrong plane, byte order or subsampling in the element shows as a difference.
 *
 * Each harness and pipeline test runs on both paths: loop index bit 0 set means
 * GST_CLCONVOLVE_DISCRETE=1 (device buffers and bands=3, as on a GPU: frames of 29 to 48 rows
 * give 2 or 3 bands of 16-row work-groups, the last one short); clear means the device as it
 * is (PoCL works on pinned frames in place, and copies frames in system memory through
 * staging). The element's stats say which path each frame took. */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "convkernel.h"
#include "reference.h"

/* on the discrete path: bands of a few rows (work-group multiples), the last one short */
#define BANDS 3

#define PINNED_MEMORY "ClPinnedMemory"
/* the element's developer override: the generic programs alone */
#define GENERIC_ENV "GST_CLCONVOLVE_GENERIC"

/* ------------------------------------------------------------------------------- formats */

/* components: Y, U, V of YUV and gray formats (gray is Y), R, G, B, A of RGB ones */
enum
{
  COMP_Y,
  COMP_U,
  COMP_V,
  N_COMPS = 4
};

static const gchar *const yuv_names[N_COMPS] = { "Y", "U", "V", "A" };
static const gchar *const rgb_names[N_COMPS] = { "R", "G", "B", "A" };

typedef enum
{
  LAYOUT_GRAY,                  /* one plane of samples */
  LAYOUT_PLANAR,                /* Y, then U and V planes (in the order of u and v) */
  LAYOUT_SEMI,                  /* Y, then one plane of chroma pairs (bytes u and v of a pair) */
  LAYOUT_PACKED,                /* one plane of 4-byte macropixels: bytes y0, u, y1, v */
  LAYOUT_RGB,                   /* one plane of 4-sample pixels: samples rgba[] of R, G, B, A
                                 * (of Y, U, V, A where yuva is set) */
  LAYOUT_PLANAR_RGB,            /* a plane per component: rgba[] the planes of R, G, B, A */
  LAYOUT_RGB24                  /* one plane of 3-byte pixels: bytes rgba[] of R, G, B */
} LayoutKind;

typedef struct
{
  const gchar *name;
  LayoutKind layout;
  gint bps;                     /* bytes per sample */
  gint xsub, ysub;              /* chroma subsampling */
  gint u, v;                    /* planar: plane of U, V; semi, packed: byte in pair/macropixel */
  gint y0, y1;                  /* packed: bytes of the two Y samples of a macropixel */
  gint rgba[4];                 /* RGB: byte of R, G, B and A (-1: no alpha, a padding byte) */
  gint bits, shift;             /* 2-byte samples of fewer significant bits: how many and where
                                 * they start (0, 0: all 16) */
  gboolean yuva;                /* LAYOUT_RGB: the samples are Y, U, V, A (AYUV, VUYA) */
  gboolean be;                  /* 2-byte samples stored big-endian (GRAY16_BE) */
} Fmt;

static const Fmt fmts[] = {
  {"I420", LAYOUT_PLANAR, 1, 2, 2, 1, 2},
  {"YV12", LAYOUT_PLANAR, 1, 2, 2, 2, 1},
  {"Y42B", LAYOUT_PLANAR, 1, 2, 1, 1, 2},
  {"Y444", LAYOUT_PLANAR, 1, 1, 1, 1, 2},
  {"NV12", LAYOUT_SEMI, 1, 2, 2, 0, 1},
  {"NV21", LAYOUT_SEMI, 1, 2, 2, 1, 0},
  {"YUY2", LAYOUT_PACKED, 1, 2, 1, 1, 3, 0, 2},
  {"UYVY", LAYOUT_PACKED, 1, 2, 1, 0, 2, 1, 3},
  {"GRAY8", LAYOUT_GRAY, 1, 1, 1},
  {"GRAY16_LE", LAYOUT_GRAY, 2, 1, 1},
  /* RGB formats last (the YUV tests loop over the first N_YUV_FMTS) */
  {"RGBA", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {0, 1, 2, 3}},
  {"BGRA", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {2, 1, 0, 3}},
  {"ARGB", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {1, 2, 3, 0}},
  {"ABGR", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {3, 2, 1, 0}},
  {"RGBx", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {0, 1, 2, -1}},
  {"BGRx", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {2, 1, 0, -1}},
  {"xRGB", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {1, 2, 3, -1}},
  {"xBGR", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {3, 2, 1, -1}},
};

#define N_FMTS ((gint) G_N_ELEMENTS (fmts))
#define N_YUV_FMTS 10
#define N_RGB_FMTS (N_FMTS - N_YUV_FMTS)

/* 10, 12 and 16-bit YUV and the other semi-planar chroma sizes (test case "deep"): samples in
 * the low bits of their 2 bytes (I4xx) or the high bits (P01x), chroma at half or full width
 * and height (planar: plane 1 U, plane 2 V; semi: U then V in a pair). */
static const Fmt deep_fmts[] = {
  {"P010_10LE", LAYOUT_SEMI, 2, 2, 2, 0, 1, 0, 0, {0}, 10, 6},
  {"P012_LE", LAYOUT_SEMI, 2, 2, 2, 0, 1, 0, 0, {0}, 12, 4},
  {"P016_LE", LAYOUT_SEMI, 2, 2, 2, 0, 1},
  {"I420_10LE", LAYOUT_PLANAR, 2, 2, 2, 1, 2, 0, 0, {0}, 10, 0},
  {"I420_12LE", LAYOUT_PLANAR, 2, 2, 2, 1, 2, 0, 0, {0}, 12, 0},
  {"I422_10LE", LAYOUT_PLANAR, 2, 2, 1, 1, 2, 0, 0, {0}, 10, 0},
  {"I422_12LE", LAYOUT_PLANAR, 2, 2, 1, 1, 2, 0, 0, {0}, 12, 0},
  {"Y444_10LE", LAYOUT_PLANAR, 2, 1, 1, 1, 2, 0, 0, {0}, 10, 0},
  {"Y444_12LE", LAYOUT_PLANAR, 2, 1, 1, 1, 2, 0, 0, {0}, 12, 0},
  {"Y444_16LE", LAYOUT_PLANAR, 2, 1, 1, 1, 2},
  {"NV16", LAYOUT_SEMI, 1, 2, 1, 0, 1},
  {"NV24", LAYOUT_SEMI, 1, 1, 1, 0, 1},
  /* packed 4:4:4 with alpha (rgba[] holds the samples of Y, U, V, A) and 16-bit RGBA */
  {"AYUV", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {1, 2, 3, 0}, 0, 0, TRUE},
  {"VUYA", LAYOUT_RGB, 1, 1, 1, 0, 0, 0, 0, {2, 1, 0, 3}, 0, 0, TRUE},
  {"RGBA64_LE", LAYOUT_RGB, 2, 1, 1, 0, 0, 0, 0, {0, 1, 2, 3}},
  {"GBR", LAYOUT_PLANAR_RGB, 1, 1, 1, 0, 0, 0, 0, {2, 0, 1, -1}},
  {"GBRA", LAYOUT_PLANAR_RGB, 1, 1, 1, 0, 0, 0, 0, {2, 0, 1, 3}},
  /* 3-byte RGB and BGR; big-endian 16-bit gray */
  {"RGB", LAYOUT_RGB24, 1, 1, 1, 0, 0, 0, 0, {0, 1, 2, -1}},
  {"BGR", LAYOUT_RGB24, 1, 1, 1, 0, 0, 0, 0, {2, 1, 0, -1}},
  {"GRAY16_BE", LAYOUT_GRAY, 2, 1, 1, 0, 0, 0, 0, {0}, 0, 0, FALSE, TRUE},
};

#define N_DEEP_FMTS ((gint) G_N_ELEMENTS (deep_fmts))

static const Fmt *
find_fmt (const gchar * name)
{
  for (gint i = 0; i < N_FMTS; i++)
    if (!strcmp (fmts[i].name, name))
      return &fmts[i];
  for (gint i = 0; i < N_DEEP_FMTS; i++)
    if (!strcmp (deep_fmts[i].name, name))
      return &deep_fmts[i];
  g_assert_not_reached ();
  return NULL;
}

/* A format's significant bits per sample, and where they start in its container */
static gint
fmt_bits (const Fmt * f)
{
  return f->bits ? f->bits : 8 * f->bps;
}

/* A frame of a format and size: the rows of each plane as the element handles them (whole
 * macropixels and chroma pairs), and each component's image size. */
typedef struct
{
  const Fmt *f;
  gint width, height;
  gint n_planes, n_comps;
  gint row[4], rows[4];         /* bytes per row and rows of each plane */
  gint cw[N_COMPS], ch[N_COMPS];
  gboolean fields;              /* an interlaced frame: each field convolved alone */
} Geom;

/* Interlaced input for the tests that set it (test_interlaced; reset before every test):
 * the caps' interlace-mode (NULL: progressive) and, for mixed, whether the next frames are
 * flagged interlaced. */
static const gchar *test_interlace;
static gboolean test_frame_interlaced;

/* Samples a pixel of the packed RGB layouts holds */
static gint
pixel_samples (const Fmt * f)
{
  return f->layout == LAYOUT_RGB24 ? 3 : 4;
}

static void
geom_init (Geom * g, const gchar * format, gint w, gint h)
{
  const Fmt *f = find_fmt (format);
  gint cw = (w + f->xsub - 1) / f->xsub, ch = (h + f->ysub - 1) / f->ysub;
  gboolean rgb = f->layout == LAYOUT_RGB || f->layout == LAYOUT_PLANAR_RGB ||
      f->layout == LAYOUT_RGB24;

  memset (g, 0, sizeof (*g));
  g->f = f;
  g->fields = !g_strcmp0 (test_interlace, "interleaved") ||
      (!g_strcmp0 (test_interlace, "mixed") && test_frame_interlaced);
  g->width = w;
  g->height = h;
  g->cw[COMP_Y] = w;
  g->ch[COMP_Y] = h;
  g->n_comps = f->layout == LAYOUT_GRAY ? 1 : rgb ? (f->rgba[3] < 0 ? 3 : 4) : 3;
  for (gint c = 1; c < g->n_comps; c++) {
    g->cw[c] = rgb ? w : cw;
    g->ch[c] = rgb ? h : ch;
  }
  switch (f->layout) {
    case LAYOUT_GRAY:
      g->n_planes = 1;
      g->row[0] = w * f->bps;
      g->rows[0] = h;
      break;
    case LAYOUT_PLANAR:
      g->n_planes = 3;
      g->row[0] = w * f->bps;
      g->rows[0] = h;
      g->row[1] = g->row[2] = cw * f->bps;
      g->rows[1] = g->rows[2] = ch;
      break;
    case LAYOUT_SEMI:
      g->n_planes = 2;
      g->row[0] = w * f->bps;
      g->rows[0] = h;
      g->row[1] = 2 * cw * f->bps;
      g->rows[1] = ch;
      break;
    case LAYOUT_PACKED:
      g->n_planes = 1;
      g->row[0] = 4 * cw;
      g->rows[0] = h;
      break;
    case LAYOUT_RGB:
    case LAYOUT_RGB24:
      g->n_planes = 1;
      g->row[0] = pixel_samples (f) * w * f->bps;
      g->rows[0] = h;
      break;
    case LAYOUT_PLANAR_RGB:
      g->n_planes = g->n_comps;
      for (gint p = 0; p < g->n_planes; p++) {
        g->row[p] = w;
        g->rows[p] = h;
      }
      break;
  }
}

/* Whether the format's components are R, G, B (and A) */
static gboolean
is_rgb (const Fmt * f)
{
  return (f->layout == LAYOUT_RGB && !f->yuva) || f->layout == LAYOUT_PLANAR_RGB ||
      f->layout == LAYOUT_RGB24;
}

static const gchar *
comp_name (const Geom * g, gint c)
{
  return (is_rgb (g->f) ? rgb_names : yuv_names)[c];
}

static gsize
plane_bytes (const Geom * g, gint p)
{
  return (gsize) g->row[p] * g->rows[p];
}

static gsize
comp_samples (const Geom * g, gint c)
{
  return (gsize) g->cw[c] * g->ch[c];
}

/* Byte offset of sample (x, y) of component c in its plane (tight rows); *plane gets which. */
static gsize
sample_offset (const Geom * g, gint c, gint x, gint y, gint * plane)
{
  const Fmt *f = g->f;

  switch (f->layout) {
    case LAYOUT_GRAY:
      *plane = 0;
      return (gsize) y * g->row[0] + (gsize) x * f->bps;
    case LAYOUT_PLANAR:
      *plane = c == COMP_Y ? 0 : c == COMP_U ? f->u : f->v;
      return (gsize) y * g->row[*plane] + (gsize) x * f->bps;
    case LAYOUT_SEMI:
      *plane = c == COMP_Y ? 0 : 1;
      if (c == COMP_Y)
        return (gsize) y * g->row[0] + (gsize) x * f->bps;
      return (gsize) y * g->row[1] + (2 * (gsize) x + (c == COMP_U ? f->u : f->v)) * f->bps;
    case LAYOUT_RGB:
    case LAYOUT_RGB24:
      *plane = 0;
      return (gsize) y * g->row[0] + ((gsize) x * pixel_samples (f) + f->rgba[c]) * f->bps;
    case LAYOUT_PLANAR_RGB:
      *plane = f->rgba[c];
      return (gsize) y * g->row[*plane] + x;
    case LAYOUT_PACKED:
    default:
      *plane = 0;
      return (gsize) y * g->row[0] + (gsize) (c == COMP_Y ? x / 2 : x) * 4 +
          (c == COMP_Y ? (x & 1 ? f->y1 : f->y0) : c == COMP_U ? f->u : f->v);
  }
}

/* Components named by a planes value in gst-launch syntax ("auto", "y+u", "r+a", ...), as
 * bits 1 << component. auto is the flag 0: alone it means luma of YUV and gray (the gray plane
 * is y), R, G and B of RGB. A format only has its own components (RGBx has no alpha). */
static guint
selected_comps (const Geom * g, const gchar * planes)
{
  const gchar *const yuv[] = { "y", "u", "v", "a" }, *const rgb[] = { "r", "g", "b", "a" };
  gboolean named_rgb = is_rgb (g->f), any = FALSE;
  gchar **names = g_strsplit (planes, "+", -1);
  guint sel = 0;

  for (gchar ** n = names; *n; n++) {
    gboolean known = !strcmp (*n, "auto");

    for (gint c = 0; c < N_COMPS; c++) {
      if (!g_strcmp0 (*n, rgb[c]) || !g_strcmp0 (*n, yuv[c])) {
        known = any = TRUE;
        if (!g_strcmp0 (*n, named_rgb ? rgb[c] : yuv[c]))
          sel |= 1u << c;
      }
    }
    fail_unless (known, "unknown plane '%s' in '%s'", *n, planes);
  }
  g_strfreev (names);
  if (!any)
    sel = named_rgb ? 0x7 : 0x1;
  return sel & ((1u << g->n_comps) - 1);
}

/* ------------------------------------------------------------------------------- filters */

/* 5x5, no two coefficients alike, no symmetry: a transposed, flipped or shifted window, or
 * swapped components, change the result */
static const gdouble custom5[25] = {
  1.0, -2.0, 3.0, 0.5, 4.0,
  -1.0, 6.0, -3.0, 2.0, -0.25,
  7.0, 1.5, 9.0, -4.0, 2.5,
  0.75, -5.0, 3.5, 8.0, -6.0,
  2.25, -1.25, 5.0, -7.0, 10.0,
};

/* 9x9 with 7 non-zero coefficients, none at the centre, one in each corner: a tap read at the
 * wrong offset or from the wrong row changes the result */
static const gdouble sparse9[81] = {
  2.0, 0, 0, 0, 0, 0, 0, 0, -1.0,
  0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 3.5, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 1.25, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0,
  4.0, 0, 0, 0, 0, 0, 0, 0, 0.5,
};

typedef struct
{
  const gchar *kernel;          /* preset nick, or NULL for the matrix below */
  gint size;
  gdouble divisor, bias;        /* divisor 0: automatic */
  const gdouble *matrix;        /* size x size, kernel NULL; NULL: custom5 */
  gint combine;                 /* the combine property (RefCombine's order) */
  const gdouble *matrix_y;      /* its second matrix, size x size; NULL: the transpose */
} Filter;

static const Filter f_custom = { NULL, 5, 50.0, 100.0 };
static const Filter f_emboss = { "emboss", 5, 0.0, 0.0 };
static const Filter f_sobel = { "sobel-x", 3, 0.0, 128.0 };
static const Filter f_gauss7 = { "gaussian", 7, 0.0, 0.0 };
static const Filter f_sharpen = { "sharpen", 3, 0.0, 0.0 };
/* a radius (7) near the band height (16 rows): bands need rows of the next one, and with wrap
 * the first ones need the last */
static const Filter f_box15 = { "box", 15, 0.0, 0.0 };
/* method=vector's window reaches (8 NV + CHANNELS (size - 1)) samples per row: sizes that need
 * 1 to 11 extra float8 vectors of a row (at 1 and 4 channels), the largest on small frames */
static const Filter f_gauss9 = { "gaussian", 9, 0.0, 0.0 };
/* the split planes' window of 16 + 2 radius pixels fills its second 16-pixel vector exactly */
static const Filter f_gauss17 = { "gaussian", 17, 0.0, 0.0 };
/* dense and without symmetry at 31x31. Not a gaussian or box of that size: with 961 positive
 * taps on 16-bit samples every method (float4, tiled, vector) is off by one on 0.5-0.8 % of the
 * samples away from ties, over the rounding-tie rule of common.h (float32 sums; measured on
 * PoCL, GRAY16_LE 130x70) */
static const Filter f_emboss31 = { "emboss", 31, 0.0, 0.0 };
static const Filter f_motion63 = { "motionblur", 63, 0.0, 0.0 };
static const Filter f_sparse9 = { NULL, 9, 6.0, 20.0, sparse9 };
/* at 45 degrees: 91 of 961 coefficients non-zero, which method=auto runs sparse */
static const Filter f_motion31 = { "motionblur", 31, 0.0, 0.0 };

typedef enum
{
  INPUT_DEFAULT,                /* system memory, GStreamer's default layout, no meta */
  INPUT_PADDED,                 /* system memory, every plane's rows longer, GstVideoMeta */
  INPUT_POOL,                   /* a buffer of the pinned pool the element proposes */
  INPUT_POOL_PADDED             /* the same pool asked for padding around every plane (as a
                                 * decoder does): strides and plane offsets of its own */
} InputKind;

static const gchar *const input_names[] = { "default", "padded", "pinned pool",
  "padded pinned pool"
};

typedef struct
{
  const gchar *format;
  gint width, height;
  const gchar *planes;
  const Filter *filter;
  const gchar *border, *method;
  InputKind input;
} Case;

static gchar *
describe (const Case * c, gboolean discrete)
{
  const Filter *f = c->filter;

  return g_strdup_printf ("%s %dx%d planes=%s kernel=%s size=%d divisor=%g bias=%g border=%s "
      "method=%s input=%s path=%s", c->format, c->width, c->height, c->planes,
      f->kernel ? f->kernel : "custom", f->size, f->divisor, f->bias, c->border, c->method,
      input_names[c->input], discrete ? "discrete" : "unified");
}

static void
apply_filter (GstElement * e, const Filter * f)
{
  if (f->kernel) {
    gst_util_set_object_arg (G_OBJECT (e), "kernel", f->kernel);
    g_object_set (e, "size", f->size, NULL);
  } else {
    gchar *m = matrix_string (f->matrix ? f->matrix : custom5, f->size, "; ");

    g_object_set (e, "matrix", m, NULL);
    g_free (m);
  }
  g_object_set (e, "divisor", f->divisor, "bias", f->bias, "sigma", 0.0, "angle", 45.0,
      "combine", f->combine, NULL);
  if (f->matrix_y) {
    gchar *m = matrix_string (f->matrix_y, f->size, "; ");

    g_object_set (e, "matrix-y", m, NULL);
    g_free (m);
  }
}

static void
apply_case (GstElement * e, const Case * c)
{
  apply_filter (e, c->filter);
  gst_util_set_object_arg (G_OBJECT (e), "border", c->border);
  gst_util_set_object_arg (G_OBJECT (e), "method", c->method);
  gst_util_set_object_arg (G_OBJECT (e), "planes", c->planes);
  /* method=auto runs the fixed rules' choice (the tune suite checks tuned choices) */
  g_object_set (e, "autotune", FALSE, NULL);
}

/* ----------------------------------------------------------------------------- reference */

/* A frame as tight planes: row[p] bytes per row, rows[p] rows. */
typedef struct
{
  guint8 *p[4];
} Frame;

static void
frame_alloc (Frame * fr, const Geom * g)
{
  memset (fr, 0, sizeof (*fr));
  for (gint p = 0; p < g->n_planes; p++)
    fr->p[p] = g_malloc (plane_bytes (g, p));
}

static void
frame_clear (Frame * fr)
{
  for (gint p = 0; p < 4; p++)
    g_clear_pointer (&fr->p[p], g_free);
}

static guint
get_sample (const Geom * g, const Frame * fr, gint c, gint x, gint y)
{
  gint p;
  gsize o = sample_offset (g, c, x, y, &p);

  if (g->f->bps == 1)
    return fr->p[p][o];
  return g->f->be ? (fr->p[p][o] << 8) | fr->p[p][o + 1] : fr->p[p][o] | (fr->p[p][o + 1] << 8);
}

/* The value of component c's sample (x, y): its significant bits */
static guint
get_value (const Geom * g, const Frame * fr, gint c, gint x, gint y)
{
  return get_sample (g, fr, c, x, y) >> g->f->shift;
}

/* What an output frame must be: the expected samples of the convolved components (with their
 * near-tie marks) and, per byte of each plane, whether it belongs to one; all other bytes must
 * equal the input. */
typedef struct
{
  guint sel;                    /* 1 << COMP_* of the convolved components */
  gint *value[N_COMPS];
  guint8 *tie[N_COMPS];
  guint8 *covered[4];
  gsize changed[N_COMPS];       /* samples the filter changes (so the check can fail) */
} Expect;

static void
expect_clear (Expect * e)
{
  for (gint c = 0; c < N_COMPS; c++) {
    g_clear_pointer (&e->value[c], g_free);
    g_clear_pointer (&e->tie[c], g_free);
  }
  for (gint p = 0; p < 4; p++)
    g_clear_pointer (&e->covered[p], g_free);
}

/* The filter's coefficients and divisor as the reference applies them; k2 gets the second
 * matrix of magnitude and max (matrix_y, else k's transpose, transposed here). */
static void
filter_coefficients (const Filter * f, gdouble * k, gdouble * k2, gdouble * divisor)
{
  gint n = f->size;

  /* unsharp: amount 1 and the default sigma (the element's defaults, which apply_filter
   * leaves) */
  if (f->kernel && !strcmp (f->kernel, "unsharp"))
    conv_unsharp_generate (n, 0.0, 1.0, k);
  else if (f->kernel)
    conv_preset_generate (preset_from_nick (f->kernel), n, 0.0, 45.0, k);
  else
    memcpy (k, f->matrix ? f->matrix : custom5, sizeof (gdouble) * n * n);
  for (gint j = 0; j < n; j++)
    for (gint i = 0; i < n; i++)
      k2[j * n + i] = f->matrix_y ? f->matrix_y[j * n + i] : k[i * n + j];
  *divisor = f->divisor != 0.0 ? f->divisor : conv_auto_divisor (k, n);
}

/* Component c of in, convolved in double precision with bias shifted by -TIE_MARGIN, 0 and
 * TIE_MARGIN LSB, into out[0], out[1] and out[2] (cw x ch samples each; one pass of the
 * reference for the three). An interlaced frame's fields (rows of each parity) are convolved
 * apart, each a picture of its own. */
static void
convolve_comp (const Geom * g, const Frame * in, gint c, const Filter * f, RefBorder border,
    gint * out[3])
{
  gint w = g->cw[c], parts = g->fields ? 2 : 1;
  gsize n = comp_samples (g, c);
  gdouble *k = g_new (gdouble, CONV_MAX_SIZE * CONV_MAX_SIZE), divisor;
  gdouble *k2 = g_new (gdouble, CONV_MAX_SIZE * CONV_MAX_SIZE);
  gint max = (1 << fmt_bits (g->f)) - 1, bytes = g->f->bps;
  guint16 *src16 = g_new (guint16, n);
  guint8 *src8 = g_new (guint8, n);
  const gdouble delta[3] = { -TIE_MARGIN, 0.0, TIE_MARGIN };
  /* the element's bias is in 8-bit units: max / 255 per unit (257 on 16-bit samples); the
   * 16-bit reference saturates to 65535, a sample of fewer bits to its own maximum */
  gdouble bias = bytes == 2 ? f->bias * (max / 255.0) : f->bias, biases[3];
  void *dst[3];

  for (gint b = 0; b < 3; b++) {
    biases[b] = bias + delta[b];
    dst[b] = g_malloc (n * bytes);
  }
  filter_coefficients (f, k, k2, &divisor);
  for (gint part = 0; part < parts; part++) {
    /* the rows part, part + parts, ... of the component */
    gint h = (g->ch[c] - part + parts - 1) / parts;

    for (gint y = 0; y < h; y++)
      for (gint x = 0; x < w; x++) {
        src16[(gsize) y * w + x] = get_value (g, in, c, x, part + y * parts);
        src8[(gsize) y * w + x] = src16[(gsize) y * w + x];
      }
    if (h == 0)
      continue;
    ref_convolve_biases (bytes == 2 ? (void *) src16 : (void *) src8, w, dst, w, w, h, 1, 0,
        k, f->combine ? k2 : NULL, f->size, f->size, divisor, biases, border,
        (RefCombine) f->combine, bytes);
    for (gint b = 0; b < 3; b++)
      for (gint y = 0; y < h; y++)
        for (gint x = 0; x < w; x++) {
          gsize i = (gsize) y * w + x;

          out[b][(gsize) (part + y * parts) * w + x] = bytes == 2 ?
              MIN (((guint16 *) dst[b])[i], max) : ((guint8 *) dst[b])[i];
        }
  }
  for (gint b = 0; b < 3; b++)
    g_free (dst[b]);
  g_free (src16);
  g_free (src8);
  g_free (k);
  g_free (k2);
}

static void
expect_frame (const Geom * g, const Frame * in, guint sel, const Filter * f,
    const gchar * border_nick, Expect * e)
{
  RefBorder border = border_from_nick (border_nick);

  memset (e, 0, sizeof (*e));
  e->sel = sel;
  for (gint p = 0; p < g->n_planes; p++)
    e->covered[p] = g_malloc0 (plane_bytes (g, p));
  for (gint c = 0; c < g->n_comps; c++) {
    gsize n = comp_samples (g, c);
    gint *lo, *hi;

    if (!(sel & (1u << c)))
      continue;
    e->value[c] = g_new (gint, n);
    e->tie[c] = g_new (guint8, n);
    lo = g_new (gint, n);
    hi = g_new (gint, n);
    convolve_comp (g, in, c, f, border, (gint *[3]) { lo, e->value[c], hi });
    for (gint y = 0; y < g->ch[c]; y++) {
      for (gint x = 0; x < g->cw[c]; x++) {
        gsize i = (gsize) y * g->cw[c] + x;
        gint p;
        gsize o = sample_offset (g, c, x, y, &p);

        e->tie[c][i] = lo[i] != hi[i];
        e->covered[p][o] = 1;
        if (g->f->bps == 2)
          e->covered[p][o + 1] = 1;
        e->changed[c] += e->value[c][i] != (gint) get_value (g, in, c, x, y);
      }
    }
    g_free (lo);
    g_free (hi);
  }
}

/* Fails unless out is what e says for input in: every byte no convolved sample covers equal to
 * the input, every convolved sample within 1 LSB of the reference and, away from rounding
 * ties, at most MAX_OFF_BY_ONE_FRACTION of a component's samples (plus 2) off at all. */
static void
check_frame (const Geom * g, const Frame * in, const Frame * out, const Expect * e,
    const gchar * what)
{
  for (gint p = 0; p < g->n_planes; p++) {
    for (gint y = 0; y < g->rows[p]; y++) {
      for (gint x = 0; x < g->row[p]; x++) {
        gsize o = (gsize) y * g->row[p] + x;

        if (!e->covered[p][o] && out->p[p][o] != in->p[p][o])
          fail ("%s: plane %d byte %d of row %d is not convolved and must pass unchanged: "
              "got %u, input %u", what, p, x, y, out->p[p][o], in->p[p][o]);
      }
    }
  }
  for (gint c = 0; c < g->n_comps; c++) {
    gsize n = comp_samples (g, c);
    guint off = 0;
    gint worst = 0;
    gchar *where = NULL;

    if (!(e->sel & (1u << c)))
      continue;
    for (gint y = 0; y < g->ch[c]; y++) {
      for (gint x = 0; x < g->cw[c]; x++) {
        gsize i = (gsize) y * g->cw[c] + x;
        guint raw = get_sample (g, out, c, x, y);
        gint got = raw >> g->f->shift, d = abs (got - e->value[c][i]);

        /* the bits below a sample's (P010, P012) are zero */
        if (raw & ((1u << g->f->shift) - 1))
          d = G_MAXINT;
        if (d > TOLERANCE && !where)
          where = g_strdup_printf ("%s (%d,%d) of %dx%d: got %d (stored 0x%04x), reference "
              "%d (input %u)", comp_name (g, c), x, y, g->cw[c], g->ch[c], got, raw,
              e->value[c][i], get_value (g, in, c, x, y));
        worst = MAX (worst, d);
        off += d != 0 && !e->tie[c][i];
      }
    }
    fail_unless (worst <= TOLERANCE, "%s: off by %d (> %d LSB, or bits outside the sample's "
        "set) at %s", what, worst, TOLERANCE, where);
    fail_unless (off_away_from_ties_allowed (off, n), "%s: %u of %" G_GSIZE_FORMAT " %s "
        "samples away from rounding ties off by 1 (a systematic error)", what, off, n,
        comp_name (g, c));
  }
}

/* --------------------------------------------------------------------------------- frames */

static void
video_info (const Geom * g, GstVideoInfo * info)
{
  /* interlaced 4:2:0 frames have their own plane offsets (GStreamer pads the planes) */
  fail_unless (gst_video_info_set_interlaced_format (info,
          gst_video_format_from_string (g->f->name), test_interlace ?
          gst_video_interlace_mode_from_string (test_interlace) :
          GST_VIDEO_INTERLACE_MODE_PROGRESSIVE, g->width, g->height));
}

static gchar *
caps_string (const gchar * format, gint w, gint h)
{
  return g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,framerate=30/1%s%s",
      format, w, h, test_interlace ? ",interlace-mode=" : "",
      test_interlace ? test_interlace : "");
}

/* The least 8-bit sample random_frame draws (test_saturated raises it) */
static gint random_floor;

/* Random content: 8-bit samples uniform (from random_floor); 2-byte ones a mix of the whole range and values
 * within 1/128 of it of 0 and of the maximum (saturation at both ends), in their bits. */
static void
random_frame (const Geom * g, guint32 seed, Frame * fr)
{
  GRand *rand = g_rand_new_with_seed (seed);

  frame_alloc (fr, g);
  for (gint p = 0; p < g->n_planes; p++) {
    if (g->f->bps == 2) {
      gint range = 1 << fmt_bits (g->f);

      for (gsize i = 0; i + 1 < plane_bytes (g, p); i += 2) {
        guint v = g_rand_int_range (rand, 0, range);

        switch (g_rand_int_range (rand, 0, 4)) {
          case 1:
            v = range - 1 - g_rand_int_range (rand, 0, range / 128);
            break;
          case 2:
            v = g_rand_int_range (rand, 0, range / 128);
            break;
          default:
            break;
        }
        v <<= g->f->shift;
        fr->p[p][i + g->f->be] = v & 0xff;
        fr->p[p][i + !g->f->be] = v >> 8;
      }
    } else {
      for (gsize i = 0; i < plane_bytes (g, p); i++)
        fr->p[p][i] = g_rand_int_range (rand, random_floor, 256);
    }
  }
  g_rand_free (rand);
}

/* Writes fr into buf through a GstVideoFrame (honouring its GstVideoMeta); every other byte of
 * buf is garbage first. */
static void
fill_buffer (GstBuffer * buf, const Geom * g, const Frame * fr)
{
  GstVideoInfo info;
  GstVideoFrame frame;

  fill_garbage (buf);
  video_info (g, &info);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  for (gint p = 0; p < g->n_planes; p++) {
    fail_unless (GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p) >= g->row[p]);
    for (gint y = 0; y < g->rows[p]; y++)
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
          fr->p[p] + (gsize) y * g->row[p], g->row[p]);
  }
  gst_video_frame_unmap (&frame);
}

/* The planes of buf (its format described by g), tight. */
static void
read_buffer (GstBuffer * buf, const Geom * g, Frame * fr)
{
  GstVideoInfo info;
  GstVideoFrame frame;

  video_info (g, &info);
  frame_alloc (fr, g);
  fail_unless (gst_video_frame_map (&frame, &info, buf, GST_MAP_READ));
  fail_unless_equals_int (GST_VIDEO_FRAME_N_PLANES (&frame), g->n_planes);
  for (gint p = 0; p < g->n_planes; p++)
    for (gint y = 0; y < g->rows[p]; y++)
      memcpy (fr->p[p] + (gsize) y * g->row[p],
          (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p) +
          (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p), g->row[p]);
  gst_video_frame_unmap (&frame);
}

/* System memory with each plane's rows padded by a different odd (even for 16-bit) amount and
 * gaps between the planes, described by GstVideoMeta. */
static GstBuffer *
padded_buffer (const Geom * g)
{
  gsize offsets[GST_VIDEO_MAX_PLANES] = { 0 };
  gint strides[GST_VIDEO_MAX_PLANES] = { 0 };
  gsize at = 64;
  GstBuffer *buf;

  for (gint p = 0; p < g->n_planes; p++) {
    offsets[p] = at;
    strides[p] = g->row[p] + (g->f->bps == 2 ? 6 + 4 * p : 5 + 2 * p);
    at += (gsize) strides[p] * g->rows[p] + 24;
  }
  buf = gst_buffer_new_allocate (NULL, at, NULL);
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      gst_video_format_from_string (g->f->name), g->width, g->height, g->n_planes, offsets,
      strides);
  return buf;
}

/* The pool the element proposes upstream for g's caps, active; padded: with a
 * GstVideoAlignment of padding on every side. */
static GstBufferPool *
proposed_pool (GstHarness * h, const Geom * g, gboolean padded)
{
  gchar *str = caps_string (g->f->name, g->width, g->height);
  GstCaps *caps = gst_caps_from_string (str);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;

  fail_unless (gst_pad_peer_query (h->srcpad, query), "no allocation answer for %s", str);
  fail_unless (gst_query_get_n_allocation_pools (query) > 0, "no pool proposed for %s", str);
  gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  fail_unless (pool != NULL);
  if (!gst_buffer_pool_is_active (pool)) {
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_set_params (config, caps, size, min, max);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (padded) {
      GstVideoAlignment align;

      gst_video_alignment_reset (&align);
      align.padding_top = 2;
      align.padding_bottom = 4;
      align.padding_left = 4;
      align.padding_right = 14;
      fail_unless (gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT));
      gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
      gst_buffer_pool_config_set_video_alignment (config, &align);
    }
    fail_unless (gst_buffer_pool_set_config (pool, config));
    fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  }
  gst_query_unref (query);
  gst_caps_unref (caps);
  g_free (str);
  return pool;
}

static GstBuffer *
make_buffer (const Geom * g, InputKind kind, GstBufferPool * pool, const Frame * fr)
{
  GstBuffer *buf = NULL;
  GstVideoInfo info;

  video_info (g, &info);
  switch (kind) {
    case INPUT_DEFAULT:
      buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      break;
    case INPUT_PADDED:
      buf = padded_buffer (g);
      break;
    case INPUT_POOL:
    case INPUT_POOL_PADDED:
      fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL), GST_FLOW_OK);
      fail_unless (gst_memory_is_type (gst_buffer_peek_memory (buf, 0), PINNED_MEMORY));
      if (kind == INPUT_POOL_PADDED) {
        GstVideoMeta *meta = gst_buffer_get_video_meta (buf);

        fail_unless (meta && meta->offset[0] > 0 && meta->stride[0] > g->row[0],
            "the pool did not pad the frame");
      }
      break;
  }
  fill_buffer (buf, g, fr);
  if (test_frame_interlaced)
    GST_BUFFER_FLAG_SET (buf, GST_VIDEO_BUFFER_FLAG_INTERLACED);
  return buf;
}

/* ---------------------------------------------------------------------------- harnesses */

static GstHarness *
start_harness (const Case * c, gboolean discrete)
{
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  GstHarness *h;
  gchar *caps = caps_string (c->format, c->width, c->height);

  fail_unless (e != NULL);
  g_object_set (e, "bands", BANDS, NULL);
  apply_case (e, c);
  h = harness_on_path (e, discrete);
  gst_object_unref (e);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, caps);
  g_free (caps);
  return h;
}

/* The element's input and output paths for the last frame: discrete ones when it was forced
 * to the discrete path, the pinned one for pinned input. */
static void
check_paths (GstElement * e, InputKind kind, gboolean discrete, const gchar * what)
{
  GstStructure *st = NULL;
  const gchar *in, *out;
  gboolean dma;

  g_object_get (e, "stats", &st, NULL);
  fail_unless (st != NULL);
  in = gst_structure_get_string (st, "input-path");
  out = gst_structure_get_string (st, "output-path");
  fail_unless (in && out, "%s: %s", what, struct_text (st));
  dma = g_str_has_suffix (out, "-dma");
  fail_unless (dma || !discrete, "%s: forced discrete, but output-path is %s", what, out);
  fail_unless (!strcmp (out, dma ? "pinned-dma" : "in-place"), "%s: output-path %s", what, out);
  if (kind == INPUT_POOL || kind == INPUT_POOL_PADDED)
    fail_unless (!strcmp (in, dma ? "pinned-dma" : "in-place"), "%s: a frame of the proposed "
        "pinned pool took input-path %s", what, in);
  else
    fail_unless (!strcmp (in, "staging-copy"), "%s: system memory took input-path %s", what,
        in);
  gst_structure_free (st);
}

/* Pushes one random frame of c (seeded) and checks the output's every plane. */
static void
push_and_check (GstHarness * h, const Case * c, gboolean discrete, GstBufferPool * pool,
    guint32 seed)
{
  Geom g;
  Frame in, out;
  Expect e;
  GstBuffer *buf;
  gchar *what = describe (c, discrete), *full;

  geom_init (&g, c->format, c->width, c->height);
  random_frame (&g, seed, &in);
  buf = gst_harness_push_and_pull (h, make_buffer (&g, c->input, pool, &in));
  fail_unless (buf != NULL, "%s: no output", what);
  read_buffer (buf, &g, &out);
  gst_buffer_unref (buf);

  expect_frame (&g, &in, selected_comps (&g, c->planes), c->filter, c->border, &e);
  full = g_strdup_printf ("%s seed=%u", what, seed);
  check_frame (&g, &in, &out, &e, full);
  check_paths (h->element, c->input, discrete, full);

  expect_clear (&e);
  frame_clear (&in);
  frame_clear (&out);
  g_free (full);
  g_free (what);
}

/* Whether variant is the one expected (ran: its prefix). On NVIDIA GPUs the tensor-core
 * kernel may stand for the GPU's other separable kernels: the fixed rules take it for large
 * blurs, and at every size with GST_CLCONVOLVE_TENSOR=2 (so that a forced run checks it on
 * every blur case); not with GST_CLCONVOLVE_TENSOR=0. */
static gboolean
ran_as_expected (const gchar * variant, const gchar * ran)
{
  if (g_str_has_prefix (variant, ran))
    return TRUE;
  return g_strcmp0 (g_getenv ("GST_CLCONVOLVE_TENSOR"), "0") &&
      g_str_has_prefix (variant, "separable tensor") &&
      (g_str_has_prefix (ran, "separable local") || g_str_has_prefix (ran, "separable box"));
}

/* Runs c on a new harness: frames frames of different content (in a mixed interlaced stream,
 * progressive and interlaced by turns), from the second on with border2 (if not NULL); ran
 * (if not NULL): the prefix of the variant the first frame's first pixel shape must run. */
static void
run_case_then (const Case * c, gboolean discrete, guint frames, guint32 seed,
    const gchar * border2, const gchar * ran)
{
  GstHarness *h = start_harness (c, discrete);
  GstBufferPool *pool = NULL;
  Case later = *c;

  if (c->input == INPUT_POOL || c->input == INPUT_POOL_PADDED) {
    Geom g;

    geom_init (&g, c->format, c->width, c->height);
    pool = proposed_pool (h, &g, c->input == INPUT_POOL_PADDED);
  }
  for (guint i = 0; i < frames; i++) {
    if (!g_strcmp0 (test_interlace, "mixed"))
      test_frame_interlaced = i & 1;
    if (i == 1 && border2) {
      later.border = border2;
      gst_util_set_object_arg (G_OBJECT (h->element), "border", border2);
    }
    push_and_check (h, i >= 1 ? &later : c, discrete, pool, seed + i);
    if (i == 0 && ran) {
      GstStructure *st = NULL;
      const gchar *variant;

      g_object_get (h->element, "stats", &st, NULL);
      variant = st ? gst_structure_get_string (st, "variant") : NULL;
      fail_unless (ran_as_expected (variant ? variant : "", ran), "%s method=%s: ran %s, "
          "expected %s", c->format, c->method, variant, ran);
      gst_structure_free (st);
    }
  }
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_harness_teardown (h);
}

/* Frames of case c, each against the reference, through one element. */
static void
run_case (const Case * c, gboolean discrete, guint frames, guint32 seed)
{
  run_case_then (c, discrete, frames, seed, NULL, NULL);
}

/* method=tiled where the device does not run it at every shape (a CPU, see
 * suite_tiled_everywhere) only on the formats listed: on the others float4 runs the case in its
 * place, with its planes, border, input memory and path. */
static void
tiled_on_formats (Case * c, const gchar * const *formats)
{
  if (strcmp (c->method, "tiled") || suite_tiled_everywhere ())
    return;
  for (; *formats; formats++)
    if (!strcmp (*formats, c->format))
      return;
  c->method = "float4";
}

/* ------------------------------------------------------------------------- harness tests */

/* Per format: planes auto, all, one chroma alone, each chroma alone (the other one passes),
 * pairs; odd and even sizes (37 and 45 rows give a short last band of 16-row work-groups on
 * the discrete path, 23 chroma rows too); each border; both methods; default, padded and
 * pinned input memory (tight and padded); the custom matrix, emboss, sobel-x with bias 128,
 * gaussian 7, box 15. Each format runs every other case, its layout twin (I420 and YV12,
 * Y42B and Y444, NV12 and NV21, YUY2 and UYVY, GRAY8 and GRAY16_LE) the others, since each
 * case builds programs of its own. */
static const Case format_cases[] = {
  {NULL, 37, 45, "auto", &f_custom, "clamp", "float4", INPUT_DEFAULT},
  {NULL, 64, 48, "y+u+v", &f_emboss, "mirror", "tiled", INPUT_PADDED},
  {NULL, 37, 29, "u", &f_sobel, "wrap", "float4", INPUT_PADDED},
  {NULL, 38, 45, "v", &f_custom, "constant", "tiled", INPUT_POOL},
  {NULL, 37, 45, "y+v", &f_gauss7, "mirror", "float4", INPUT_POOL},
  {NULL, 21, 47, "u+v", &f_custom, "wrap", "tiled", INPUT_DEFAULT},
  {NULL, 64, 47, "y+u", &f_sharpen, "constant", "float4", INPUT_PADDED},
  {NULL, 35, 46, "y+u+v", &f_custom, "clamp", "tiled", INPUT_POOL_PADDED},
  {NULL, 31, 47, "y+u+v", &f_box15, "wrap", "float4", INPUT_POOL_PADDED},
  /* method=separable: rank-1 matrices (row and column passes) and the custom matrix, which
   * does not split and falls back to the dense kernel */
  {NULL, 37, 45, "y+u+v", &f_sobel, "constant", "separable", INPUT_PADDED},
  {NULL, 64, 47, "y+u+v", &f_gauss7, "wrap", "separable", INPUT_POOL},
  {NULL, 29, 31, "y+u", &f_box15, "mirror", "separable", INPUT_DEFAULT},
  {NULL, 37, 29, "auto", &f_custom, "clamp", "separable", INPUT_DEFAULT},
  /* luma alone: on a CPU the one-pass kernel, whose border strips must leave the padding
   * pixel of odd-width YUY2/UYVY rows alone */
  {NULL, 37, 29, "y", &f_gauss7, "mirror", "separable", INPUT_DEFAULT},
};

GST_START_TEST (test_format_planes)
{
  const Fmt *f = &fmts[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  /* tiled on a CPU: semi-planar chroma pairs and 16 bits (planar and packed 4:2:2 in
   * test_format_change and test_pipeline_frames) */
  const gchar *const tiled[] = { "NV21", "GRAY16_LE", NULL };

  for (guint i = (__i__ >> 1) & 1; i < G_N_ELEMENTS (format_cases); i += 2) {
    Case c = format_cases[i];

    c.format = f->name;
    tiled_on_formats (&c, tiled);
    run_case (&c, discrete, 2, 100 * i + __i__);
  }
}

GST_END_TEST;

/* frames smaller than the kernel and chroma of one sample: every border, all planes; one
 * element per format and path, the size changed by caps and the border by the property */
GST_START_TEST (test_tiny_frames)
{
  const Fmt *f = &fmts[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  const gint dims[][2] = { {1, 1}, {2, 1}, {1, 2}, {3, 3}, {5, 2}, {2, 7} };
  Case c = { f->name, 1, 1, "y+u+v", &f_gauss7, "clamp", "float4", INPUT_DEFAULT };
  /* tiled on a CPU: chroma of one sample in pairs */
  const gchar *const tiled[] = { "NV12", NULL };
  GstHarness *h = start_harness (&c, discrete);

  for (guint d = 0; d < G_N_ELEMENTS (dims); d++) {
    gchar *caps = caps_string (f->name, dims[d][0], dims[d][1]);

    gst_harness_set_src_caps_str (h, caps);
    gst_harness_set_sink_caps_str (h, caps);
    g_free (caps);
    for (guint b = 0; b < TEST_N_BORDERS; b++) {
      c.width = dims[d][0];
      c.height = dims[d][1];
      c.filter = b & 1 ? &f_custom : &f_gauss7;
      c.border = border_names[b];
      c.method = b & 2 ? "tiled" : d & 1 ? "separable" : "float4";
      c.input = d & 1 ? INPUT_PADDED : INPUT_DEFAULT;
      tiled_on_formats (&c, tiled);
      apply_case (h->element, &c);
      push_and_check (h, &c, discrete, NULL, 7 * d + b);
    }
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* method=vector on every format (the RGB ones included): the interleaved kernel's runs of 8 NV
 * samples on MY rows per work-item (3 and 2, 4 and 3 on AVX-512 CPUs), whole pixels of 1, 2
 * (NV12 chroma pairs) and 4 samples, 8 and 16 bits, and the split planes' runs of 16 pixels on
 * 3 or 2 rows (4-sample 8-bit pixels); views that share pixels with another (the luma of YUY2
 * and UYVY) fall back to float4 and must still be right. Widths that are no multiple of a run
 * (37, 29, 101, 13), 1x1 and frames smaller than the kernel, every border, sizes 3 to 63. The
 * interior path (whole runs with their window inside the plane) needs frames wider than the
 * run plus the window: at one 8-bit sample per pixel 112 wide for size 9, 101 for 15, 130 for
 * 31 and 120 for 63, whose 68 rows hold a whole work-item of 3 rows (rows 33-35) with its
 * window; split: 32 pixels read per row up to size 17, 48 for 31, 80 for 63 (the 56-pixel
 * chroma rows of YUY2 112 wide hold such runs up to size 17: both chroma samples at 3, V
 * alone at 17). The narrow ones
 * cover the per-pixel edge path and runs that stop at the plane's end. One frame each (the 63
 * one is costly for the reference). On the RGB formats y, u, v select r, g, b+a.
 * Each format runs one quarter of the cases (VECTOR_SHARE), a different quarter for
 * neighbouring formats, so every case still runs on four or five formats (planar, semi-planar
 * or packed, gray or RGB among them) and on two or three split ones: size and selected samples
 * are compile-time (the border too on GPUs), so each case builds programs of its own, but for
 * the two at 63 with V alone and a constant border (the frame smaller than the kernel and the
 * interior one), which share theirs: a program at 63 takes seconds to build. */
static const Case vector_cases[] = {
  {NULL, 37, 29, "auto", &f_custom, "clamp", "vector", INPUT_DEFAULT},
  {NULL, 29, 31, "y+u+v", &f_sobel, "wrap", "vector", INPUT_PADDED},
  {NULL, 1, 1, "y+u+v", &f_gauss7, "mirror", "vector", INPUT_DEFAULT},
  {NULL, 5, 2, "y+u+v", &f_custom, "constant", "vector", INPUT_PADDED},
  {NULL, 13, 9, "v", &f_motion63, "constant", "vector", INPUT_DEFAULT},
  {NULL, 112, 40, "y+u+v", &f_gauss9, "mirror", "vector", INPUT_POOL},
  {NULL, 101, 47, "y+u", &f_box15, "wrap", "vector", INPUT_POOL_PADDED},
  {NULL, 64, 48, "u+v", &f_custom, "mirror", "vector", INPUT_POOL},
  {NULL, 112, 40, "u+v", &f_sharpen, "wrap", "vector", INPUT_PADDED},
  {NULL, 112, 40, "v", &f_gauss17, "clamp", "vector", INPUT_POOL},
  {NULL, 130, 70, "y", &f_emboss31, "clamp", "vector", INPUT_DEFAULT},
  {NULL, 120, 68, "y", &f_motion63, "wrap", "vector", INPUT_PADDED},
  {NULL, 120, 68, "v", &f_motion63, "constant", "vector", INPUT_DEFAULT},
};

/* y, u, v of a planes value as r, g, b+a (for the RGB formats) */
static gchar *
rgb_selection (const gchar * planes)
{
  GString *s = g_string_new (NULL);
  gchar **names = g_strsplit (planes, "+", -1);

  for (gchar ** n = names; *n; n++) {
    const gchar *rgb = !strcmp (*n, "y") ? "r" : !strcmp (*n, "u") ? "g" :
        !strcmp (*n, "v") ? "b+a" : *n;

    g_string_append_printf (s, "%s%s", s->len ? "+" : "", rgb);
  }
  g_strfreev (names);
  return g_string_free (s, FALSE);
}

#define SPLIT_ENV "GST_CLCONVOLVE_SPLIT"
#define SYNC_ENV "GST_CLCONVOLVE_SYNC_BUILDS"
#define REGION_WHOLE_ENV "GST_CLCONVOLVE_REGION_WHOLE"

/* Every test starts with GST_CLCONVOLVE_SPLIT as the suite found it (check_vector_cases sets
 * it and leaves it so: a failed check would skip any restoring there) and without
 * GST_CLCONVOLVE_BLOCK. */
static void
reset_split_env (void)
{
  static gboolean seen;
  static gchar *initial, *initial_sync;

  if (!seen) {
    initial = g_strdup (g_getenv (SPLIT_ENV));
    initial_sync = g_strdup (g_getenv (SYNC_ENV));
    seen = TRUE;
  }
  if (initial)
    g_setenv (SPLIT_ENV, initial, TRUE);
  else
    g_unsetenv (SPLIT_ENV);
  /* test_float4_blocks sets it and unsets it at its end, which a failed check skips */
  g_unsetenv ("GST_CLCONVOLVE_BLOCK");
  /* test_regions_scaled unsets the one and sets the other */
  if (initial_sync)
    g_setenv (SYNC_ENV, initial_sync, TRUE);
  g_unsetenv (REGION_WHOLE_ENV);
  test_interlace = NULL;
  test_frame_interlaced = FALSE;
}

/* Whether method=vector may split the colour planes of the format's first view with this
 * selection (GST_CLCONVOLVE_SPLIT=1): 8-bit 4-sample pixels of which 1 to 3 samples are
 * computed, the others copied. RGB: 1 to 3 of its components (4 on RGBA leaves nothing to
 * skip); YUY2 and UYVY: chroma without luma (with luma the chroma view shares its pixels). */
static gboolean
splits_planes (const Fmt * f, guint sel)
{
  guint n = 0;

  for (guint c = 0; c < N_COMPS; c++)
    n += (sel >> c) & 1;
  if (f->layout == LAYOUT_RGB)
    return n >= 1 && n <= 3;
  return f->layout == LAYOUT_PACKED && !(sel & (1u << COMP_Y)) && n > 0;
}

/* vector_cases on one format (those of its rotation), GST_CLCONVOLVE_SPLIT set to split (read when the element
 * starts; the next test's setup resets it): each frame against the reference, and the variant
 * that ran (the first shape's): vector wherever no view shares pixels, split exactly where
 * splits_planes says so when split is 1, never when 0. */
#define VECTOR_SHARE 4

static void
check_vector_cases (const Fmt * f, guint rotation, gboolean discrete, gint split, guint seed)
{
  gboolean packed = f->layout == LAYOUT_PACKED;

  g_setenv (SPLIT_ENV, split ? "1" : "0", TRUE);
  for (guint i = rotation % VECTOR_SHARE; i < G_N_ELEMENTS (vector_cases); i += VECTOR_SHARE) {
    Case c = vector_cases[i];
    gchar *planes = f->layout == LAYOUT_RGB ? rgb_selection (c.planes) : g_strdup (c.planes);
    GstHarness *h;
    GstBufferPool *pool = NULL;
    GstStructure *st = NULL;
    const gchar *variant;
    guint sel;
    gboolean split_ran;
    Geom g;

    c.format = f->name;
    c.planes = planes;
    geom_init (&g, c.format, c.width, c.height);
    sel = selected_comps (&g, c.planes);
    h = start_harness (&c, discrete);
    if (c.input == INPUT_POOL || c.input == INPUT_POOL_PADDED)
      pool = proposed_pool (h, &g, c.input == INPUT_POOL_PADDED);
    push_and_check (h, &c, discrete, pool, seed + 10 * i);
    g_object_get (h->element, "stats", &st, NULL);
    variant = st ? gst_structure_get_string (st, "variant") : NULL;
    fail_unless (variant != NULL, "%s: %s", c.format, struct_text (st));
    split_ran = g_str_has_prefix (variant, "vector split ");
    if (sel && !packed)
      fail_unless (g_str_has_prefix (variant, "vector "), "%s %dx%d planes=%s (%s): ran %s",
          c.format, c.width, c.height, c.planes, discrete ? "discrete" : "unified", variant);
    else if (sel)
      fail_unless (g_str_has_prefix (variant, "vector ") ||
          g_str_has_prefix (variant, "float4 "), "%s planes=%s: ran %s", c.format, c.planes,
          variant);
    if (sel)
      fail_unless (split_ran == (split && splits_planes (f, sel)),
          "%s planes=%s, %s=%d: ran %s", c.format, c.planes, SPLIT_ENV, split, variant);
    gst_structure_free (st);
    if (pool) {
      gst_buffer_pool_set_active (pool, FALSE);
      gst_object_unref (pool);
    }
    gst_harness_teardown (h);
    g_free (planes);
  }
}

/* the interleaved kernel (loop index: format * 2 + discrete) */
GST_START_TEST (test_vector)
{
  check_vector_cases (&fmts[__i__ >> 1], __i__ >> 1, __i__ & 1, 0, 1300 + __i__);
}

GST_END_TEST;

/* The formats whose 4-sample 8-bit pixels method=vector can split into planes: YUY2, UYVY
 * and the RGB ones. */
static const Fmt *
split_fmt (gint i)
{
  return i < 2 ? find_fmt (i ? "UYVY" : "YUY2") : &fmts[N_YUV_FMTS + i - 2];
}

#define N_SPLIT_FMTS (2 + N_RGB_FMTS)

/* the split planes (convolve_vsplit; loop index: split_fmt * 2 + discrete): 1, 2 and 3 planes
 * out of each byte order, alpha or padding copied, the others (all four selected, luma of
 * YUY2/UYVY) on the interleaved kernel or float4 */
GST_START_TEST (test_vector_split)
{
  check_vector_cases (split_fmt (__i__ >> 1), __i__ >> 1, __i__ & 1, 1, 1700 + __i__);
}

GST_END_TEST;

#define BLOCK_ENV "GST_CLCONVOLVE_BLOCK"

/* The float4 kernel's register blocking with GST_CLCONVOLVE_BLOCK (pixels per work-item, read
 * when the element starts; on a CPU the default is 8): rows that end in a partial block (23,
 * 31, 17 and 38 pixels), frames narrower than a block and than the matrix (blocks straddling
 * both borders), 1, 2 and 4 samples of 8 and 16 bits, copied samples (padding, luma) and every
 * border. Loop index: block (1, 3) * 2 + discrete. Each frame against the reference, and the
 * variant that ran is float4 with that block; with 1, also two-pass separable. */
GST_START_TEST (test_float4_blocks)
{
  gint block = (__i__ >> 1) ? 3 : 1;
  gboolean discrete = __i__ & 1;
  const Case cases[] = {
    {"RGBA", 23, 17, "auto", &f_gauss7, "mirror", "float4", INPUT_DEFAULT},
    {"BGRx", 5, 9, "auto", &f_custom, "wrap", "float4", INPUT_PADDED},
    {"GRAY8", 31, 13, "auto", &f_sharpen, "constant", "float4", INPUT_DEFAULT},
    {"GRAY8", 2, 7, "auto", &f_sharpen, "constant", "float4", INPUT_DEFAULT},
    {"GRAY16_LE", 17, 11, "auto", &f_emboss, "clamp", "float4", INPUT_POOL},
    {"YUY2", 38, 14, "u+v", &f_sobel, "mirror", "float4", INPUT_DEFAULT},
    {"NV12", 34, 10, "y+u+v", &f_custom, "constant", "float4", INPUT_DEFAULT},
  };
  gchar *block_text = g_strdup_printf ("%d", block);
  gchar *expect = g_strdup_printf ("float4 block=%d", block);

  g_setenv (BLOCK_ENV, block_text, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const Case *c = &cases[i];
    GstHarness *h = start_harness (c, discrete);
    GstBufferPool *pool = NULL;
    GstStructure *st = NULL;
    const gchar *variant;

    if (c->input == INPUT_POOL) {
      Geom g;

      geom_init (&g, c->format, c->width, c->height);
      pool = proposed_pool (h, &g, FALSE);
    }
    for (guint f = 0; f < 2; f++)
      push_and_check (h, c, discrete, pool, 2100 + 10 * i + f);
    g_object_get (h->element, "stats", &st, NULL);
    variant = st ? gst_structure_get_string (st, "variant") : NULL;
    fail_unless (!g_strcmp0 (variant, expect), "%s %dx%d, %s=%d: ran %s", c->format, c->width,
        c->height, BLOCK_ENV, block, struct_text (st));
    gst_structure_free (st);
    if (pool) {
      gst_buffer_pool_set_active (pool, FALSE);
      gst_object_unref (pool);
    }
    gst_harness_teardown (h);
  }
  /* block 1 also makes method=separable run two passes on a CPU (in place, where it would
   * otherwise run the one-pass kernel): that form on the in-place path, with a centre term */
  if (block == 1) {
    const Filter f_unsharp7 = { "unsharp", 7, 0.0, 0.0 };
    const Case c = { "RGBA", 23, 17, "auto", &f_unsharp7, "wrap", "separable", INPUT_DEFAULT };
    GstHarness *h = start_harness (&c, discrete);
    GstStructure *st = NULL;

    for (guint f = 0; f < 2; f++)
      push_and_check (h, &c, discrete, NULL, 2200 + f);
    g_object_get (h->element, "stats", &st, NULL);
    fail_unless (!g_strcmp0 (st ? gst_structure_get_string (st, "variant") : NULL,
            "separable"), "RGBA unsharp 7, %s=1: ran %s", BLOCK_ENV, struct_text (st));
    gst_structure_free (st);
    gst_harness_teardown (h);
  }
  g_unsetenv (BLOCK_ENV);
  g_free (block_text);
  g_free (expect);
}

GST_END_TEST;

/* 16 bits: content across the whole range and within 512 of both ends; bias scaled by 257
 * (identity + bias is exact: any other scale shows), saturation at 0 and 65535 (sharpen and
 * the custom matrix overshoot), signed response centred by bias 128 (32896) */
static const Filter f_identity_bias = { "identity", 1, 0.0, 100.0 };
static const Filter f_negative_bias = { "box", 3, 0.0, -37.5 };

GST_START_TEST (test_gray16)
{
  gboolean discrete = __i__ & 1;
  const Case cases[] = {
    {"GRAY16_LE", 37, 29, "auto", &f_identity_bias, "clamp", "float4", INPUT_DEFAULT},
    {"GRAY16_LE", 37, 45, "y", &f_sharpen, "mirror", "tiled", INPUT_PADDED},
    {"GRAY16_LE", 64, 48, "auto", &f_custom, "wrap", "float4", INPUT_POOL},
    {"GRAY16_LE", 33, 46, "y", &f_sobel, "constant", "tiled", INPUT_DEFAULT},
    {"GRAY16_LE", 40, 37, "y", &f_gauss7, "clamp", "tiled", INPUT_POOL},
    {"GRAY16_LE", 31, 33, "auto", &f_negative_bias, "mirror", "float4", INPUT_PADDED},
    {"GRAY16_LE", 31, 33, "u+v", &f_custom, "mirror", "float4", INPUT_PADDED},
    {"GRAY16_LE", 37, 29, "y", &f_gauss7, "constant", "separable", INPUT_PADDED},
    {"GRAY16_LE", 40, 37, "y", &f_sobel, "mirror", "separable", INPUT_POOL},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    run_case (&cases[i], discrete, 2, 500 + 10 * i);
}

GST_END_TEST;

/* the planes property changed while playing (by nick and by flags value) applies from the next
 * frame, including a change of which kernels a packed frame needs; RGB flags on a YUV format
 * select nothing, and the frame is copied */
GST_START_TEST (test_planes_change)
{
  const gchar *formats[] = { "YUY2", "NV12", "I420" };
  const gchar *format = formats[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  const struct
  {
    const gchar *nick;
    guint flags;
  } steps[] = {
    {"y", 1}, {"u+v", 2 | 4}, {"auto", 0}, {"v", 4}, {"y+u+v", 1 | 2 | 4}, {"u", 2},
    {"y+u", 1 | 2}, {"r+a", 8 | 64}, {"y", 1},
  };
  Case c = { format, 37, 45, "y", &f_custom, "mirror", "float4", INPUT_DEFAULT };
  GstHarness *h = start_harness (&c, discrete);

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    guint flags;

    if (i & 1)
      g_object_set (h->element, "planes", steps[i].flags, NULL);
    else
      gst_util_set_object_arg (G_OBJECT (h->element), "planes", steps[i].nick);
    g_object_get (h->element, "planes", &flags, NULL);
    fail_unless_equals_int (flags, steps[i].flags);
    c.planes = steps[i].nick;
    push_and_check (h, &c, discrete, NULL, 900 + i);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* a caps change mid-stream between formats with other planes and kernels */
GST_START_TEST (test_format_change)
{
  gboolean discrete = __i__ & 1;
  Case steps[] = {
    {"NV12", 37, 45, "y+u+v", &f_custom, "wrap", "tiled", INPUT_DEFAULT},
    {"YUY2", 41, 35, "y+u+v", &f_custom, "wrap", "tiled", INPUT_DEFAULT},
    {"GRAY16_LE", 30, 20, "y+u+v", &f_custom, "wrap", "tiled", INPUT_DEFAULT},
    {"I420", 64, 48, "y+u+v", &f_custom, "wrap", "tiled", INPUT_DEFAULT},
    {"UYVY", 17, 9, "y+u+v", &f_custom, "wrap", "tiled", INPUT_DEFAULT},
    {"NV21", 37, 45, "y+u+v", &f_custom, "wrap", "tiled", INPUT_DEFAULT},
  };
  GstHarness *h = start_harness (&steps[0], discrete);

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    gchar *caps = caps_string (steps[i].format, steps[i].width, steps[i].height);

    gst_harness_set_src_caps_str (h, caps);
    gst_harness_set_sink_caps_str (h, caps);
    push_and_check (h, &steps[i], discrete, NULL, 40 + i);
    g_free (caps);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* planes on the 4-byte RGB formats: each selection of r, g, b, a (auto: r+g+b) convolves those
 * bytes and copies the others, alpha and padding included; YUV nicks select nothing there.
 * One element per format and path, planes changed while playing. */
GST_START_TEST (test_rgb_planes)
{
  const Fmt *f = &fmts[N_YUV_FMTS + (__i__ >> 1)];
  gboolean discrete = __i__ & 1;
  const gchar *selections[] = { "r", "g+a", "auto", "b+r", "r+g+b+a", "a", "y+u+v" };
  Case c = { f->name, 37, 45, "r", &f_custom, "mirror", "tiled", INPUT_PADDED };
  /* tiled on a CPU: alpha last and first */
  const gchar *const tiled[] = { "RGBA", "ARGB", NULL };
  GstHarness *h;

  tiled_on_formats (&c, tiled);
  h = start_harness (&c, discrete);

  for (guint i = 0; i < G_N_ELEMENTS (selections); i++) {
    c.planes = selections[i];
    c.method = i & 1 ? "float4" : "tiled";
    c.input = i & 1 ? INPUT_DEFAULT : INPUT_PADDED;
    tiled_on_formats (&c, tiled);
    apply_case (h->element, &c);
    push_and_check (h, &c, discrete, NULL, 300 + i);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------------------ pipelines */

typedef struct
{
  const Geom *g;
  Frame *frames;
  const gchar *what;
} Captured;

static void
capture_frame (GstSample * sample, guint index, gpointer data)
{
  Captured *c = data;
  const Geom *g = c->g;
  GstVideoInfo info;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless (!strcmp (GST_VIDEO_INFO_NAME (&info), g->f->name) &&
      GST_VIDEO_INFO_WIDTH (&info) == g->width && GST_VIDEO_INFO_HEIGHT (&info) == g->height,
      "%s: the sink got %s %dx%d", c->what, GST_VIDEO_INFO_NAME (&info),
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info));
  read_buffer (gst_sample_get_buffer (sample), g, &c->frames[index]);
}

/* Every frame of the appsink named "sink" until EOS, as tight planes, checking the caps. */
static Frame *
capture_frames (GstElement * pipe, const Geom * g, guint expected, const gchar * what)
{
  Captured c = { g, g_new0 (Frame, expected), what };

  fail_unless_equals_int (pull_samples (pipe, expected, what, capture_frame, &c), expected);
  return c.frames;
}

static void
free_frames (Frame * frames, guint n)
{
  for (guint i = 0; i < n; i++)
    frame_clear (&frames[i]);
  g_free (frames);
}

/* videotestsrc ! caps ! clconvolve ! appsink against the same source without clconvolve
 * (videotestsrc gives the same frames for the same settings): every plane of every frame.
 * YUY2 at an even width: videotestsrc leaves the padding byte of an odd row unwritten, so it
 * would differ between the two runs (the harness tests cover odd widths). Loop index bit 0:
 * discrete. */
#define PIPE_FRAMES 6

static const struct
{
  const gchar *format, *pattern;
  gint width, height;
  const gchar *planes;
  const Filter *filter;
  const gchar *border, *method;
} pipe_cases[] = {
  {"NV12", "colors", 45, 37, "y+u+v", &f_emboss, "mirror", "tiled"},
  {"YUY2", "smpte", 46, 37, "y+v", &f_sobel, "wrap", "float4"},
  {"NV12", "colors", 64, 50, "u", &f_gauss7, "clamp", "float4"},
  {"YUY2", "ball", 64, 50, "auto", &f_custom, "constant", "tiled"},
};

static gchar *
filter_launch (const Filter * f)
{
  gchar *m, *s;

  if (f->kernel)
    return g_strdup_printf ("kernel=%s size=%d divisor=%g bias=%g", f->kernel, f->size,
        f->divisor, f->bias);
  m = matrix_string (custom5, 5, "; ");
  s = g_strdup_printf ("matrix=\"%s\" divisor=%g bias=%g", m, f->divisor, f->bias);
  g_free (m);
  return s;
}

GST_START_TEST (test_pipeline_frames)
{
  gboolean discrete = __i__ & 1;
  guint ci = __i__ >> 1;
  Geom g;
  gchar *filter = filter_launch (pipe_cases[ci].filter);
  gchar *src = g_strdup_printf ("videotestsrc num-buffers=%d pattern=%s "
      "! video/x-raw,format=%s,width=%d,height=%d,framerate=30/1", PIPE_FRAMES,
      pipe_cases[ci].pattern, pipe_cases[ci].format, pipe_cases[ci].width,
      pipe_cases[ci].height);
  gchar *plain = g_strdup_printf ("%s ! appsink name=sink sync=false", src);
  gchar *conv = g_strdup_printf ("%s ! clconvolve name=conv %s planes=%s border=%s method=%s "
      "bands=%d ! appsink name=sink sync=false", src, filter, pipe_cases[ci].planes,
      pipe_cases[ci].border, pipe_cases[ci].method, BANDS);
  gchar *what = g_strdup_printf ("%s (%s)", conv, discrete ? "discrete" : "unified");
  Frame *input, *output;
  GstElement *pipe;
  GstStructure *st = NULL;
  const gchar *in_path;
  gsize changed[N_COMPS] = { 0 };
  guint sel;

  geom_init (&g, pipe_cases[ci].format, pipe_cases[ci].width, pipe_cases[ci].height);
  sel = selected_comps (&g, pipe_cases[ci].planes);

  pipe = start_pipeline (plain, FALSE);
  input = capture_frames (pipe, &g, PIPE_FRAMES, plain);
  stop_pipeline (pipe);

  pipe = start_pipeline (conv, discrete);
  output = capture_frames (pipe, &g, PIPE_FRAMES, what);
  g_object_get (element_by_name (pipe, "conv"), "stats", &st, NULL);
  stop_pipeline (pipe);
  /* videotestsrc writes into the element's pinned pool: no copy in */
  in_path = gst_structure_get_string (st, "input-path");
  fail_unless (!g_strcmp0 (in_path, discrete ? "pinned-dma" : "in-place") ||
      (!discrete && !g_strcmp0 (in_path, "pinned-dma")), "%s: %s", what, struct_text (st));
  gst_structure_free (st);

  for (guint i = 0; i < PIPE_FRAMES; i++) {
    Expect e;
    gchar *full = g_strdup_printf ("%s frame %u", what, i);

    expect_frame (&g, &input[i], sel, pipe_cases[ci].filter, pipe_cases[ci].border, &e);
    check_frame (&g, &input[i], &output[i], &e, full);
    for (gint c = 0; c < N_COMPS; c++)
      changed[c] += e.changed[c];
    expect_clear (&e);
    g_free (full);
  }
  /* the source is not flat where it matters: the filter changes every convolved component */
  for (gint c = 0; c < g.n_comps; c++)
    fail_unless (!(sel & (1u << c)) || changed[c] > comp_samples (&g, c) / 20,
        "%s: the filter changes only %" G_GSIZE_FORMAT " %s samples of %u frames: the test "
        "content is too flat", what, changed[c], comp_name (&g, c), PIPE_FRAMES);

  free_frames (input, PIPE_FRAMES);
  free_frames (output, PIPE_FRAMES);
  g_free (what);
  g_free (conv);
  g_free (plain);
  g_free (src);
  g_free (filter);
}

GST_END_TEST;

/* the element takes each format as it is: the caps on its pads (and what the sink gets) are
 * upstream's format and size, whether upstream's caps or downstream's (index bit 0) pick it
 * (autotune off: the frame's content is not checked, and tuning would build every candidate) */
GST_START_TEST (test_caps_passthrough)
{
  const Fmt *f = &fmts[__i__ >> 1];
  gboolean downstream = __i__ & 1;
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=37,height=29", f->name);
  gchar *desc = downstream ?
      g_strdup_printf ("videotestsrc num-buffers=1 ! clconvolve name=conv planes=y+u+v "
      "autotune=false ! %s ! fakesink name=sink", caps) :
      g_strdup_printf ("videotestsrc num-buffers=1 ! %s ! clconvolve name=conv planes=y+u+v "
      "autotune=false ! fakesink name=sink", caps);
  const gchar *pads[][2] = { {"conv", "src"}, {"conv", "sink"}, {"sink", "sink"} };
  GstElement *pipe = start_pipeline (desc, FALSE);
  GstMessage *msg;

  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "%s: no EOS", desc);
  gst_message_unref (msg);
  for (guint i = 0; i < G_N_ELEMENTS (pads); i++) {
    GstElement *e = element_by_name (pipe, pads[i][0]);
    GstPad *pad = gst_element_get_static_pad (e, pads[i][1]);
    GstCaps *current = gst_pad_get_current_caps (pad);
    GstVideoInfo info;

    fail_unless (current != NULL, "%s: no caps on %s:%s", desc, pads[i][0], pads[i][1]);
    fail_unless (gst_video_info_from_caps (&info, current));
    fail_unless (GST_VIDEO_INFO_FORMAT (&info) == gst_video_format_from_string (f->name) &&
        GST_VIDEO_INFO_WIDTH (&info) == 37 && GST_VIDEO_INFO_HEIGHT (&info) == 29,
        "%s: %s:%s negotiated %s %dx%d", desc, pads[i][0], pads[i][1],
        GST_VIDEO_INFO_NAME (&info), GST_VIDEO_INFO_WIDTH (&info),
        GST_VIDEO_INFO_HEIGHT (&info));
    gst_caps_unref (current);
    gst_object_unref (pad);
  }
  stop_pipeline (pipe);
  g_free (desc);
  g_free (caps);
}

GST_END_TEST;

/* The deep formats (deep_fmts): 10 and 12 bits in the low or the high bits of 2 bytes, 16-bit
 * planar and semi-planar, NV16, NV24, AYUV, VUYA, RGBA64_LE, GBR, GBRA, RGB, BGR and
 * GRAY16_BE (on the RGB ones y, u, v select r, g, b+a). Every method, border and input memory; all planes, one chroma alone
 * (the other passes), luma alone; a signed filter with bias 128 (scaled to the depth); sizes
 * odd and even, one smaller than the kernel, and 112 wide for the vector kernel's interior
 * path. Each format runs the cases i with (i + format) % DEEP_SHARE == 0, so that each case
 * runs on a third of the formats. */
static const Case deep_cases[] = {
  {NULL, 37, 45, "y+u+v", &f_custom, "clamp", "float4", INPUT_DEFAULT},
  {NULL, 64, 48, "auto", &f_emboss, "mirror", "tiled", INPUT_PADDED},
  {NULL, 37, 29, "u", &f_sobel, "wrap", "vector", INPUT_POOL},
  {NULL, 38, 45, "v", &f_custom, "constant", "tiled", INPUT_POOL_PADDED},
  {NULL, 37, 45, "y+v", &f_gauss7, "mirror", "separable", INPUT_PADDED},
  {NULL, 112, 40, "y+u+v", &f_gauss9, "clamp", "vector", INPUT_DEFAULT},
  {NULL, 3, 2, "y+u+v", &f_gauss7, "wrap", "float4", INPUT_PADDED},
  {NULL, 64, 47, "y", &f_sharpen, "constant", "separable", INPUT_POOL},
  {NULL, 29, 31, "u+v", &f_box15, "clamp", "float4", INPUT_POOL_PADDED},
};

#define DEEP_SHARE 3

static const gchar *const borders[] = { "clamp", "mirror", "wrap", "constant" };

/* loop index: deep format * 2 + discrete. The second frame of a case runs with a border none
 * of the format's cases has (set while playing), so that every format meets every border. */
GST_START_TEST (test_deep_formats)
{
  const Fmt *f = &deep_fmts[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  const gchar *missing[G_N_ELEMENTS (borders)];
  guint n_missing = 0, k = 0;
  /* tiled on a CPU: 10 bits in the high bits of pairs, 16-bit RGBA */
  const gchar *const tiled[] = { "P010_10LE", "RGBA64_LE", NULL };

  for (guint b = 0; b < G_N_ELEMENTS (borders); b++) {
    gboolean seen = FALSE;

    for (guint i = 0; i < G_N_ELEMENTS (deep_cases); i++)
      seen |= (i + (__i__ >> 1)) % DEEP_SHARE == 0 && !strcmp (deep_cases[i].border, borders[b]);
    if (!seen)
      missing[n_missing++] = borders[b];
  }
  for (guint i = 0; i < G_N_ELEMENTS (deep_cases); i++) {
    Case c = deep_cases[i];

    gchar *planes = is_rgb (f) ? rgb_selection (c.planes) : g_strdup (c.planes);

    if ((i + (__i__ >> 1)) % DEEP_SHARE) {
      g_free (planes);
      continue;
    }
    c.format = f->name;
    c.planes = planes;
    tiled_on_formats (&c, tiled);
    run_case_then (&c, discrete, 2, 2100 + 100 * i + __i__, k < n_missing ? missing[k] : NULL,
        NULL);
    k++;
    g_free (planes);
  }
  fail_unless (k >= n_missing, "%s: %u borders left out", f->name, n_missing - k);
}

GST_END_TEST;

/* 3-byte RGB and BGR at widths 1, 3, 5 and 641 (rows of 3, 9, 15 and 1923 bytes, none a
 * multiple of 4), each with every border, the formats, methods, selections (one component
 * alone, two, all) and input memory taking turns; gaussian 7 throughout, so that the cases
 * share their programs. Loop index: width * 2 + discrete. */
static const gint rgb24_widths[] = { 1, 3, 5, 641 };

static const gchar *const rgb24_methods[] = { "float4", "tiled", "separable", "vector" };
static const gchar *const rgb24_planes[] = { "auto", "g+b", "r", "r+b" };

GST_START_TEST (test_rgb24_widths)
{
  gint w = rgb24_widths[__i__ >> 1];
  gboolean discrete = __i__ & 1;

  for (guint b = 0; b < G_N_ELEMENTS (borders); b++) {
    guint turn = b + (__i__ >> 1);
    Case c = { turn % 2 ? "BGR" : "RGB", w, 7 + 2 * b, rgb24_planes[(turn / 2) % 4],
      &f_gauss7, borders[b], rgb24_methods[turn % 4], (InputKind) ((turn + 1) % 4)
    };

    run_case (&c, discrete, 2, 3100 + 10 * __i__ + b);
  }
}

GST_END_TEST;

/* Interlaced frames: each field filtered as a picture of its own (rows of one parity, borders
 * at the field's edges, never a row of the other field), checked against the reference run on
 * each field alone. interleaved: every frame; mixed: the frames flagged interlaced, the others
 * as progressive. Formats of each layout, both paths, every method; odd heights (fields of
 * different heights) and a 3-row frame (a bottom field of one row). On the discrete path the
 * taller frames go in 2 or 3 bands (bands=3, each an even number of rows), their halos (wrap
 * reaching the other end of the field) across bands. Loop index: case * 2 + discrete. */
static const Case interlaced_cases[] = {
  {"I420", 37, 45, "y+u+v", &f_custom, "clamp", "float4", INPUT_DEFAULT},
  {"NV12", 64, 48, "y+u+v", &f_gauss7, "mirror", "tiled", INPUT_POOL},
  {"YUY2", 37, 69, "y+u+v", &f_sobel, "wrap", "vector", INPUT_PADDED},
  {"RGBA", 38, 45, "auto", &f_gauss7, "constant", "separable", INPUT_POOL_PADDED},
  {"P010_10LE", 29, 31, "y+u+v", &f_emboss, "mirror", "float4", INPUT_PADDED},
  {"GRAY8", 21, 3, "auto", &f_box15, "clamp", "separable", INPUT_DEFAULT},
  {"BGR", 41, 70, "r+b", &f_box15, "wrap", "tiled", INPUT_POOL},
};

GST_START_TEST (test_interlaced)
{
  Case c = interlaced_cases[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  /* tiled on a CPU: the 4:2:0 fields */
  const gchar *const tiled[] = { "NV12", NULL };

  tiled_on_formats (&c, tiled);
  test_interlace = "interleaved";
  test_frame_interlaced = FALSE;
  run_case (&c, discrete, 2, 2900 + __i__);
  /* mixed: a progressive frame, then an interlaced one, in one stream */
  test_interlace = "mixed";
  run_case (&c, discrete, 2, 2950 + 2 * __i__);
}

GST_END_TEST;

/* Sparse matrices (the 9x9 above, motion blur 31 at 45 degrees): method=sparse on every pixel
 * shape (1 to 4 samples, 8 and 16 bits, big-endian, 10 bits in the high bits, two views of
 * NV12, the shared views of YUY2 falling back to float4), method=auto picking sparse, and the
 * other methods on the same matrices, the four borders by turns. The variant that ran on the
 * first pixel shape is checked: on the discrete path
 * the taps read a local tile, as on a GPU (GST_CLCONVOLVE_SPARSE_TILES=1). Loop index:
 * case * 2 + discrete. */
#define SPARSE_TILES_ENV "GST_CLCONVOLVE_SPARSE_TILES"

typedef struct
{
  Case c;
  const gchar *ran;             /* the prefix of the variant expected */
} SparseCase;

static const SparseCase sparse_cases[] = {
  {{"RGBA", 67, 41, "auto", &f_sparse9, "clamp", "sparse", INPUT_DEFAULT}, "sparse"},
  {{"GRAY8", 70, 40, "auto", &f_motion31, "mirror", "auto", INPUT_PADDED}, "sparse"},
  {{"RGB", 45, 37, "r+b", &f_sparse9, "wrap", "sparse", INPUT_POOL}, "sparse"},
  {{"NV12", 66, 38, "y+u+v", &f_sparse9, "constant", "sparse", INPUT_POOL_PADDED}, "sparse"},
  {{"GRAY16_BE", 41, 29, "auto", &f_sparse9, "mirror", "sparse", INPUT_DEFAULT}, "sparse"},
  {{"P010_10LE", 40, 36, "y+u+v", &f_sparse9, "wrap", "sparse", INPUT_PADDED}, "sparse"},
  {{"YUY2", 37, 29, "y+u+v", &f_sparse9, "clamp", "sparse", INPUT_POOL}, "float4"},
  {{"BGRx", 39, 33, "auto", &f_sparse9, "constant", "vector", INPUT_POOL_PADDED}, "vector"},
  {{"GRAY8", 43, 31, "auto", &f_sparse9, "wrap", "tiled", INPUT_DEFAULT}, "tiled"},
  {{"I420", 38, 30, "y+u+v", &f_sparse9, "mirror", "float4", INPUT_PADDED}, "float4"},
};

/* Two frames of sc, the first checked to run sc->ran; the discrete path as a GPU runs it: the
 * taps over a local tile (the element reads this at start) */
static void
run_sparse_case (const SparseCase * sc, gboolean discrete, guint32 seed)
{
  gchar *ran = discrete && !strcmp (sc->ran, "sparse") ? g_strdup ("sparse tiled ") :
      g_strdup (sc->ran);

  if (discrete)
    g_setenv (SPARSE_TILES_ENV, "1", TRUE);
  run_case_then (&sc->c, discrete, 2, seed, NULL, ran);
  g_unsetenv (SPARSE_TILES_ENV);
  g_free (ran);
}

GST_START_TEST (test_sparse)
{
  run_sparse_case (&sparse_cases[__i__ >> 1], __i__ & 1, 4100 + 10 * __i__);
}

GST_END_TEST;

/* combine: the gradient operators' magnitude (the second matrix the transpose), |sum| and the
 * larger magnitude, a custom pair through matrix-y; the methods that compute them (float4,
 * sparse, separable in one and two passes, and sparse over a tile on the discrete path), a
 * method that cannot (vector) falling back, and the shared views of YUY2 on float4; the
 * four borders by turns. Loop index: case * 2 + discrete. */
static const gdouble pair_x[25] = {
  -1, -2, 0, 2, 1, -3, -1, 0, 1, 3, -4, -2, 0, 2, 4, -1, -1, 0, 1, 1, 0, -1, 0, 1, 0
};
static const gdouble pair_y[25] = {
  2, 1, 3, 0, 1, 1, 0, 2, 1, 0, 0, 0, 0, 0, 0, -1, -2, -1, 0, -1, -2, -1, -3, -1, -1
};

static const Filter f_sobel3_mag = { "sobel-x", 3, 0.0, 0.0, NULL, REF_COMBINE_MAGNITUDE };
static const Filter f_scharr5_mag = { "scharr-x", 5, 4.0, 0.0, NULL, REF_COMBINE_MAGNITUDE };
static const Filter f_prewitt15_mag = { "prewitt-x", 15, 0.0, 10.0, NULL,
  REF_COMBINE_MAGNITUDE
};
static const Filter f_sobel31_max = { "sobel-x", 31, 0.0, 0.0, NULL, REF_COMBINE_MAX };
static const Filter f_pair5 = { NULL, 5, 3.0, 0.0, pair_x, REF_COMBINE_MAGNITUDE, pair_y };
static const Filter f_sobel3_abs = { "sobel-y", 3, 0.0, 0.0, NULL, REF_COMBINE_ABS };
static const Filter f_scharr3_max = { "scharr-x", 3, 0.0, 0.0, NULL, REF_COMBINE_MAX };

static const SparseCase combine_cases[] = {
  {{"RGBA", 67, 41, "auto", &f_sobel3_mag, "clamp", "auto", INPUT_DEFAULT}, "sparse"},
  {{"GRAY8", 70, 40, "auto", &f_scharr5_mag, "mirror", "sparse", INPUT_PADDED}, "sparse"},
  {{"NV12", 66, 38, "y+u+v", &f_prewitt15_mag, "wrap", "auto", INPUT_POOL}, "separable"},
  {{"GRAY16_BE", 41, 29, "auto", &f_sobel31_max, "constant", "separable", INPUT_DEFAULT},
      "separable"},
  {{"RGB", 45, 37, "r+b", &f_pair5, "clamp", "float4", INPUT_POOL_PADDED}, "float4"},
  {{"P010_10LE", 40, 36, "y+u+v", &f_sobel3_abs, "mirror", "auto", INPUT_PADDED}, "sparse"},
  {{"YUY2", 37, 29, "y+u+v", &f_sobel3_mag, "wrap", "auto", INPUT_POOL}, "float4"},
  {{"I420", 38, 30, "y+u+v", &f_scharr3_max, "constant", "vector", INPUT_DEFAULT}, "sparse"},
};

GST_START_TEST (test_combine)
{
  run_sparse_case (&combine_cases[__i__ >> 1], __i__ & 1, 5100 + 10 * __i__);
}

GST_END_TEST;

/* Magnitude of every gradient operator at every size 3..31 with every border, GRAY8 on the
 * generic program (GST_CLCONVOLVE_GENERIC=dense: the matrix side and border are arguments, so
 * 15 sizes cost no build; the specialised variants are test_combine's). Loop index: operator
 * * 4 + border. */
GST_START_TEST (test_combine_sizes)
{
  const gchar *const ops[] = { "sobel-x", "scharr-x", "prewitt-x" };
  Filter f = { ops[__i__ / 4], 3, 0.0, 0.0, NULL, REF_COMBINE_MAGNITUDE };
  Case c = { "GRAY8", 29, 23, "auto", &f, border_names[__i__ % 4], "auto", INPUT_DEFAULT };
  GstHarness *h;

  g_setenv (GENERIC_ENV, "dense", TRUE);
  h = start_harness (&c, FALSE);
  for (gint size = 3; size <= 31; size += 2) {
    f.size = size;
    apply_case (h->element, &c);
    push_and_check (h, &c, FALSE, NULL, 7000 + 100 * __i__ + size);
  }
  {
    GstStructure *st = NULL;
    guint64 generic = 0;

    g_object_get (h->element, "stats", &st, NULL);
    fail_unless (st && gst_structure_get_uint64 (st, "generic-frames", &generic));
    fail_unless_equals_uint64 (generic, 15);
    gst_structure_free (st);
  }
  gst_harness_teardown (h);
  g_unsetenv (GENERIC_ENV);
}

GST_END_TEST;

/* --------------------------------------------------------------------------------- blurs */

/* The blurs' own kernels (issue 41): running sums for every box (convolve_box, on CPU-like
 * devices working in place and on GPUs), the vertical pass first (convolve_csep, on CPU-like devices) and
 * one separable kernel through local memory (convolve_lsep, on GPUs), against the reference:
 * each border, sizes 3 to 63, 8 and 16-bit samples (of 10 bits, big-endian), 1 to 4 samples a
 * pixel, one chroma alone (NV12), packed 4:2:2 (a view whose pixels another view writes too),
 * frames from 1x1 to wider than a block (256 pixels) and than an lsep tile (128 pixels),
 * a custom matrix of equal values with a bias, matrices of two vector pairs and of one pair and
 * a centre term (unsharp, big-endian). Each
 * case names the variant its first frame must run on a CPU-like device on the unified path and
 * on a GPU (NULL: whatever the rules pick); loop index: case * 2 + discrete. */
static const gdouble equal3[9] = { 2, 2, 2, 2, 2, 2, 2, 2, 2 };

static const Filter f_box3 = { "box", 3, 0.0, 0.0 };
static const Filter f_box5_bias = { "box", 5, 0.0, -20.0 };
static const Filter f_box31 = { "box", 31, 0.0, 0.0 };
static const Filter f_box63 = { "box", 63, 0.0, 0.0 };
static const Filter f_equal3 = { NULL, 3, 0.0, 10.0, equal3 };
/* equal coefficients over a divisor of at least the matrix's area: on 8-bit samples up to
 * size 15 the CPU's running sums divide by it in fixed point (box.cl, box_divisor); 26 is even,
 * so that some windows' quotients end in exactly .5 */
static const gdouble ones5[25] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
};
static const Filter f_ones5_div26 = { NULL, 5, 26.0, 0.0, ones5 };
static const Filter f_ones5_div1000 = { NULL, 5, 1000.0, 0.0, ones5 };
static const Filter f_gauss3 = { "gaussian", 3, 0.0, 0.0 };
static const Filter f_gauss15 = { "gaussian", 15, 0.0, 0.0 };
static const Filter f_gauss31 = { "gaussian", 31, 0.0, 0.0 };
static const Filter f_gauss63 = { "gaussian", 63, 0.0, 0.0 };
/* a centre term and one vector pair (a gaussian-like outer product and a sharper centre), as
 * unsharp has (RANK_CENTRE) */
static const gdouble rank2_5[25] = {
  1, 2, 3, 2, 1,
  2, 4, 6, 4, 2,
  3, 6, 29, 6, 3,
  2, 4, 6, 4, 2,
  1, 2, 3, 2, 1
};
static const Filter f_rank2_5 = { NULL, 5, 0.0, 0.0, rank2_5 };
/* two vector pairs of RGBA at 31 and 39 (rank2_fill): lsep's tile fits a GPU's 48 KiB with 4
 * rows, not 8 */
static gdouble rank2_31[31 * 31], rank2_39[39 * 39];
static const Filter f_rank2_31 = { NULL, 31, 0.0, 0.0, rank2_31 };
static const Filter f_rank2_39 = { NULL, 39, 0.0, 0.0, rank2_39 };
static const Filter f_unsharp15 = { "unsharp", 15, 0.0, 0.0 };
static const Filter f_gauss15_bias = { "gaussian", 15, 0.0, 30.0 };

/* k (n x n) = a gaussian's outer product plus a tent row times a ramp column: rank 2, and no
 * centre term splits it further */
static void
rank2_fill (gdouble * k, gint n)
{
  for (gint j = 0; j < n; j++)
    for (gint i = 0; i < n; i++) {
      gdouble gj = exp (-(j - n / 2) * (j - n / 2) / (0.1 * n * n));
      gdouble gi = exp (-(i - n / 2) * (i - n / 2) / (0.1 * n * n));

      k[j * n + i] = 4.0 * gj * gi + (1.0 + j % 5) * (n / 2 + 1 - abs (i - n / 2));
    }
}

typedef struct
{
  Case c;
  const gchar *cpu, *gpu;       /* the variant's prefix on either device, or NULL */
} BlurCase;

#define BOX_RAN "separable box"
#define LOCAL_RAN "separable local"
#define COLUMNS_RAN "separable columns"

static const BlurCase blur_cases[] = {
  {{"RGBA", 37, 29, "auto", &f_box3, "clamp", "separable", INPUT_DEFAULT}, BOX_RAN, BOX_RAN},
  {{"BGRx", 300, 21, "auto", &f_box15, "mirror", "auto", INPUT_POOL}, BOX_RAN, NULL},
  {{"GRAY8", 301, 40, "y", &f_box63, "wrap", "separable", INPUT_PADDED}, BOX_RAN, BOX_RAN},
  {{"GRAY16_LE", 41, 33, "y", &f_box31, "constant", "auto", INPUT_DEFAULT}, BOX_RAN, NULL},
  {{"NV12", 66, 38, "y+u+v", &f_box15, "wrap", "separable", INPUT_POOL}, BOX_RAN, BOX_RAN},
  {{"NV12", 35, 27, "u", &f_box5_bias, "constant", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"YUY2", 37, 19, "y+u+v", &f_box5_bias, "mirror", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"RGB", 263, 17, "auto", &f_box15, "wrap", "separable", INPUT_DEFAULT}, BOX_RAN, BOX_RAN},
  {{"P010_10LE", 40, 22, "y+u+v", &f_box31, "clamp", "separable", INPUT_POOL}, BOX_RAN,
      BOX_RAN},
  {{"GRAY16_BE", 29, 31, "y", &f_box5_bias, "wrap", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"RGBA", 1, 1, "auto", &f_box63, "clamp", "separable", INPUT_DEFAULT}, BOX_RAN, BOX_RAN},
  {{"RGBA", 2, 3, "r+g+b+a", &f_box63, "mirror", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"GRAY8", 1, 5, "y", &f_box31, "wrap", "separable", INPUT_DEFAULT}, BOX_RAN, BOX_RAN},
  {{"I420", 3, 1, "y+u+v", &f_box15, "constant", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"RGBA", 290, 70, "auto", &f_box63, "constant", "separable", INPUT_POOL_PADDED}, BOX_RAN,
      BOX_RAN},
  {{"AYUV", 45, 23, "y+u+v", &f_equal3, "clamp", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  /* wide enough for the CPU's blocks of 256 pixels to lie inside the plane, where a row's
   * column sums move down and take their prefix sums in one pass: 4-, 1- and 2-sample pixels
   * (NV12's chroma), 16- and 32-bit sums */
  {{"RGBA", 600, 37, "auto", &f_box15, "clamp", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"GRAY8", 640, 29, "y", &f_box31, "mirror", "separable", INPUT_DEFAULT}, BOX_RAN, BOX_RAN},
  {{"NV12", 1200, 30, "u+v", &f_box5_bias, "wrap", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"RGBA", 70, 33, "auto", &f_ones5_div26, "mirror", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"GRAY8", 33, 20, "y", &f_ones5_div1000, "constant", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"RGBA", 67, 45, "auto", &f_gauss3, "clamp", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"GRAY8", 130, 200, "y", &f_gauss15, "mirror", "separable", INPUT_PADDED}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"NV12", 66, 38, "y+u+v", &f_gauss31, "wrap", "separable", INPUT_POOL}, COLUMNS_RAN, LOCAL_RAN},
  {{"GRAY16_LE", 41, 33, "y", &f_gauss63, "constant", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"YUY2", 37, 19, "y+u+v", &f_gauss7, "constant", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"RGB", 33, 21, "auto", &f_rank2_5, "clamp", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"I420", 3, 1, "y+u+v", &f_gauss63, "mirror", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"RGBA", 70, 150, "auto", &f_rank2_31, "wrap", "separable", INPUT_POOL}, COLUMNS_RAN,
      LOCAL_RAN " mx=2 ty=4"},
  {{"RGBA", 45, 40, "auto", &f_rank2_39, "mirror", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN " mx=2 ty=4"},
  {{"GRAY16_BE", 29, 31, "y", &f_unsharp15, "clamp", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  /* 8-bit samples and one pair of a blur: csep's fixed point on a CPU, its output straight
   * from the sums (3-sample pixels), or through floats (a bias; a negative pair and a centre) */
  {{"RGB", 263, 17, "auto", &f_gauss31, "wrap", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"BGRx", 100, 30, "auto", &f_gauss15_bias, "constant", "separable", INPUT_DEFAULT},
      COLUMNS_RAN, LOCAL_RAN},
  {{"RGBA", 150, 40, "auto", &f_unsharp15, "mirror", "separable", INPUT_POOL}, COLUMNS_RAN,
      LOCAL_RAN},
};

GST_START_TEST (test_blurs)
{
  const BlurCase *b = &blur_cases[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  DeviceFacts d;

  fail_unless (suite_device_facts (&d), "OpenCL does not know the suite's device");
  rank2_fill (rank2_31, 31);
  rank2_fill (rank2_39, 39);
  run_case_then (&b->c, discrete, 2, 4100 + __i__, NULL, d.local_mem_dedicated ? b->gpu :
      discrete ? NULL : b->cpu);
}

GST_END_TEST;

/* The blurs case's frames that reach each form of a GPU's separable kernels (the GPU box at
 * sizes 3 to 63, equal coefficients over a divisor, 16-bit samples, NV12, a 1x1 frame; lsep at
 * both tile widths, 2 and 4 outputs a work-item, 8 and 4 rows, 16-bit samples, 4:2:0 chroma, a
 * 3x1 frame, a bias, unsharp), on the discrete path as a GPU runs them. The suite's
 * formats-blurs-gpu runs this tcase with GST_CLCONVOLVE_AS_GPU=1, so that PoCL checks them. */
static const gint gpu_blur_cases[] = {
  0, 2, 3, 4, 10, 14, 19, 21, 22, 23, 24, 27, 28, 30, 32, 33
};

GST_START_TEST (test_blurs_gpu)
{
  const BlurCase *b = &blur_cases[gpu_blur_cases[__i__]];
  DeviceFacts d;

  fail_unless (suite_device_facts (&d), "OpenCL does not know the suite's device");
  fail_unless (d.local_mem_dedicated, "the blurs-gpu case needs a GPU, or a CPU taken as one "
      "(GST_CLCONVOLVE_AS_GPU=1)");
  rank2_fill (rank2_31, 31);
  rank2_fill (rank2_39, 39);
  run_case_then (&b->c, TRUE, 2, 4200 + __i__, NULL, b->gpu);
}

GST_END_TEST;

/* Bright frames (samples 250 to 255) through the box's running sums: window sums near their
 * bound, 15 x 15 x 255 = 57,375, where the CPU kernel keeps 16-bit sums, and past it at 17,
 * where it must not; and through csep's 16-bit fixed point (sums near 255 x 256). */
static const Filter f_box17 = { "box", 17, 0.0, 0.0 };

static const BlurCase saturated_cases[] = {
  {{"RGBA", 300, 40, "auto", &f_box15, "clamp", "separable", INPUT_DEFAULT}, BOX_RAN, BOX_RAN},
  {{"RGBA", 70, 37, "r+g+b+a", &f_box17, "mirror", "separable", INPUT_DEFAULT}, BOX_RAN,
      BOX_RAN},
  {{"GRAY8", 45, 33, "y", &f_box15, "wrap", "separable", INPUT_DEFAULT}, BOX_RAN, BOX_RAN},
  {{"NV12", 66, 38, "y+u+v", &f_box15, "clamp", "separable", INPUT_POOL}, BOX_RAN, BOX_RAN},
  {{"RGBA", 300, 40, "auto", &f_gauss15, "clamp", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"GRAY8", 130, 70, "y", &f_gauss63, "mirror", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
  {{"RGBA", 90, 20, "r+g+b+a", &f_unsharp15, "wrap", "separable", INPUT_DEFAULT}, COLUMNS_RAN,
      LOCAL_RAN},
};

GST_START_TEST (test_saturated)
{
  const BlurCase *b = &saturated_cases[__i__];
  DeviceFacts d;

  fail_unless (suite_device_facts (&d), "OpenCL does not know the suite's device");
  random_floor = 250;
  run_case_then (&b->c, FALSE, 2, 4300 + __i__, NULL, d.local_mem_dedicated ? b->gpu : b->cpu);
  random_floor = 0;
}

GST_END_TEST;

/* ------------------------------------------------------------------------------- regions */

/* A rectangle of frame pixels as the test gives it (the roi properties, or a meta of type) */
typedef struct
{
  gint x, y, w, h;
  const gchar *type;
} TestRoi;

/* Whether sample (x, y) of component c stands for a frame pixel in r: a subsampled chroma
 * sample for its xsub x ysub pixels, the luma of packed 4:2:2 for its macropixel's two. */
static gboolean
sample_in_rect (const Geom * g, gint c, gint x, gint y, const TestRoi * r)
{
  gboolean chroma = !is_rgb (g->f) && c != COMP_Y && c != 3;
  gint sx = chroma ? g->f->xsub : 1, sy = chroma ? g->f->ysub : 1;
  gint x0 = x * sx, x1 = x0 + sx, y0 = y * sy, y1 = y0 + sy;

  if (g->f->layout == LAYOUT_PACKED && c == COMP_Y) {
    x0 = x & ~1;
    x1 = x0 + 2;
  }
  return r->w > 0 && r->h > 0 && x0 < r->x + r->w && x1 > r->x && y0 < r->y + r->h &&
      y1 > r->y;
}

/* e for a frame filtered in the n rectangles alone: every sample outside them must be the
 * input's. Returns how many samples inside them the filter changes. */
static gsize
expect_regions (const Geom * g, const Frame * in, Expect * e, const TestRoi * r, gint n)
{
  gsize changed = 0;

  for (gint c = 0; c < g->n_comps; c++) {
    if (!(e->sel & (1u << c)))
      continue;
    for (gint y = 0; y < g->ch[c]; y++)
      for (gint x = 0; x < g->cw[c]; x++) {
        gsize i = (gsize) y * g->cw[c] + x;
        gint v = get_value (g, in, c, x, y);
        gboolean inside = FALSE;

        for (gint k = 0; k < n && !inside; k++)
          inside = sample_in_rect (g, c, x, y, &r[k]);
        if (inside) {
          changed += e->value[c][i] != v;
        } else {
          e->value[c][i] = v;
          e->tie[c][i] = 0;
        }
      }
  }
  return changed;
}

/* One frame of c, filtered in the regions of rois: with meta, each as a
 * GstVideoRegionOfInterestMeta on the buffer and the element taking those of types (NULL:
 * all); else the first as the roi properties (width, height 0: to the frame's edge). hold:
 * the test keeps a reference to the input (not writable: the element must leave it as it
 * was). */
static void
push_regions (GstHarness * h, const Case * c, gboolean discrete, GstBufferPool * pool,
    guint32 seed, const TestRoi * rois, gint n, gboolean meta, const gchar * types,
    gboolean hold)
{
  GstBuffer *held = NULL;
  Geom g;
  Frame in, out;
  Expect e;
  GstBuffer *buf;
  TestRoi r[8];
  gint nr = 0;
  gsize changed;
  gchar *what = describe (c, discrete), *full;

  geom_init (&g, c->format, c->width, c->height);
  random_frame (&g, seed, &in);
  buf = make_buffer (&g, c->input, pool, &in);
  g_object_set (h->element, "roi-meta", meta, "roi-types", types, NULL);
  if (meta) {
    for (gint k = 0; k < n; k++) {
      gst_buffer_add_video_region_of_interest_meta (buf, rois[k].type, rois[k].x, rois[k].y,
          rois[k].w, rois[k].h);
      if (!types || strstr (types, rois[k].type))
        r[nr++] = rois[k];
    }
  } else {
    g_object_set (h->element, "roi-x", rois[0].x, "roi-y", rois[0].y, "roi-width", rois[0].w,
        "roi-height", rois[0].h, NULL);
    r[0] = rois[0];
    /* 0: from x (or the frame's left edge, for any x left of it) to the right edge */
    if (r[0].w == 0) {
      r[0].x = MAX (r[0].x, 0);
      r[0].w = c->width - r[0].x;
    }
    if (r[0].h == 0) {
      r[0].y = MAX (r[0].y, 0);
      r[0].h = c->height - r[0].y;
    }
    nr = 1;
  }
  if (hold)
    held = gst_buffer_ref (buf);
  buf = gst_harness_push_and_pull (h, buf);
  fail_unless (buf != NULL, "%s: no output", what);
  read_buffer (buf, &g, &out);
  gst_buffer_unref (buf);
  if (held) {
    Frame kept;

    read_buffer (held, &g, &kept);
    for (gint p = 0; p < g.n_planes; p++)
      fail_unless (!memcmp (kept.p[p], in.p[p], plane_bytes (&g, p)), "%s: the input held "
          "upstream was written (plane %d)", what, p);
    frame_clear (&kept);
    gst_buffer_unref (held);
  }

  expect_frame (&g, &in, selected_comps (&g, c->planes), c->filter, c->border, &e);
  changed = expect_regions (&g, &in, &e, r, nr);
  full = g_strdup_printf ("%s seed=%u regions=%d%s (first %d,%d %dx%d)", what, seed, n,
      meta ? " meta" : "", rois[0].x, rois[0].y, rois[0].w, rois[0].h);
  /* a region inside the frame must change something, or the check could not fail */
  fail_unless (changed > 0 || nr == 0 || rois[0].x >= c->width || rois[0].w == 0 ||
      rois[0].h == 0, "%s: the filter changes nothing in the regions", full);
  /* issue 44: the whole frame from the far left and top, to the edges */
  fail_unless (meta || rois[0].x != G_MININT || changed > 0, "%s: roi-x=%d with width 0 "
      "filtered nothing", full, G_MININT);
  check_frame (&g, &in, &out, &e, full);

  expect_clear (&e);
  frame_clear (&in);
  frame_clear (&out);
  g_free (full);
  g_free (what);
}

static const Case region_cases[] = {
  {"GRAY8", 37, 29, "y", &f_gauss7, "clamp", "auto", INPUT_DEFAULT},
  {"RGBA", 40, 30, "auto", &f_custom, "mirror", "tiled", INPUT_POOL},
  {"I420", 41, 31, "y+u+v", &f_sobel, "wrap", "float4", INPUT_DEFAULT},
  {"NV12", 38, 30, "y+u+v", &f_box15, "constant", "separable", INPUT_POOL},
  {"YUY2", 41, 29, "y+u+v", &f_gauss7, "mirror", "vector", INPUT_DEFAULT},
  {"GRAY16_LE", 33, 27, "y", &f_motion31, "wrap", "sparse", INPUT_PADDED},
  {"RGB", 35, 21, "auto", &f_sharpen, "clamp", "auto", INPUT_POOL},
  /* csep on a CPU, lsep on a GPU (the box above: the running sums on a CPU) */
  {"RGBA", 45, 70, "auto", &f_gauss15, "mirror", "separable", INPUT_DEFAULT},
};

/* Regions against the reference, the element's frames in place (same caps on both sides):
 * per frame a different rectangle from the properties (inside, across the top-left corner,
 * to the bottom-right edges, outside the frame), then rectangles from meta (several
 * overlapping and across the edges, one type of them, an empty one, none); two inputs held
 * upstream (copied first, left as they were). Formats, borders and methods by turns; both
 * paths. */
GST_START_TEST (test_regions)
{
  const Case *c = &region_cases[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  gint w = c->width, h = c->height;
  const TestRoi props[][1] = {
    {{5, 4, 12, 9}}, {{-3, -2, 10, 8}}, {{w - 6, h - 5, 0, 0}}, {{w + 5, 2, 10, 10}},
    {{1, h / 2, 0, 3}}, {{G_MININT, G_MININT, 0, 0}},
  };
  const TestRoi several[] = {
    {2, 2, 10, 8, "face"}, {8, 5, 10, 10, "face"}, {w - 4, h - 3, 10, 10, "plate"},
    {0, 0, 1, 1, "plate"},
  };
  const TestRoi empty[] = { {3, 3, 0, 5, "face"} };
  GstHarness *hr = start_harness (c, discrete);
  GstBufferPool *pool = NULL;
  guint32 seed = 500 + 10 * __i__;

  if (c->input == INPUT_POOL) {
    Geom g;

    geom_init (&g, c->format, w, h);
    pool = proposed_pool (hr, &g, FALSE);
  }
  for (guint k = 0; k < G_N_ELEMENTS (props); k++)
    push_regions (hr, c, discrete, pool, seed++, props[k], 1, FALSE, NULL, k == 1);
  push_regions (hr, c, discrete, pool, seed++, several, G_N_ELEMENTS (several), TRUE, NULL,
      TRUE);
  push_regions (hr, c, discrete, pool, seed++, several, G_N_ELEMENTS (several), TRUE, "plate",
      FALSE);
  push_regions (hr, c, discrete, pool, seed++, empty, 1, TRUE, NULL, FALSE);
  push_regions (hr, c, discrete, pool, seed++, several, 0, TRUE, NULL, FALSE);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_harness_teardown (hr);
}

GST_END_TEST;

/* Regions between different memories (system memory in, memory:CLBuffer out): the frame is
 * copied around them. */
GST_START_TEST (test_regions_copy)
{
  Case c = region_cases[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);
  gchar *caps = caps_string (c.format, c.width, c.height);
  gchar *cl_caps = g_strdup_printf ("video/x-raw(memory:CLBuffer), %s", strchr (caps, ',') + 1);
  const TestRoi roi = { 3, 5, 11, 7, "face" };
  GstHarness *h;

  c.input = INPUT_DEFAULT;
  apply_case (e, &c);
  h = harness_on_path (e, discrete);
  gst_object_unref (e);
  gst_harness_set_src_caps_str (h, caps);
  gst_harness_set_sink_caps_str (h, cl_caps);
  push_regions (h, &c, discrete, NULL, 900 + __i__, &roi, 1, FALSE, NULL, FALSE);
  push_regions (h, &c, discrete, NULL, 901 + __i__, &roi, 1, TRUE, NULL, TRUE);
  gst_harness_teardown (h);
  g_free (caps);
  g_free (cl_caps);
}

GST_END_TEST;

/* roi-scale's rule as the element documents it: scale x the region's shorter side, the
 * nearest odd (up at an even), at least 3, then the next of these sides */
static gint
scaled_side (gdouble scale, gint w, gint h)
{
  static const gint sides[] = { 3, 5, 7, 9, 11, 15, 19, 23, 31, 39, 47, 55, 63 };
  gdouble want = MIN (scale * MIN (w, h), 63.0);
  gint odd = MAX (3, 2 * (gint) (want / 2.0) + 1);

  for (guint i = 0; i < G_N_ELEMENTS (sides); i++)
    if (sides[i] >= odd)
      return sides[i];
  return 63;
}

/* A region grown by roi-margin and roi-margin-scale (whole pixels, rounded up) */
static TestRoi
grown_roi (const TestRoi * r, gint margin, gdouble mscale)
{
  /* tenths, exactly: the test's scales are multiples of 0.1 */
  gint tenths = (gint) (mscale * 10.0 + 0.5);
  gint mx = margin + (r->w * tenths + 9) / 10, my = margin + (r->h * tenths + 9) / 10;

  return (TestRoi) { r->x - mx, r->y - my, r->w + 2 * mx, r->h + 2 * my, r->type };
}

/* One frame of c with the regions rois as metas, roi-scale scale (faces face_scale where it is
 * 0 or more: roi-types="face=face_scale,plate") and the margins: each region filtered with c's
 * preset at its own side, where grown regions overlap the largest side's result, everything
 * else the input's. */
static void
push_scaled (GstHarness * h, const Case * c, GstBufferPool * pool, guint32 seed,
    const TestRoi * rois, gint n, gdouble scale, gdouble face_scale, gint margin,
    gdouble mscale, const gchar * what)
{
  Geom g;
  Frame in, out;
  Expect e, per[12];
  gint side[12], sides[12], n_sides = 0;
  TestRoi grown[12];
  GstBuffer *buf;
  gchar *full, *types = face_scale >= 0.0 ?
      g_strdup_printf ("face=%g,plate", face_scale) : NULL;

  g_assert (n <= 12);
  geom_init (&g, c->format, c->width, c->height);
  random_frame (&g, seed, &in);
  buf = make_buffer (&g, c->input, pool, &in);
  g_object_set (h->element, "roi-meta", TRUE, "roi-types", types, "roi-scale", scale,
      "roi-margin", margin, "roi-margin-scale", mscale, NULL);
  for (gint k = 0; k < n; k++) {
    gint j = 0;

    gst_buffer_add_video_region_of_interest_meta (buf, rois[k].type, rois[k].x, rois[k].y,
        rois[k].w, rois[k].h);
    gdouble s = face_scale >= 0.0 && !strcmp (rois[k].type, "face") ? face_scale : scale;

    side[k] = s > 0.0 ? scaled_side (s, rois[k].w, rois[k].h) : c->filter->size;
    grown[k] = grown_roi (&rois[k], margin, mscale);
    while (j < n_sides && sides[j] != side[k])
      j++;
    if (j == n_sides)
      sides[n_sides++] = side[k];
  }
  buf = gst_harness_push_and_pull (h, buf);
  fail_unless (buf != NULL, "%s: no output", what);
  read_buffer (buf, &g, &out);
  gst_buffer_unref (buf);

  for (gint j = 0; j < n_sides; j++) {
    Filter f = *c->filter;

    f.size = sides[j];
    expect_frame (&g, &in, selected_comps (&g, c->planes), &f, c->border, &per[j]);
  }
  /* the whole-frame expectation's frame (for covered and sel), its values replaced */
  expect_frame (&g, &in, selected_comps (&g, c->planes), c->filter, c->border, &e);
  for (gint comp = 0; comp < g.n_comps; comp++) {
    if (!(e.sel & (1u << comp)))
      continue;
    e.changed[comp] = 0;
    for (gint y = 0; y < g.ch[comp]; y++)
      for (gint x = 0; x < g.cw[comp]; x++) {
        gsize i = (gsize) y * g.cw[comp] + x;
        gint v = get_value (&g, &in, comp, x, y), best = 0, j = 0;

        for (gint k = 0; k < n; k++)
          if (sample_in_rect (&g, comp, x, y, &grown[k]))
            best = MAX (best, side[k]);
        if (!best) {
          /* outside every grown region: the input's, bit for bit */
          fail_unless (get_value (&g, &out, comp, x, y) == (guint) v, "%s: component %d "
              "(%d,%d) outside the regions changed: %u, input %d", what, comp, x, y,
              get_value (&g, &out, comp, x, y), v);
          e.value[comp][i] = v;
          e.tie[comp][i] = 0;
          continue;
        }
        while (sides[j] != best)
          j++;
        e.value[comp][i] = per[j].value[comp][i];
        e.tie[comp][i] = per[j].tie[comp][i];
        e.changed[comp] += e.value[comp][i] != v;
      }
  }
  full = g_strdup_printf ("%s seed=%u roi-scale=%g roi-types=%s roi-margin=%d "
      "roi-margin-scale=%g", what, seed, scale, types ? types : "", margin, mscale);
  check_frame (&g, &in, &out, &e, full);
  expect_clear (&e);
  for (gint j = 0; j < n_sides; j++)
    expect_clear (&per[j]);
  frame_clear (&in);
  frame_clear (&out);
  g_free (full);
  g_free (types);
}

static const Case scaled_cases[] = {
  {"RGBA", 64, 48, "auto", &f_gauss3, "clamp", "auto", INPUT_DEFAULT},
  {"I420", 62, 46, "y+u+v", &f_box3, "mirror", "auto", INPUT_DEFAULT},
  {"NV12", 60, 44, "y+u+v", &f_gauss3, "constant", "auto", INPUT_DEFAULT},
  {"P010_10LE", 58, 42, "y+u+v", &f_gauss3, "wrap", "auto", INPUT_DEFAULT},
  {"GRAY8", 63, 47, "y", &f_box3, "clamp", "auto", INPUT_DEFAULT},
  {"RGB", 57, 41, "auto", &f_gauss3, "mirror", "auto", INPUT_DEFAULT},
};

/* Regions from meta each filtered with a kernel of its own side (roi-scale) against the
 * reference at that side, on one stream with builds off the streaming thread, as in an
 * application: a side not seen before runs the generic kernel while its program builds, and
 * every frame is checked, whichever ran. Regions from 4x4 to the whole frame, overlapping ones of
 * different sides (the larger's pixels stay), across the edges, the margins (pixels and a
 * fraction) clipped at the frame; roi-scale changed live, a scale of the faces' own
 * (roi-types=face=1,plate), and scaling off (size). Formats, borders and
 * presets by turns; both paths, the discrete one of every other format moving the frame
 * whole (GST_CLCONVOLVE_REGION_WHOLE). */
GST_START_TEST (test_regions_scaled)
{
  const Case *c = &scaled_cases[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  gint w = c->width, h = c->height;
  const TestRoi mixed[] = {
    {3, 4, 4, 4, "face"}, {10, 6, 12, 10, "face"}, {18, 12, 30, 26, "plate"},
    {w - 9, h - 7, 20, 20, "face"}, {w / 2, 2, 16, 40, "face"},
  };
  const TestRoi whole[] = { {0, 0, w, h, "face"}, {5, 5, 8, 8, "plate"} };
  GstHarness *hr;
  gchar *what = describe (c, discrete);
  guint32 seed = 1700 + 10 * __i__;

  /* (reset_split_env puts the suite's synchronous builds back, and takes the override away) */
  g_unsetenv (SYNC_ENV);
  /* every other format on the discrete path: the frame moved whole, not region by region */
  if (discrete && (__i__ >> 1) % 2 == 0)
    g_setenv (REGION_WHOLE_ENV, "1", TRUE);
  hr = start_harness (c, discrete);

  push_scaled (hr, c, NULL, seed++, mixed, G_N_ELEMENTS (mixed), 0.5, -1, 0, 0.0, what);
  push_scaled (hr, c, NULL, seed++, mixed, G_N_ELEMENTS (mixed), 0.5, -1, 2, 0.1, what);
  /* live changes: other sides, larger margins, faces a scale of their own, then scaling off
   * (the preset's size) */
  push_scaled (hr, c, NULL, seed++, mixed, G_N_ELEMENTS (mixed), 1.0, -1, 0, 0.3, what);
  push_scaled (hr, c, NULL, seed++, whole, G_N_ELEMENTS (whole), 0.25, -1, 3, 0.0, what);
  push_scaled (hr, c, NULL, seed++, mixed, G_N_ELEMENTS (mixed), 0.25, 1.0, 0, 0.0, what);
  push_scaled (hr, c, NULL, seed++, mixed, G_N_ELEMENTS (mixed), 0.0, -1, 1, 0.0, what);
  push_scaled (hr, c, NULL, seed++, mixed, G_N_ELEMENTS (mixed), 0.5, -1, 0, 0.0, what);
  gst_harness_teardown (hr);
  g_free (what);
}

GST_END_TEST;

static const Case batched_cases[] = {
  {"RGBA", 96, 72, "auto", &f_gauss7, "clamp", "auto", INPUT_POOL},
  {"I420", 96, 72, "y+u+v", &f_box3, "mirror", "auto", INPUT_POOL},
  {"NV12", 94, 70, "y+u+v", &f_gauss3, "constant", "auto", INPUT_POOL},
  {"P010_10LE", 90, 68, "y+u+v", &f_gauss7, "wrap", "auto", INPUT_POOL},
  {"GRAY8", 97, 71, "y", &f_box3, "clamp", "auto", INPUT_POOL},
  {"RGB", 91, 69, "auto", &f_gauss3, "mirror", "auto", INPUT_POOL},
};

/* Many regions inside the frame, several of one size: on the discrete path with the frame
 * moved whole the windows of a size and view gathered into one image that one launch
 * convolves and the regions scattered back; with the frame left in host memory (fewer parts
 * than the whole frame's threshold) each window uploaded into that image and each region
 * downloaded out of it; on the host-unified path (builds on the streaming thread, so that csep
 * runs from the first frame on a CPU) the windows of a size and view as the blocks of one
 * launch of convolve_csep_table; against the reference: regions of one size (size), then of
 * their own sides (roi-scale) with margins, overlapping ones, and some at the frame's edges
 * (on the discrete path gathered through the border rule with the frame moved whole, one by
 * one with it in host memory), and regions of two sides that meet none of the
 * other side's (one table for both). Formats, borders and presets by turns. Loop
 * index: case * 3 + path (0 discrete and whole, 1 unified, 2 discrete in host memory). */
GST_START_TEST (test_regions_batched)
{
  const Case *c = &batched_cases[__i__ / 3];
  gboolean discrete = __i__ % 3 != 1;
  gint w = c->width, h = c->height;
  const TestRoi many[] = {
    {10, 10, 12, 12, "face"}, {30, 12, 14, 10, "face"}, {52, 30, 16, 16, "face"},
    {20, 40, 10, 12, "plate"}, {62, 48, 12, 10, "face"}, {34, 30, 20, 15, "face"},
    {14, 22, 9, 9, "face"}, {70, 14, 10, 12, "plate"}, {44, 50, 12, 8, "face"},
    {0, 0, 8, 8, "face"}, {w - 10, h - 9, 20, 20, "face"},
  };
  /* two sides, three of each, none meeting another: one gather and one scatter launch for
   * both sizes on the discrete path */
  const TestRoi apart[] = {
    {6, 6, 10, 10, "face"}, {24, 6, 10, 10, "face"}, {42, 6, 10, 10, "face"},
    {6, 30, 20, 20, "face"}, {34, 30, 20, 20, "face"}, {62, 30, 20, 20, "face"},
  };
  const TestRoi band[] = {
    {4, h / 2 - 6, 10, 8, "face"}, {30, h / 2 - 3, 12, 6, "face"}, {w - 20, h / 2, 14, 7, "plate"},
  };
  GstHarness *hr;
  GstBufferPool *pool;
  gchar *what = describe (c, discrete);
  guint32 seed = 1900 + 10 * __i__;
  Geom g;

  /* discrete: builds off the streaming thread (the sides' first frames run the generic
   * kernel) */
  if (discrete)
    g_unsetenv (SYNC_ENV);
  if (__i__ % 3 == 0)
    g_setenv (REGION_WHOLE_ENV, "1", TRUE);
  hr = start_harness (c, discrete);
  geom_init (&g, c->format, w, h);
  pool = proposed_pool (hr, &g, FALSE);
  push_scaled (hr, c, pool, seed++, many, G_N_ELEMENTS (many), 0.0, -1, 0, 0.0, what);
  push_scaled (hr, c, pool, seed++, many, G_N_ELEMENTS (many), 0.4, -1, 1, 0.1, what);
  push_scaled (hr, c, pool, seed++, many, G_N_ELEMENTS (many), 0.0, 0.5, 2, 0.0, what);
  push_scaled (hr, c, pool, seed++, apart, G_N_ELEMENTS (apart), 0.4, -1, 0, 0.0, what);
  /* regions in a band of rows, after frames whose regions reached every row: moved whole,
   * only the windows' rows go up and the regions' rows come down */
  push_scaled (hr, c, pool, seed++, band, G_N_ELEMENTS (band), 0.4, -1, 0, 0.0, what);
  gst_buffer_pool_set_active (pool, FALSE);
  gst_object_unref (pool);
  gst_harness_teardown (hr);
  g_free (what);
}

GST_END_TEST;

/* Regions of interlaced frames (interleaved): each field's rows of a region filtered as a
 * picture of its own, as the whole frame's fields are, every sample outside the regions the
 * input's. Regions in a band of rows, one at the top edge (its field windows reach past it), then
 * every row. Loop index: case * 3 + path: 0 the unified path, 1 the discrete one with the
 * frame in host memory (a window up and a region down each), 2 the discrete one with the frame
 * moved whole (the rows of each field's windows up, those of its regions down). */
static const Case interlaced_region_cases[] = {
  {"RGBA", 64, 48, "auto", &f_gauss7, "mirror", "auto", INPUT_POOL},
  {"NV12", 62, 46, "y+u+v", &f_box3, "wrap", "auto", INPUT_DEFAULT},
  {"I420", 60, 37, "y+u+v", &f_gauss3, "clamp", "auto", INPUT_PADDED},
};

GST_START_TEST (test_regions_interlaced)
{
  const Case *c = &interlaced_region_cases[__i__ / 3];
  gboolean discrete = __i__ % 3 > 0;
  gint w = c->width, h = c->height;
  const TestRoi band[] = {
    {3, h / 2 - 7, 12, 9, "face"}, {24, h / 2 - 2, 10, 7, "face"}, {w - 16, h / 2 + 1, 12, 5, "face"},
  };
  const TestRoi top[] = { {8, 0, 14, 5, "face"}, {30, 3, 9, 4, "face"} };
  const TestRoi tall[] = { {5, 0, 12, 48, "face"}, {40, 10, 14, 30, "face"} };
  GstHarness *hr;
  GstBufferPool *pool = NULL;
  Geom g;

  if (__i__ % 3 == 2)
    g_setenv (REGION_WHOLE_ENV, "1", TRUE);
  test_interlace = "interleaved";
  test_frame_interlaced = FALSE;
  hr = start_harness (c, discrete);
  geom_init (&g, c->format, w, h);
  if (c->input == INPUT_POOL)
    pool = proposed_pool (hr, &g, FALSE);
  push_regions (hr, c, discrete, pool, 4100 + 10 * __i__, band, G_N_ELEMENTS (band), TRUE,
      NULL, FALSE);
  push_regions (hr, c, discrete, pool, 4101 + 10 * __i__, top, G_N_ELEMENTS (top), TRUE,
      NULL, FALSE);
  push_regions (hr, c, discrete, pool, 4102 + 10 * __i__, tall, G_N_ELEMENTS (tall), TRUE,
      NULL, FALSE);
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_harness_teardown (hr);
}

GST_END_TEST;

/* Regions frames in flight: max-inflight=3, six frames pushed before any is pulled, each with
 * its own pixels and regions (several overlapping, one frame with none, one input held
 * upstream: filtered in a frame of ours), then pulled in order, each against the reference.
 * Loop index: 0 the unified path, 1 the discrete one with the frame in host memory (each
 * window up and each region down on its own, inner windows of a size in one launch), 2 the
 * discrete one with the frame moved whole (its upload, kernels and download on three queues)
 * and batches. */
GST_START_TEST (test_regions_inflight)
{
  const Case c = { "RGBA", 64, 48, "auto", &f_gauss7, "mirror", "auto", INPUT_DEFAULT };
  gboolean discrete = __i__ > 0;
  const TestRoi rois[][3] = {
    {{4, 4, 20, 16, "face"}, {16, 10, 24, 20, "face"}, {50, 30, 20, 20, "face"}},
    {{0, 0, 64, 48, "face"}},
    {{10, 20, 12, 12, "face"}, {30, 8, 14, 14, "face"}},
    {{0}},
    {{40, 2, 16, 30, "face"}, {2, 30, 30, 16, "face"}, {20, 20, 10, 10, "face"}},
    {{50, 36, 30, 20, "face"}},
  };
  const gint counts[] = { 3, 1, 2, 0, 3, 1 };
  const gboolean held[] = { FALSE, FALSE, TRUE, FALSE, FALSE, FALSE };
  const gint n_frames = G_N_ELEMENTS (counts);
  GstHarness *h;
  Geom g;
  Frame in[G_N_ELEMENTS (counts)];
  GstBuffer *kept[G_N_ELEMENTS (counts)];
  gchar *what = describe (&c, discrete);

  if (__i__ == 2)
    g_setenv (REGION_WHOLE_ENV, "1", TRUE);
  h = start_harness (&c, discrete);
  g_object_set (h->element, "max-inflight", 3, "roi-meta", TRUE, NULL);
  geom_init (&g, c.format, c.width, c.height);
  for (gint f = 0; f < n_frames; f++) {
    GstBuffer *buf;

    random_frame (&g, 2100 + 10 * __i__ + f, &in[f]);
    buf = make_buffer (&g, c.input, NULL, &in[f]);
    for (gint k = 0; k < counts[f]; k++)
      gst_buffer_add_video_region_of_interest_meta (buf, rois[f][k].type, rois[f][k].x,
          rois[f][k].y, rois[f][k].w, rois[f][k].h);
    kept[f] = held[f] ? gst_buffer_ref (buf) : NULL;
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  for (gint f = 0; f < n_frames; f++) {
    GstBuffer *buf = gst_harness_pull (h);
    Frame out;
    Expect e;
    gchar *full = g_strdup_printf ("%s frame %d of %d in flight", what, f, n_frames);

    fail_unless (buf != NULL, "%s: no output", full);
    read_buffer (buf, &g, &out);
    gst_buffer_unref (buf);
    if (kept[f]) {
      Frame k;

      read_buffer (kept[f], &g, &k);
      for (gint p = 0; p < g.n_planes; p++)
        fail_unless (!memcmp (k.p[p], in[f].p[p], plane_bytes (&g, p)), "%s: the input held "
            "upstream was written", full);
      frame_clear (&k);
      gst_buffer_unref (kept[f]);
    }
    expect_frame (&g, &in[f], selected_comps (&g, c.planes), c.filter, c.border, &e);
    fail_unless (expect_regions (&g, &in[f], &e, rois[f], counts[f]) > 0 || counts[f] == 0,
        "%s: the filter changes nothing in the regions", full);
    check_frame (&g, &in[f], &out, &e, full);
    expect_clear (&e);
    frame_clear (&out);
    frame_clear (&in[f]);
    g_free (full);
  }
  gst_harness_teardown (h);
  g_free (what);
}

GST_END_TEST;

/* -------------------------------------------------------------------------- plane-matrices */

static const gdouble pm_sharp3[9] = { 0, -1, 0, -1, 5, -1, 0, -1, 0 };
static const gdouble pm_grad3[9] = { 1, 2, 1, 2, 4, 2, 1, 2, 1 };
static const gdouble pm_box5[25] = {
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
};
static const Filter f_pm_sharp3 = { NULL, 3, 0.0, 0.0, pm_sharp3 };
static const Filter f_pm_grad3 = { NULL, 3, 0.0, 0.0, pm_grad3 };
static const Filter f_pm_box5 = { NULL, 5, 0.0, 0.0, pm_box5 };

/* A case, and each component's own matrix (NULL: the case's filter runs it) */
typedef struct
{
  Case c;
  const Filter *per[N_COMPS];
} PlaneCase;

static const PlaneCase plane_cases[] = {
  {{"I420", 41, 31, "y+u+v", &f_gauss7, "mirror", "auto", INPUT_DEFAULT},
      {NULL, &f_pm_sharp3, &f_pm_box5}},
  {{"GBR", 33, 21, "r+g+b", &f_box15, "clamp", "separable", INPUT_POOL},
      {&f_pm_grad3, NULL, &f_pm_sharp3}},
  {{"YUY2", 41, 29, "y+u+v", &f_gauss7, "wrap", "float4", INPUT_DEFAULT},
      {&f_pm_sharp3, &f_pm_box5, &f_pm_box5}},
  {{"NV12", 38, 30, "y+u+v", &f_sharpen, "constant", "sparse", INPUT_POOL},
      {&f_pm_box5, &f_pm_grad3, &f_pm_grad3}},
  {{"RGBA", 40, 30, "auto", &f_sharpen, "clamp", "tiled", INPUT_DEFAULT},
      {&f_pm_grad3, &f_pm_grad3, &f_pm_grad3}},
  {{"GRAY16_LE", 33, 27, "y", &f_gauss7, "mirror", "vector", INPUT_PADDED},
      {&f_pm_box5}},
};

/* plane-matrices against the reference: each component convolved with its own matrix (of
 * sizes 3 and 5 beside the case's 3 to 15: the element runs all at the largest side), the
 * others with the case's filter; planar, semi-planar, packed 4:2:2 and packed RGB formats,
 * methods and borders by turns, both paths, two frames each (the second with the entries
 * cleared: the case's filter everywhere again). */
GST_START_TEST (test_plane_matrices)
{
  const PlaneCase *pc = &plane_cases[__i__ >> 1];
  gboolean discrete = __i__ & 1;
  GstHarness *h = start_harness (&pc->c, discrete);
  GstBufferPool *pool = NULL;
  GString *entries = g_string_new (NULL);
  Geom g;

  geom_init (&g, pc->c.format, pc->c.width, pc->c.height);
  if (pc->c.input == INPUT_POOL)
    pool = proposed_pool (h, &g, FALSE);
  for (gint c = 0; c < g.n_comps && c < 3; c++) {
    if (c > 0)
      g_string_append (entries, "|");
    if (pc->per[c]) {
      gchar *m = matrix_string (pc->per[c]->matrix, pc->per[c]->size, "; ");

      g_string_append (entries, m);
      g_free (m);
    }
  }
  for (gint frame = 0; frame < 2; frame++) {
    Frame in, out;
    Expect e, one;
    GstBuffer *buf;
    gchar *what = describe (&pc->c, discrete), *full;
    guint sel = selected_comps (&g, pc->c.planes);

    g_object_set (h->element, "plane-matrices", frame == 0 ? entries->str : NULL, NULL);
    random_frame (&g, 800 + __i__ * 4 + frame, &in);
    buf = gst_harness_push_and_pull (h, make_buffer (&g, pc->c.input, pool, &in));
    fail_unless (buf != NULL, "%s: no output", what);
    read_buffer (buf, &g, &out);
    gst_buffer_unref (buf);

    /* each component's expectation from its own filter, merged into e */
    expect_frame (&g, &in, sel, pc->c.filter, pc->c.border, &e);
    for (gint c = 0; frame == 0 && c < g.n_comps; c++) {
      if (!(sel & (1u << c)) || !pc->per[c])
        continue;
      expect_frame (&g, &in, 1u << c, pc->per[c], pc->c.border, &one);
      g_free (e.value[c]);
      g_free (e.tie[c]);
      e.value[c] = one.value[c];
      e.tie[c] = one.tie[c];
      one.value[c] = NULL;
      one.tie[c] = NULL;
      expect_clear (&one);
    }
    full = g_strdup_printf ("%s plane-matrices=\"%s\"", what, frame == 0 ? entries->str : "");
    check_frame (&g, &in, &out, &e, full);
    expect_clear (&e);
    frame_clear (&in);
    frame_clear (&out);
    g_free (full);
    g_free (what);
  }
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  g_string_free (entries, TRUE);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Four cases that meson runs as four processes (CK_RUN_CASE), so that on a few cores their
 * cold program builds run side by side: YUV layouts, the vector variants on every format, RGB
 * planes, 16-bit gray and float4 blocking, and the deep formats. */
static Suite *
formats_suite (void)
{
  Suite *s = suite_create ("formats");
  TCase *tc;

  /* loop index: format * 2 + discrete */
  tc = tcase_create ("yuv");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_format_planes, 0, 2 * N_YUV_FMTS);
  tcase_add_loop_test (tc, test_tiny_frames, 0, 2 * N_YUV_FMTS);
  tcase_add_loop_test (tc, test_planes_change, 0, 6);
  tcase_add_loop_test (tc, test_format_change, 0, 2);
  tcase_add_loop_test (tc, test_pipeline_frames, 0, 2 * G_N_ELEMENTS (pipe_cases));
  tcase_add_loop_test (tc, test_caps_passthrough, 0, 2 * N_YUV_FMTS);

  tc = tcase_create ("vector");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_vector, 0, 2 * N_FMTS);
  tcase_add_loop_test (tc, test_vector_split, 0, 2 * N_SPLIT_FMTS);

  tc = tcase_create ("rgb");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_rgb_planes, 0, 2 * N_RGB_FMTS);
  tcase_add_loop_test (tc, test_gray16, 0, 2);
  tcase_add_loop_test (tc, test_float4_blocks, 0, 4);
  tcase_add_loop_test (tc, test_rgb24_widths, 0, 2 * G_N_ELEMENTS (rgb24_widths));

  tc = tcase_create ("deep");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_deep_formats, 0, 2 * N_DEEP_FMTS);
  tcase_add_loop_test (tc, test_interlaced, 0, 2 * G_N_ELEMENTS (interlaced_cases));

  tc = tcase_create ("sparse");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_sparse, 0, 2 * G_N_ELEMENTS (sparse_cases));

  tc = tcase_create ("combine");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_combine, 0, 2 * G_N_ELEMENTS (combine_cases));
  tcase_add_loop_test (tc, test_combine_sizes, 0, 12);

  tc = tcase_create ("blurs");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_blurs, 0, 2 * G_N_ELEMENTS (blur_cases));
  tcase_add_loop_test (tc, test_saturated, 0, G_N_ELEMENTS (saturated_cases));

  tc = tcase_create ("blurs-gpu");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_blurs_gpu, 0, G_N_ELEMENTS (gpu_blur_cases));

  tc = tcase_create ("regions");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, reset_split_env, stop_leftover_pipelines);
  tcase_add_loop_test (tc, test_regions, 0, 2 * G_N_ELEMENTS (region_cases));
  tcase_add_loop_test (tc, test_regions_copy, 0, 4);
  tcase_add_loop_test (tc, test_regions_scaled, 0, 2 * G_N_ELEMENTS (scaled_cases));
  tcase_add_loop_test (tc, test_regions_batched, 0, 3 * G_N_ELEMENTS (batched_cases));
  tcase_add_loop_test (tc, test_regions_inflight, 0, 3);
  tcase_add_loop_test (tc, test_regions_interlaced, 0, 3 * G_N_ELEMENTS (interlaced_region_cases));
  tcase_add_loop_test (tc, test_plane_matrices, 0, 2 * G_N_ELEMENTS (plane_cases));
  return s;
}

int
main (int argc, char **argv)
{
  return run_device_suite (argc, argv, formats_suite, "formats", __FILE__, NULL);
}
