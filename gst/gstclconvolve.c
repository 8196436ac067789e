/* clconvolve: convolve video frames on an OpenCL device
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/**
 * SECTION:element-clconvolve
 * @title: clconvolve
 *
 * Convolves (correlates, with the kernel centred, as OpenCV filter2D does) each video frame with
 * a square coefficient matrix on an OpenCL device: a GPU where there is one, else the CPU through
 * PoCL. The matrix is a preset (#GstClConvolve:kernel) generated for any odd #GstClConvolve:size,
 * or a custom #GstClConvolve:matrix. Every colour channel is convolved on its own; alpha and
 * padding bytes pass through unchanged.
 * out = saturate (round (sum (k * in) / divisor + bias)).
 *
 * Both pads take video/x-raw(memory:CLBuffer) as well as system memory: between OpenCL elements
 * on the same device the frames stay in device memory, and come to the host only when another
 * element maps them. Put video/x-raw in front of a sink that takes any caps (fakesink, appsink)
 * to receive system memory.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! clconvolve kernel=motionblur size=7 ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc ! clconvolve kernel=gaussian ! clconvolve kernel=sharpen ! videoconvert ! autovideosink
 * gst-launch-1.0 v4l2src ! videoconvert ! clconvolve matrix="0,-1,0; -1,5,-1; 0,-1,0" ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc ! clconvolve kernel=unsharp size=5 amount=1.5 ! videoconvert ! autovideosink
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclconvolve.h"
#include "gstclenums.h"
#include "framelayout.h"
#include "regions.h"
#include "variants.h"
#include "gstcltuner.h"
#include "gstclworker.h"
#include "gstclcontext.h"
#include "gstclbufferpool.h"
#include "gstclmemory.h"
#include "gstclstats.h"
#include "gstclprogramcache.h"
#include "convkernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_convolve_debug);
#define GST_CAT_DEFAULT gst_cl_convolve_debug

/* Each program's variant file (ClKernelSource's order, which is kernels/meson.build's): what
 * GST_CLCONVOLVE_KERNEL_SOURCE reads instead of the embedded sources. */
static const gchar *const kernel_files[CL_N_SOURCES] = {
  "direct.cl", "vector.cl", "vsplit.cl", "tiled.cl", "separable.cl", "vsep.cl", "sparse.cl",
  "box.cl", "lsep.cl", "csep.cl"
};

#define COMMON_SOURCE "common.cl"

/* Developer override: read the OpenCL sources from this directory (common.cl and the variant
 * files), or every program's whole source from this one file, instead of the embedded ones. */
#define SOURCE_ENV "GST_CLCONVOLVE_KERNEL_SOURCE"
/* Developer override: on a host-unified device (a CPU), still copy frames to device buffers and
 * back in bands on three queues, as on a GPU, so that path can be tested without one. */
#define DISCRETE_ENV "GST_CLCONVOLVE_DISCRETE"
/* Developer override: pixels per work-item of the float4 kernel (register blocking); 1 also
 * makes method=separable run two passes on a CPU (the formats suite's float4_blocks case runs
 * with it to cover that form). */
#define BLOCK_ENV "GST_CLCONVOLVE_BLOCK"
/* Developer override: 1 (a non-zero integer) lets method=vector split the colour planes
 * (convolve_vsplit) wherever the view allows it, on any device; 0 never (the suites run both
 * ways). Unset or not an integer: on AVX-512 CPUs. */
#define SPLIT_ENV "GST_CLCONVOLVE_SPLIT"
/* Developer override: 1 makes the fixed rules' sparse variant (method=sparse, or auto without
 * tuning) read its taps from a local tile (what a GPU runs) on any device, so that the CPU
 * suites check that form too. */
#define SPARSE_TILES_ENV "GST_CLCONVOLVE_SPARSE_TILES"
/* Developer override: 1 runs the generic kernels (matrix side and border as arguments) for
 * every setting, never a specialised one, and builds them when needed (the suites check them;
 * the benchmark measures their cost); "dense": only the dense one. */
#define GENERIC_ENV "GST_CLCONVOLVE_GENERIC"
/* Developer override: 1 makes the streaming thread wait for the worker's builds and tuning, as
 * before they moved off it, so that a test's first frame runs the variant it checks. */
#define SYNC_ENV "GST_CLCONVOLVE_SYNC_BUILDS"
/* Developer override: a discrete device stages a frame of system memory in this many pieces
 * copied at once by a pool of threads (1: one memcpy), instead of half the CPUs' count. */
#define COPY_ENV "GST_CLCONVOLVE_COPY_THREADS"

#define NCOEF (CONV_MAX_SIZE * CONV_MAX_SIZE)
/* method=separable: at most CL_MAX_RANK vector pairs (variants.h); the split may leave an L1
 * error of at most SEP_LIMIT / 65535 of the matrix (divided by its divisor), i.e. 0.002 of a
 * sample's least significant bit at 16 bits, so the split is as exact as the dense sum in
 * float */
#define SEP_LIMIT 0.002

#define DEFAULT_KERNEL CONV_PRESET_GAUSSIAN
#define DEFAULT_SIZE 5
#define DEFAULT_DIVISOR 0.0
#define DEFAULT_BIAS 0.0
#define DEFAULT_BORDER GST_CL_CONVOLVE_BORDER_CLAMP
#define DEFAULT_METHOD GST_CL_CONVOLVE_METHOD_AUTO
#define DEFAULT_ANGLE 45.0
#define DEFAULT_SIGMA 0.0
#define DEFAULT_AMOUNT 1.0
#define DEFAULT_COMBINE GST_CL_CONVOLVE_COMBINE_NONE
#define DEFAULT_DEVICE ""
#define DEFAULT_PROFILING FALSE
#define DEFAULT_BANDS 0
#define DEFAULT_MAX_INFLIGHT 1
#define DEFAULT_PLANES GST_CL_CONVOLVE_PLANES_AUTO
#define DEFAULT_AUTOTUNE TRUE

enum
{
  PROP_0,
  PROP_KERNEL,
  PROP_SIZE,
  PROP_MATRIX,
  PROP_DIVISOR,
  PROP_BIAS,
  PROP_BORDER,
  PROP_METHOD,
  PROP_ANGLE,
  PROP_SIGMA,
  PROP_AMOUNT,
  PROP_COMBINE,
  PROP_MATRIX_Y,
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_DEVICE_INDEX,
  PROP_PROFILING,
  PROP_STATS,
  PROP_BANDS,
  PROP_MAX_INFLIGHT,
  PROP_PLANES,
  PROP_AUTOTUNE,
  PROP_CONTEXT,
  PROP_ROI_X,
  PROP_ROI_Y,
  PROP_ROI_WIDTH,
  PROP_ROI_HEIGHT,
  PROP_ROI_META,
  PROP_ROI_TYPES,
  PROP_PLANE_MATRICES
};

/* How a frame's plane reaches the kernel and its result the output buffer. */
typedef enum
{
  PATH_NONE,
  PATH_IN_PLACE,                /* host-unified device: the kernel uses the pinned buffer itself */
  PATH_PINNED_DMA,              /* discrete device: DMA from or to pinned memory */
  PATH_STAGING_COPY,            /* one host memcpy through a pinned staging buffer */
  PATH_PAGEABLE_DMA,            /* discrete device: DMA from or to ordinary (pageable) memory */
  PATH_DEVICE                   /* discrete device: device-resident memory, no transfer */
} MemPath;

/* The most frames in flight (the max-inflight property's maximum). */
#define MAX_INFLIGHT 16

/* A frame queued on the device: its frames (mapped), what was queued for it and what is left to
 * do once its output is written. Each slot has device copies and staging of its own, so that
 * frame n+1 never overwrites what frame n still reads or writes. */
typedef struct
{
  GstBuffer *inbuf, *outbuf;    /* held while in flight; NULL for transform ()'s frames */
  GstVideoFrame in, out;
  ClEvents *e;                  /* its events (large: allocated once per slot) */
  cl_event done;                /* completes when the output is written */
  ClFrameRun f;                 /* what it runs on: finished after a failure */
  cl_mem src_mem, dst_mem;      /* discrete device: the frame's device copies */
  gsize src_bytes, dst_bytes;
  GstMemory *stage_in, *stage_out;      /* pinned staging for frames in other memory */
  gboolean copy_out;            /* unified device: the output is staged, copied out at the end */
  gboolean busy;                /* counted in the context's frames_busy */
  ClPlane dst[CL_MAX_PLANES];   /* ... from these planes */
  gint n_planes, row[CL_MAX_PLANES], height[CL_MAX_PLANES];
  guint copies;
  MemPath path_in, path_out;
} FrameSlot;

static const gchar *const path_names[] = {
  "none", "in-place", "pinned-dma", "staging-copy", "pageable-dma", "device"
};

static const gchar *const path_logs[] = {
  "none",
  "pinned memory of this device, used in place by the kernel (no copy)",
  "pinned memory of this device, moved by DMA (no host copy)",
  "not pinned memory of this device: one host copy per frame through a pinned staging buffer",
  "not pinned memory of this device: DMA from pageable memory (the driver copies it)",
  "memory:CLBuffer on this device: the frame stays in device memory (no transfer)"
};

/* What the coefficients and the program depend on: copied from the properties under the object
 * lock, used by the streaming thread without it. */
typedef struct
{
  ConvPreset kernel;
  gint size;
  gint custom_size;             /* side of the custom matrix, 0 when none was set */
  gdouble custom[NCOEF];
  gdouble divisor, bias, angle, sigma, amount;
  GstClConvolveCombine combine;
  gint custom_y_size;           /* side of matrix-y, 0 when none was set */
  gdouble custom_y[NCOEF];
  GstClConvolveBorder border;
  GstClConvolveMethod method;
  guint planes;                 /* GstClConvolvePlanes */
  gboolean autotune;
  /* plane-matrices: per component (Y U V A or R G B A) its own matrix's side, 0: the kernel's */
  gint plane_size[CL_MAX_MATRICES];
  gdouble plane_m[CL_MAX_MATRICES][NCOEF];
} Settings;

struct _GstClConvolve
{
  GstVideoFilter parent;

  /* under the object lock */
  Settings *set;                /* on the heap, as cur: two matrices of doubles */
  guint cookie;                 /* bumped on every change of set */
  gchar *matrix_text;
  gchar *matrix_y_text;
  gchar *plane_matrices_text;
  gchar *device;
  gchar *device_name;
  gchar *device_index;          /* "P:D" of the device in use */
  GstClContext *offered;        /* the last context given (set_context, a query, ours) */
  gboolean profiling;
  gint bands;
  guint max_inflight;
  ClRect roi;                   /* roi-x, -y, -width, -height (width, height 0: to the edge) */
  gboolean roi_meta;
  gchar *roi_types;             /* the property's text */
  gchar **roi_type_list;        /* its names, NULL for every type */

  /* under stats_lock: written by the streaming thread, read by the stats getter */
  GMutex stats_lock;
  GstClStats stats;
  guint64 host_copies;          /* frames the host copied, each way (memcpy or pageable DMA) */
  MemPath path_in, path_out;    /* the last frame's */
  guint programs_built, programs_loaded;        /* the device context's, at the last build */
  guint programs_held;          /* the programs it kept then (in use and idle) */
  guint tunings, tunings_loaded;        /* keys this element timed / read from the disk */
  guint64 generic_frames;       /* frames a generic kernel ran on */
  guint jobs_pending;           /* jobs the element waits for */
  ClVariant variant;            /* the last variant made current (first shape) */

  /* streaming thread (and start/stop) only */
  GstClContext *ctx;
  ClDeviceFacts facts;          /* the context's device, for the variant rules */
  const gchar *source[CL_N_SOURCES];    /* each program's source (ClKernelSource) */
  const gchar *sources_digest;  /* SHA-256 of them all (the tuning key) */
  gchar *source_override[CL_N_SOURCES]; /* GST_CLCONVOLVE_KERNEL_SOURCE's texts, else NULL */
  gchar *digest_override;
  cl_command_queue queue;       /* kernels (and everything on a host-unified device) */
  cl_command_queue up_queue, down_queue;        /* discrete device: transfers */
  gboolean profiling_on;        /* the queues record profiling events */
  gboolean discrete;            /* frames are copied to device memory and back */
  gint block_override;          /* GST_CLCONVOLVE_BLOCK, 0 when unset */
  gint split_override;          /* GST_CLCONVOLVE_SPLIT: 0 or 1, -1 when unset */
  gboolean sparse_tiles;        /* GST_CLCONVOLVE_SPARSE_TILES=1 */
  gboolean generic_only;        /* GST_CLCONVOLVE_GENERIC */
  gboolean generic_dense;       /* GST_CLCONVOLVE_GENERIC=dense */
  GstAllocator *allocator;      /* pinned memory: proposed upstream, staging */
  GstAllocator *dev_allocator;  /* memory:CLBuffer: device-resident on a discrete device, else
                                 * the pinned allocator */
  FrameSlot *slots;             /* MAX_INFLIGHT of them, a ring: n_pending from `oldest` */
  guint oldest, n_pending;
  ClEvents *spent;              /* the last completed frame's events, released while the next
                                 * frame is on the device */
  /* per matrix (ClView.matrix: one, or one per component with plane-matrices) */
  cl_mem coef_mem[CL_MAX_MATRICES];
  cl_mem sep_mem[CL_MAX_MATRICES];      /* method=separable: the vector pairs */
  cl_mem taps_mem[CL_MAX_MATRICES];     /* method=sparse: the non-zero coefficients */
  gint m_rank[CL_MAX_MATRICES], m_rank_a[CL_MAX_MATRICES], m_ntaps[CL_MAX_MATRICES];
  gint n_matrices;
  /* what the variant rules see of them all: pairs, -1 where one matrix has more than
   * CL_MAX_RANK (or none splits); the most taps, 0 where one has more than CL_MAX_TAPS */
  gint rank;
  gint rank_a;                  /* ... of them the first matrix's (combine: the second's follow) */
  gint ntaps;
  gboolean box;                 /* every matrix a box (ClKernelRequest.box) */
  cl_mem tmp_mem;               /* method=separable: the row pass's output */
  gsize tmp_bytes;
  ClBuilt built[CL_MAX_SHAPES];  /* specialised kernels, per pixel shape */
  ClBuilt generic[CL_MAX_SHAPES];        /* the generic kernels, kept once made */
  ClBuilt generic_sep[CL_MAX_SHAPES];    /* the generic separable ones (options alone: its
                                         * build failed) */
  ClBuilt run[CL_MAX_SHAPES];    /* what each shape runs: a view of built or generic(_sep) */
  /* the worker's jobs the element waits for: per shape its kernel's (JOB), its generic
   * separable program's (SEP_JOB) */
  ClJob *jobs[2 * CL_MAX_SHAPES];
  gint64 job_asked[2 * CL_MAX_SHAPES];
  gboolean tune_next[CL_MAX_SHAPES];     /* jobs[slot] builds the fixed rules' variant; a
                                         * tuning job follows */
  gboolean sync_builds;         /* GST_CLCONVOLVE_SYNC_BUILDS */
  gint copy_parts;              /* staging copies' pieces (GST_CLCONVOLVE_COPY_THREADS) */
  gboolean generics_prepared;   /* prepare_generics done */
  ClKernelRequest requests[CL_MAX_SHAPES];
  gchar *tune_dir;              /* where tuning choices are kept; NULL: memory only */
  Settings *cur;                /* the snapshot in use (on the heap: the instance must stay
                                 * under 64 KiB, and Settings is half of that) */
  guint cur_cookie;
  gboolean cur_valid;
  /* regions: the parts of the frame's regions and the buffers of their windows (in: host
   * frames uploaded; out: what the kernels write) */
  ClRegionPart *parts;          /* CL_MAX_REGIONS x CL_MAX_VIEWS */
  GstBuffer *ip_source;         /* in place, a held input: what transform_ip copies first */
  GstBufferPool *held_pool;     /* ... and the frames it is copied into (of the src caps) */
  cl_mem region_in, region_out;
  gsize region_in_bytes, region_out_bytes;
  /* passthrough: the settings make the identity (as of identity_cookie; cookie never starts
   * there), and the negotiated caps are the same on both sides */
  gboolean identity, same_caps;
  gboolean warned_components;   /* the plane-matrices warning was posted (until they change) */
  guint identity_cookie;
  gboolean identity_negotiated; /* the identity when the caps were last chosen */
};

#define CAPS_FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, RGB, BGR, GRAY8, " \
  "GRAY16_LE, GRAY16_BE, I420, YV12, Y42B, Y444, NV12, NV21, NV16, NV24, YUY2, UYVY, " \
  "P010_10LE, P012_LE, P016_LE, I420_10LE, I420_12LE, I422_10LE, I422_12LE, " \
  "Y444_10LE, Y444_12LE, Y444_16LE, AYUV, VUYA, RGBA64_LE, GBR, GBRA }"
/* memory:CLBuffer first: OpenCL neighbours on the same device keep frames on it */
#define CL_CONVOLVE_CAPS \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CL_BUFFER, CAPS_FORMATS) "; " \
  GST_VIDEO_CAPS_MAKE (CAPS_FORMATS)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (CL_CONVOLVE_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (CL_CONVOLVE_CAPS));

#define gst_cl_convolve_parent_class parent_class
G_DEFINE_TYPE (GstClConvolve, gst_cl_convolve, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clconvolve, "clconvolve", GST_RANK_NONE, GST_TYPE_CL_CONVOLVE);

/* ---------------------------------------------------------------------------------------------
 * Properties: setters change self->set under the object lock and bump the cookie; the streaming
 * thread picks the change up at its next frame. No OpenCL here. */

/* The first matrix s describes (before the divisor) into k; returns its side. */
static gint
settings_first (const Settings * s, gdouble * k)
{
  if (s->kernel == CONV_PRESET_CUSTOM && s->custom_size) {
    memcpy (k, s->custom, sizeof (gdouble) * s->custom_size * s->custom_size);
    return s->custom_size;
  }
  if (s->kernel == CONV_PRESET_UNSHARP)
    conv_unsharp_generate (s->size, s->sigma, s->amount, k);
  else
    conv_preset_generate (s->kernel, s->size, s->sigma, s->angle, k);
  return s->size;
}

/* Whether the settings run a second matrix beside the first (combine magnitude or max). */
static gboolean
settings_paired (const Settings * s)
{
  return s->combine == GST_CL_CONVOLVE_COMBINE_MAGNITUDE ||
      s->combine == GST_CL_CONVOLVE_COMBINE_MAX;
}

static gint matrix_size (const Settings * s);

/* Puts the n x n matrix k centred in an m x m one (m >= n), in place (k holds m * m). */
static void
centre_in (gdouble * k, gint n, gint m)
{
  gint o = (m - n) / 2;

  if (m == n)
    return;
  for (gint j = n - 1; j >= 0; j--)
    for (gint i = n - 1; i >= 0; i--)
      k[(j + o) * m + i + o] = k[j * n + i];
  for (gint j = 0; j < m; j++)
    for (gint i = 0; i < m; i++)
      if (j < o || j >= o + n || i < o || i >= o + n)
        k[j * m + i] = 0.0;
}

/* The matrices s runs into k and (if paired, else k2 is untouched) k2, both of the returned
 * side: the second is matrix-y, or the first's transpose; the smaller centred in the larger. */
static gint
settings_matrices (const Settings * s, gdouble * k, gdouble * k2)
{
  gint n = settings_first (s, k), m;

  if (!settings_paired (s))
    return n;
  if (!s->custom_y_size) {
    conv_transpose (k, n, k2);
    return n;
  }
  m = s->custom_y_size;
  memcpy (k2, s->custom_y, sizeof (gdouble) * m * m);
  if (m > n)
    centre_in (k, n, m);
  else
    centre_in (k2, m, n);
  return MAX (n, m);
}

/* The matrix s describes (before the divisor) into k; returns its side. */
static gint
settings_matrix (const Settings * s, gdouble * k)
{
  gdouble *k2 = g_new (gdouble, NCOEF);
  gint n = settings_matrices (s, k, k2);

  g_free (k2);
  return n;
}

/* The divisor of the settings' coefficients: the property, or the first matrix's automatic
 * one (the second matrix is divided by the same). */
static gdouble
settings_divisor (const Settings * s, const gdouble * k, gint n)
{
  return s->divisor != 0.0 ? s->divisor : conv_auto_divisor (k, n);
}

/* Whether the device coefficients of s (divided, as floats) are usable; err gets the reason
 * when they are not. The setters call it under the object lock on the settings they are about
 * to make current (generating a matrix takes microseconds), so self->set is always usable. */
static gboolean
settings_usable (const Settings * s, gchar * err, gsize errlen)
{
  gdouble *k = g_new (gdouble, NCOEF), *k2 = g_new (gdouble, NCOEF);
  gfloat *f = g_new (gfloat, NCOEF);
  gint n = settings_matrices (s, k, k2);
  gboolean ok = conv_normalise (k, n, s->divisor, f, err, errlen);

  if (ok && settings_paired (s)) {
    gchar why[200];

    ok = conv_normalise (k2, n, settings_divisor (s, k, n), f, why, sizeof (why));
    if (!ok)
      g_snprintf (err, errlen, "the second matrix (matrix-y or the transpose): %s", why);
  }
  for (gint c = 0; ok && c < CL_MAX_MATRICES; c++) {
    gint m = s->plane_size[c];
    gchar why[200];

    if (!m)
      continue;
    if (s->combine != GST_CL_CONVOLVE_COMBINE_NONE) {
      g_snprintf (err, errlen, "combine takes the kernel's matrix on every plane: "
          "plane-matrices must be empty with it");
      ok = FALSE;
      break;
    }
    ok = conv_normalise (s->plane_m[c], m, s->divisor != 0.0 ? s->divisor :
        conv_auto_divisor (s->plane_m[c], m), f, why, sizeof (why));
    if (!ok)
      g_snprintf (err, errlen, "plane-matrices entry %d: %s", c + 1, why);
  }
  g_free (f);
  g_free (k2);
  g_free (k);
  return ok;
}

/* Stores a double property (GObject has already refused NaN and out-of-range values), unless
 * the coefficients it leads to are unusable (then a warning names the problem and the value
 * stays). A controller syncs every frame: only a real change makes the streaming thread
 * re-upload. */
static void
set_double (GstClConvolve * self, gdouble * field, const GValue * value, const gchar * name)
{
  gdouble v = g_value_get_double (value), old;
  gboolean ok = TRUE;
  gchar err[256];

  GST_OBJECT_LOCK (self);
  old = *field;
  if (old != v) {
    *field = v;
    ok = settings_usable (self->set, err, sizeof (err));
    if (ok)
      self->cookie++;
    else
      *field = old;
  }
  GST_OBJECT_UNLOCK (self);
  if (!ok)
    g_warning ("%s: %s=%g refused: %s; keeping %g", GST_OBJECT_NAME (self), name, v, err, old);
}

static void
set_matrix (GstClConvolve * self, const gchar * text)
{
  gdouble *k = g_new (gdouble, NCOEF);
  gchar err[256];
  gint w, h, n = conv_matrix_parse_shape (text, k, &w, &h, err, sizeof (err));
  gchar *formatted;

  if (n == 0) {
    g_warning ("%s: matrix refused: %s; keeping the previous kernel", GST_OBJECT_NAME (self),
        err);
    g_free (k);
    return;
  }
  GST_OBJECT_LOCK (self);
  {
    gfloat *f = g_new (gfloat, n * n);
    gboolean ok = conv_normalise (k, n, self->set->divisor, f, err, sizeof (err));

    g_free (f);
    if (!ok) {
      GST_OBJECT_UNLOCK (self);
      g_warning ("%s: matrix refused: %s; keeping the previous kernel", GST_OBJECT_NAME (self),
          err);
      g_free (k);
      return;
    }
  }
  formatted = conv_matrix_format_shape (k, n, w, h);
  memcpy (self->set->custom, k, sizeof (gdouble) * n * n);
  self->set->custom_size = n;
  self->set->kernel = CONV_PRESET_CUSTOM;
  self->set->size = n;
  g_free (self->matrix_text);
  self->matrix_text = g_strdup (formatted);
  self->cookie++;
  GST_OBJECT_UNLOCK (self);
  free (formatted);
  g_free (k);
  g_object_notify (G_OBJECT (self), "kernel");
  g_object_notify (G_OBJECT (self), "size");
}

/* matrix-y: the second matrix of combine=magnitude and max; NULL or empty clears it (the
 * first matrix's transpose again). */
static void
set_matrix_y (GstClConvolve * self, const gchar * text)
{
  gdouble *k = g_new (gdouble, NCOEF);
  gchar err[256];
  gint w = 0, h = 0, n = 0, old_n;
  gchar *formatted = NULL;
  gboolean ok;

  if (text && *text) {
    n = conv_matrix_parse_shape (text, k, &w, &h, err, sizeof (err));
    if (n == 0) {
      g_warning ("%s: matrix-y refused: %s; keeping the previous one", GST_OBJECT_NAME (self),
          err);
      g_free (k);
      return;
    }
    formatted = conv_matrix_format_shape (k, n, w, h);
  }
  GST_OBJECT_LOCK (self);
  old_n = self->set->custom_y_size;
  {
    gdouble *old = g_memdup2 (self->set->custom_y, sizeof (gdouble) * NCOEF);

    if (n)
      memcpy (self->set->custom_y, k, sizeof (gdouble) * n * n);
    self->set->custom_y_size = n;
    ok = settings_usable (self->set, err, sizeof (err));
    if (ok) {
      g_free (self->matrix_y_text);
      self->matrix_y_text = g_strdup (formatted);
      self->cookie++;
    } else {
      memcpy (self->set->custom_y, old, sizeof (gdouble) * NCOEF);
      self->set->custom_y_size = old_n;
    }
    g_free (old);
  }
  GST_OBJECT_UNLOCK (self);
  if (!ok)
    g_warning ("%s: matrix-y refused: %s; keeping the previous one", GST_OBJECT_NAME (self),
        err);
  free (formatted);
  g_free (k);
}

/* plane-matrices: a matrix per component, entries separated by '|' (an empty one: the
 * kernel's matrix); refused as a whole, with a warning, when an entry is not a matrix or the
 * coefficients would be unusable. */
static void
set_plane_matrices (GstClConvolve * self, const gchar * text)
{
  gchar **entries = text && *text ? g_strsplit (text, "|", -1) : g_new0 (gchar *, 1);
  gint size[CL_MAX_MATRICES] = { 0 }, w, h;
  gdouble *m = g_new0 (gdouble, (gsize) CL_MAX_MATRICES * NCOEF);
  GString *formatted = g_string_new (NULL);
  gchar err[256] = "";
  gboolean ok = g_strv_length (entries) <= CL_MAX_MATRICES;

  if (!ok)
    g_snprintf (err, sizeof (err), "%u entries, at most %d (one per component)",
        g_strv_length (entries), CL_MAX_MATRICES);
  for (gint c = 0; ok && entries[c]; c++) {
    gchar *e = g_strstrip (entries[c]);

    if (c > 0)
      g_string_append (formatted, " | ");
    if (!*e)
      continue;
    size[c] = conv_matrix_parse_shape (e, m + (gsize) c * NCOEF, &w, &h, err, sizeof (err));
    if (!size[c]) {
      gchar *why = g_strdup (err);

      g_snprintf (err, sizeof (err), "entry %d: %s", c + 1, why);
      g_free (why);
      ok = FALSE;
    } else {
      char *f = conv_matrix_format_shape (m + (gsize) c * NCOEF, size[c], w, h);

      g_string_append (formatted, f);
      free (f);
    }
  }
  if (ok) {
    Settings *s = self->set;
    gint old_size[CL_MAX_MATRICES];
    gdouble *old = g_new (gdouble, (gsize) CL_MAX_MATRICES * NCOEF);

    GST_OBJECT_LOCK (self);
    for (gint c = 0; c < CL_MAX_MATRICES; c++) {
      old_size[c] = s->plane_size[c];
      memcpy (old + (gsize) c * NCOEF, s->plane_m[c], sizeof (gdouble) * NCOEF);
      s->plane_size[c] = size[c];
      memcpy (s->plane_m[c], m + (gsize) c * NCOEF, sizeof (gdouble) * NCOEF);
    }
    ok = settings_usable (s, err, sizeof (err));
    if (ok) {
      g_free (self->plane_matrices_text);
      self->plane_matrices_text = text && *text ? g_strdup (formatted->str) : NULL;
      self->warned_components = FALSE;
      self->cookie++;
    } else {
      for (gint c = 0; c < CL_MAX_MATRICES; c++) {
        s->plane_size[c] = old_size[c];
        memcpy (s->plane_m[c], old + (gsize) c * NCOEF, sizeof (gdouble) * NCOEF);
      }
    }
    GST_OBJECT_UNLOCK (self);
    g_free (old);
  }
  if (!ok)
    g_warning ("%s: plane-matrices refused: %s; keeping the previous ones",
        GST_OBJECT_NAME (self), err);
  g_string_free (formatted, TRUE);
  g_strfreev (entries);
  g_free (m);
}

static void
set_size (GstClConvolve * self, gint v)
{
  gint old, custom;
  gboolean usable = TRUE;
  gchar err[256];

  GST_OBJECT_LOCK (self);
  old = self->set->size;
  custom = self->set->kernel == CONV_PRESET_CUSTOM ? self->set->custom_size : 0;
  if (v % 2 == 1 && (custom == 0 || custom == v)) {
    if (v != old) {
      self->set->size = v;
      usable = settings_usable (self->set, err, sizeof (err));
      if (usable)
        self->cookie++;
      else
        self->set->size = old;
    }
    custom = -1;
  }
  GST_OBJECT_UNLOCK (self);

  if (!usable)
    g_warning ("%s: size %d refused: %s; keeping %d", GST_OBJECT_NAME (self), v, err, old);
  if (custom == -1)
    return;
  if (v % 2 == 0)
    g_warning ("%s: size %d refused: the kernel size must be odd (1, 3, 5, ... %d); keeping %d",
        GST_OBJECT_NAME (self), v, CONV_MAX_SIZE, old);
  else
    g_warning ("%s: size %d refused: kernel=custom takes its size (%d) from the matrix; "
        "choose a preset kernel first; keeping %d", GST_OBJECT_NAME (self), v, custom, old);
}

static void
gst_cl_convolve_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstClConvolve *self = GST_CL_CONVOLVE (object);
  gboolean size_changed = FALSE;

  switch (prop_id) {
    case PROP_KERNEL:{
      ConvPreset old_kernel;
      gint old_size;
      gboolean usable;
      gchar err[256];

      GST_OBJECT_LOCK (self);
      old_kernel = self->set->kernel;
      old_size = self->set->size;
      self->set->kernel = g_value_get_enum (value);
      if (self->set->kernel == CONV_PRESET_CUSTOM && self->set->custom_size &&
          self->set->size != self->set->custom_size) {
        self->set->size = self->set->custom_size;
        size_changed = TRUE;
      }
      usable = settings_usable (self->set, err, sizeof (err));
      if (usable) {
        self->cookie++;
      } else {
        self->set->kernel = old_kernel;
        self->set->size = old_size;
        size_changed = FALSE;
      }
      GST_OBJECT_UNLOCK (self);
      if (!usable)
        g_warning ("%s: kernel=%s refused: %s; keeping kernel=%s", GST_OBJECT_NAME (self),
            gst_cl_enum_nick (GST_TYPE_CL_CONVOLVE_KERNEL, g_value_get_enum (value)), err,
            gst_cl_enum_nick (GST_TYPE_CL_CONVOLVE_KERNEL, old_kernel));
      if (size_changed)
        g_object_notify (object, "size");
      break;
    }
    case PROP_SIZE:
      set_size (self, g_value_get_int (value));
      break;
    case PROP_MATRIX:
      set_matrix (self, g_value_get_string (value));
      break;
    case PROP_DIVISOR:
      set_double (self, &self->set->divisor, value, "divisor");
      break;
    case PROP_BIAS:
      set_double (self, &self->set->bias, value, "bias");
      break;
    case PROP_ANGLE:
      set_double (self, &self->set->angle, value, "angle");
      break;
    case PROP_SIGMA:
      set_double (self, &self->set->sigma, value, "sigma");
      break;
    case PROP_AMOUNT:
      set_double (self, &self->set->amount, value, "amount");
      break;
    case PROP_COMBINE:{
      GstClConvolveCombine old;
      gboolean usable;
      gchar err[256];

      GST_OBJECT_LOCK (self);
      old = self->set->combine;
      self->set->combine = g_value_get_enum (value);
      usable = settings_usable (self->set, err, sizeof (err));
      if (usable)
        self->cookie++;
      else
        self->set->combine = old;
      GST_OBJECT_UNLOCK (self);
      if (!usable)
        g_warning ("%s: combine=%s refused: %s; keeping combine=%s", GST_OBJECT_NAME (self),
            gst_cl_enum_nick (GST_TYPE_CL_CONVOLVE_COMBINE, g_value_get_enum (value)), err,
            gst_cl_enum_nick (GST_TYPE_CL_CONVOLVE_COMBINE, old));
      break;
    }
    case PROP_MATRIX_Y:
      set_matrix_y (self, g_value_get_string (value));
      break;
    case PROP_BORDER:
      GST_OBJECT_LOCK (self);
      self->set->border = g_value_get_enum (value);
      self->cookie++;
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_METHOD:
      GST_OBJECT_LOCK (self);
      self->set->method = g_value_get_enum (value);
      self->cookie++;
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_PROFILING:
      GST_OBJECT_LOCK (self);
      self->profiling = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_BANDS:
      GST_OBJECT_LOCK (self);
      self->bands = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_MAX_INFLIGHT:{
      guint n = g_value_get_uint (value), old;

      GST_OBJECT_LOCK (self);
      old = self->max_inflight;
      self->max_inflight = n;
      GST_OBJECT_UNLOCK (self);
      /* the latency the element adds changed: the pipeline asks again */
      if (n != old)
        gst_element_post_message (GST_ELEMENT (self),
            gst_message_new_latency (GST_OBJECT (self)));
      break;
    }
    case PROP_AUTOTUNE:
      GST_OBJECT_LOCK (self);
      self->set->autotune = g_value_get_boolean (value);
      self->cookie++;
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_PLANES:
      GST_OBJECT_LOCK (self);
      self->set->planes = g_value_get_flags (value);
      self->cookie++;
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ROI_X:
    case PROP_ROI_Y:
    case PROP_ROI_WIDTH:
    case PROP_ROI_HEIGHT:{
      gint v = g_value_get_int (value);

      GST_OBJECT_LOCK (self);
      if (prop_id == PROP_ROI_X)
        self->roi.x = v;
      else if (prop_id == PROP_ROI_Y)
        self->roi.y = v;
      else if (prop_id == PROP_ROI_WIDTH)
        self->roi.width = v;
      else
        self->roi.height = v;
      GST_OBJECT_UNLOCK (self);
      break;
    }
    case PROP_PLANE_MATRICES:
      set_plane_matrices (self, g_value_get_string (value));
      break;
    case PROP_ROI_META:
      GST_OBJECT_LOCK (self);
      self->roi_meta = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ROI_TYPES:{
      const gchar *text = g_value_get_string (value);
      gchar **names = NULL;

      if (text && *text) {
        names = g_strsplit (text, ",", -1);
        for (gchar ** n = names; *n; n++)
          g_strstrip (*n);
      }
      GST_OBJECT_LOCK (self);
      g_free (self->roi_types);
      self->roi_types = g_strdup (text);
      g_strfreev (self->roi_type_list);
      self->roi_type_list = names;
      GST_OBJECT_UNLOCK (self);
      break;
    }
    case PROP_DEVICE:{
      const gchar *spec = g_value_get_string (value);
      gchar *why = NULL;

      gboolean running;

      if (!gst_cl_device_spec_check (spec, &why)) {
        g_warning ("%s: %s; keeping the previous device", GST_OBJECT_NAME (self), why);
        g_free (why);
        break;
      }
      /* the device is read when the element starts: a new one while it runs would read back
       * as a device not in use */
      GST_OBJECT_LOCK (self);
      running = self->ctx != NULL;
      if (running)
        why = g_strdup_printf ("keeping device=\"%s\" (%s)", self->device,
            self->device_name ? self->device_name : "starting");
      else {
        g_free (self->device);
        self->device = g_strdup (spec ? spec : DEFAULT_DEVICE);
      }
      GST_OBJECT_UNLOCK (self);
      if (running)
        g_warning ("%s: device=\"%s\" refused: the device cannot change while the element "
            "runs (set it in the NULL or READY state); %s", GST_OBJECT_NAME (self),
            spec ? spec : "", why);
      g_free (why);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static GstStructure *
stats_structure (GstClConvolve * self)
{
  GstClStats *s = &self->stats;
  GstStructure *st;
  gchar variant[64] = "none";

  g_mutex_lock (&self->stats_lock);
  if (self->variant.method)
    cl_variant_text (&self->variant, variant, sizeof (variant));
  gst_cl_stats_fold (s);
  st = gst_structure_new ("application/x-clconvolve-stats",
      "frames", G_TYPE_UINT64, s->frames,
      "upload-ns", G_TYPE_UINT64, s->stage_ns[GST_CL_STAGE_UPLOAD],
      "kernel-ns", G_TYPE_UINT64, s->stage_ns[GST_CL_STAGE_KERNEL],
      "download-ns", G_TYPE_UINT64, s->stage_ns[GST_CL_STAGE_DOWNLOAD],
      "busy-ns", G_TYPE_UINT64, s->busy_ns,
      "overlap-ns", G_TYPE_UINT64, s->overlap_ns,
      "span-ns", G_TYPE_UINT64, s->last_ns - s->first_ns,
      "host-copies", G_TYPE_UINT64, self->host_copies,
      "input-path", G_TYPE_STRING, path_names[self->path_in],
      "output-path", G_TYPE_STRING, path_names[self->path_out],
      "programs-built", G_TYPE_UINT, self->programs_built,
      "programs-from-cache", G_TYPE_UINT, self->programs_loaded,
      "programs-held", G_TYPE_UINT, self->programs_held,
      "tunings", G_TYPE_UINT, self->tunings,
      "tunings-from-cache", G_TYPE_UINT, self->tunings_loaded,
      "generic-frames", G_TYPE_UINT64, self->generic_frames,
      "jobs-pending", G_TYPE_UINT, self->jobs_pending,
      "variant", G_TYPE_STRING, variant, NULL);
  g_mutex_unlock (&self->stats_lock);
  return st;
}

static void
gst_cl_convolve_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClConvolve *self = GST_CL_CONVOLVE (object);

  if (prop_id == PROP_STATS) {
    g_value_take_boxed (value, stats_structure (self));
    return;
  }

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_KERNEL:
      g_value_set_enum (value, self->set->kernel);
      break;
    case PROP_SIZE:
      g_value_set_int (value, self->set->size);
      break;
    case PROP_MATRIX:
      g_value_set_string (value, self->matrix_text);
      break;
    case PROP_DIVISOR:
      g_value_set_double (value, self->set->divisor);
      break;
    case PROP_BIAS:
      g_value_set_double (value, self->set->bias);
      break;
    case PROP_ANGLE:
      g_value_set_double (value, self->set->angle);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, self->set->sigma);
      break;
    case PROP_AMOUNT:
      g_value_set_double (value, self->set->amount);
      break;
    case PROP_COMBINE:
      g_value_set_enum (value, self->set->combine);
      break;
    case PROP_MATRIX_Y:
      g_value_set_string (value, self->matrix_y_text);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->set->border);
      break;
    case PROP_METHOD:
      g_value_set_enum (value, self->set->method);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, self->device_name);
      break;
    case PROP_DEVICE_INDEX:
      g_value_set_string (value, self->device_index);
      break;
    case PROP_PROFILING:
      g_value_set_boolean (value, self->profiling);
      break;
    case PROP_BANDS:
      g_value_set_int (value, self->bands);
      break;
    case PROP_MAX_INFLIGHT:
      g_value_set_uint (value, self->max_inflight);
      break;
    case PROP_AUTOTUNE:
      g_value_set_boolean (value, self->set->autotune);
      break;
    case PROP_CONTEXT:
      g_value_set_object (value, self->ctx);
      break;
    case PROP_PLANES:
      g_value_set_flags (value, self->set->planes);
      break;
    case PROP_ROI_X:
      g_value_set_int (value, self->roi.x);
      break;
    case PROP_ROI_Y:
      g_value_set_int (value, self->roi.y);
      break;
    case PROP_ROI_WIDTH:
      g_value_set_int (value, self->roi.width);
      break;
    case PROP_ROI_HEIGHT:
      g_value_set_int (value, self->roi.height);
      break;
    case PROP_PLANE_MATRICES:
      g_value_set_string (value, self->plane_matrices_text);
      break;
    case PROP_ROI_META:
      g_value_set_boolean (value, self->roi_meta);
      break;
    case PROP_ROI_TYPES:
      g_value_set_string (value, self->roi_types);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---------------------------------------------------------------------------------------------
 * Streaming */

/* The split of the n x n matrix k (already divided) into vector pairs, appended to sep
 * ([pair][vertical n, horizontal n]) from pair `first` on; returns the number of pairs, or -1
 * when they would pass CL_MAX_RANK in all. */
static gint
split_pairs (const gdouble * k, gint n, gfloat * sep, gint first)
{
  gdouble *vert = g_new (gdouble, n * n), *horiz = g_new (gdouble, n * n);
  gint r = conv_low_rank (k, n, SEP_LIMIT / 65535.0, vert, horiz);

  for (gint i = 0; i < r && first + i < CL_MAX_RANK; i++)
    for (gint t = 0; t < n; t++) {
      sep[(2 * (first + i)) * n + t] = (gfloat) vert[i * n + t];
      sep[(2 * (first + i) + 1) * n + t] = (gfloat) horiz[i * n + t];
    }
  g_free (vert);
  g_free (horiz);
  return first + r <= CL_MAX_RANK ? r : -1;
}

/* The device's float coefficients: the matrix already divided by the divisor into out[n * n]
 * (paired: the second matrix after it, out[n * n .. 2 n * n)); its split into vector pairs
 * into sep (paired: the second's pairs after the first's, *rank_a of them the first's).
 * Returns the number of pairs in all, or -1 when they need more than CL_MAX_RANK. */
static gint
compute_coefficients (const Settings * s, gint comp, gfloat * out, gfloat * sep, gint * rank_a)
{
  gdouble *k = g_new (gdouble, NCOEF), *k2 = g_new (gdouble, NCOEF);
  gint n, ra, rb = 0;
  gdouble divisor;

  /* component comp's own matrix (plane-matrices), else the kernel's; all of the side of the
   * largest, centred */
  if (s->plane_size[comp]) {
    n = s->plane_size[comp];
    memcpy (k, s->plane_m[comp], sizeof (gdouble) * n * n);
  } else {
    n = settings_matrices (s, k, k2);
  }
  centre_in (k, n, matrix_size (s));
  n = matrix_size (s);
  divisor = settings_divisor (s, k, n);
  gboolean paired = settings_paired (s);
  gchar err[256];

  /* the setters only let usable settings through */
  if (!conv_normalise (k, n, divisor, out, err, sizeof (err)) ||
      (paired && !conv_normalise (k2, n, divisor, out + n * n, err, sizeof (err))))
    g_critical ("unusable coefficients passed the setters: %s", err);
  for (gint i = 0; i < n * n; i++) {
    k[i] /= divisor;
    k2[i] /= divisor;
  }
  ra = split_pairs (k, n, sep, 0);
  if (paired && ra >= 0)
    rb = split_pairs (k2, n, sep, ra);
  g_free (k);
  g_free (k2);
  *rank_a = MAX (ra, 0);
  return ra < 0 || rb < 0 ? -1 : ra + rb;
}

#define FLOW_FAILED(what, err) G_STMT_START { \
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED, \
        ("OpenCL %s failed on %s: %s", what, self->ctx->device_name, \
            gst_cl_error_to_string (err)), (NULL)); \
} G_STMT_END

/* ---------------------------------------------------------------------------------------------
 * Programs and variants */

/* GST_CLCONVOLVE_SPLIT as the element reads it at start: 1 for a non-zero integer, 0 for zero,
 * -1 when unset or not an integer (as GST_CLCONVOLVE_BLOCK). */
static gint
split_override (void)
{
  const gchar *env = g_getenv (SPLIT_ENV);
  gchar *end = NULL;
  gint64 v = env ? g_ascii_strtoll (env, &end, 10) : 0;

  if (!env || end == env || *end)
    return -1;
  return v != 0;
}

/* The fixed rules' variant for the request, their fallback warned about. */
static ClVariant
fixed_variant (GstClConvolve * self, const ClKernelRequest * r)
{
  gchar *why = NULL;
  ClVariant v = cl_variant_fixed (&self->facts, r, &why);

  if (self->sparse_tiles && v.method == GST_CL_CONVOLVE_METHOD_SPARSE)
    cl_variant_sparse_tiles (&self->facts, r, &v);
  if (why)
    GST_WARNING_OBJECT (self, "%s", why);
  g_free (why);
  return v;
}

static void
built_clear (GstClConvolve * self, ClBuilt * b, gboolean discard)
{
  gst_cl_built_clear (self->ctx, b, discard);
}

/* The side of the matrix the settings give. */
static gint
matrix_size (const Settings * s)
{
  gint n = s->kernel == CONV_PRESET_CUSTOM && s->custom_size ? s->custom_size : s->size;

  for (gint c = 0; c < CL_MAX_MATRICES; c++)
    n = MAX (n, s->plane_size[c]);
  return settings_paired (s) ? MAX (n, s->custom_y_size) : n;
}

/* The coefficients' kernel arguments, the bias scaled from 8-bit units to samples of bits
 * significant bits (× 1023 / 255 for 10 bits, × 65535 / 255 for 16). */
static ClCoefArgs
coef_args (GstClConvolve * self, gint bits, gint m)
{
  gint rank = self->m_rank[m], rank_a = self->m_rank_a[m];

  /* the separable kernels' rank: the first matrix's pairs + 16 x the second's; the generic
   * kernels' border: the border + 16 x combine (kernels/common.cl) */
  return (ClCoefArgs) { self->coef_mem[m], self->sep_mem[m],
    rank < 0 ? rank : rank_a + 16 * (rank - rank_a),
    (gfloat) (self->cur->bias * (bits > 8 ? ((1 << bits) - 1) / 255.0 : 1.0)),
    matrix_size (self->cur),
    self->cur->border + 16 * self->cur->combine, self->taps_mem[m], self->m_ntaps[m]
  };
}

/* What a frame of layout L runs on (its coefficients per matrix). */
static ClFrameRun
frame_run (GstClConvolve * self, const ClLayout * L)
{
  ClFrameRun f = { self->queue, self->up_queue, self->down_queue, self->run,
    self->tmp_mem, {{0}}, matrix_size (self->cur) / 2,
    self->cur->border == GST_CL_CONVOLVE_BORDER_WRAP, self->copy_parts
  };

  for (gint m = 0; m < self->n_matrices; m++)
    f.coefs[m] = coef_args (self, L->bits, m);
  return f;
}

/* The tuner as the element's streaming thread sees it (lookups only; the worker times). */
static ClTuner
element_tuner (GstClConvolve * self, const ClKernelRequest * r)
{
  return (ClTuner) { self->ctx, &self->facts, self->queue, self->source,
    self->sources_digest, self->tune_dir, coef_args (self, r->bits > 0 ? r->bits : r->depth, 0),
    GST_OBJECT (self), FALSE
  };
}

/* Counts a tuning outcome in the stats. */
static void
count_tuning (GstClConvolve * self, ClTuneOutcome how)
{
  g_mutex_lock (&self->stats_lock);
  if (how == CL_TUNE_LOADED)
    self->tunings_loaded++;
  else if (how == CL_TUNE_TIMED)
    self->tunings++;
  g_mutex_unlock (&self->stats_lock);
}

/* Makes b what slot runs (run[slot] is a view of it), logged and shown in the stats. */
static void
run_built (GstClConvolve * self, gint slot, const ClBuilt * b)
{
  gchar text[64];

  self->run[slot] = *b;
  g_mutex_lock (&self->stats_lock);
  gst_cl_context_program_counts (self->ctx, &self->programs_built, &self->programs_loaded,
      &self->programs_held);
  if (slot == 0)
    self->variant = b->variant;
  g_mutex_unlock (&self->stats_lock);
  GST_INFO_OBJECT (self, "method=%s: running %s (%s, work-group %" G_GSIZE_FORMAT "x%"
      G_GSIZE_FORMAT ") on %s", gst_cl_enum_nick (GST_TYPE_CL_CONVOLVE_METHOD, self->cur->method),
      cl_variant_text (&b->variant, text, sizeof (text)), b->options, b->local[0], b->local[1],
      self->ctx->device_name);
}

/* Posts the element message of a build or tuning job of slot ("clconvolve-job") and logs it:
 * phase "started" when the element asks for it, "done" or "failed" when it switches (res: how
 * the job ended, wait: since the element asked). */
static void
post_job (GstClConvolve * self, ClJob * job, const gchar * phase, const ClJobResult * res,
    gint64 wait_us)
{
  gchar *what = gst_cl_job_describe (job);
  GstStructure *st = gst_structure_new ("clconvolve-job",
      "job", G_TYPE_STRING, gst_cl_job_kind_name (job),
      "phase", G_TYPE_STRING, phase,
      "what", G_TYPE_STRING, what, NULL);

  if (res) {
    gchar text[64];

    gst_structure_set (st, "variant", G_TYPE_STRING, cl_variant_text (&res->variant, text,
            sizeof (text)), "queued", G_TYPE_UINT64, (guint64) res->queued_us * GST_USECOND,
        "duration", G_TYPE_UINT64, (guint64) res->run_us * GST_USECOND,
        "wait", G_TYPE_UINT64, (guint64) wait_us * GST_USECOND, "helper", G_TYPE_BOOLEAN,
        res->helped, NULL);
    GST_INFO_OBJECT (self, "%s %s: %s, %s after %.1f ms (%.1f ms queued, %.1f ms since "
        "asked)", gst_cl_job_kind_name (job), phase, what, text, res->run_us / 1000.0,
        res->queued_us / 1000.0, wait_us / 1000.0);
  } else {
    GST_INFO_OBJECT (self, "%s %s: %s", gst_cl_job_kind_name (job), phase, what);
  }
  gst_element_post_message (GST_ELEMENT (self), gst_message_new_element (GST_OBJECT (self),
          st));
  g_free (what);
}

static void
drop_job (GstClConvolve * self, gint slot)
{
  if (!self->jobs[slot])
    return;
  g_clear_pointer (&self->jobs[slot], gst_cl_job_drop);
  g_mutex_lock (&self->stats_lock);
  self->jobs_pending--;
  g_mutex_unlock (&self->stats_lock);
}

#define SEP_JOB(slot) (CL_MAX_SHAPES + (slot))

/* Asks the worker for v (or, tune, method=auto's choice) of slot's request, as jobs[index]
 * (slot, or SEP_JOB (slot)). */
static ClJobSpec
job_spec (GstClConvolve * self, gint slot, ClJobKind kind, const ClVariant * v)
{
  return (ClJobSpec) { kind, self->requests[slot], *v, self->facts, self->source,
    self->sources_digest, self->tune_dir, !self->sync_builds
  };
}

static void
submit_job (GstClConvolve * self, gint index, gint slot, ClJobKind kind, const ClVariant * v)
{
  const ClJobSpec spec = job_spec (self, slot, kind, v);

  self->jobs[index] = gst_cl_worker_submit (self->ctx, &spec);
  self->job_asked[index] = g_get_monotonic_time ();
  g_mutex_lock (&self->stats_lock);
  self->jobs_pending++;
  g_mutex_unlock (&self->stats_lock);
  post_job (self, self->jobs[index], "started", NULL, 0);
}

/* r for the pixel shape sh */
static void
shape_request (ClKernelRequest * r, const ClShape * sh)
{
  r->channels = sh->channels;
  r->depth = sh->depth;
  r->skipmask = sh->skipmask;
  r->only = sh->only;
  r->passmask = sh->passmask;
  r->bits = sh->bits;
  r->shift = sh->shift;
  r->swap = sh->swap;
}

/* Queues on the worker the generic programs of the pixel shapes of every format of L's sample
 * depth the element takes (with the current planes), other than those of L: a later
 * renegotiation then finds its generic program in the caches (the helper's build) instead of
 * compiling it while its frame waits. A stream rarely changes its depth: the 10, 12 and 16-bit
 * formats' programs are not built for an 8-bit stream, nor the other way round. Once per
 * element. */
static void
prepare_generics (GstClConvolve * self, const ClKernelRequest * like, const ClLayout * L)
{
  GstCaps *caps = gst_static_caps_get (&sink_template.static_caps);
  const GValue *formats = gst_structure_get_value (gst_caps_get_structure (caps, 0),
      "format");
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  self->generics_prepared = TRUE;
  for (gint i = 0; i < L->n_shapes; i++) {
    ClKernelRequest r = *like;

    shape_request (&r, &L->shapes[i]);
    g_hash_table_add (seen, cl_variant_options (&self->facts, &r, &cl_variant_generic));
  }
  for (guint f = 0; f < gst_value_list_get_size (formats); f++) {
    GstVideoInfo info;
    ClLayout other;

    gst_video_info_set_format (&info, gst_video_format_from_string (g_value_get_string
            (gst_value_list_get_value (formats, f))), like->width, like->height);
    cl_layout_plan (&info, self->cur->planes, FALSE, &other);
    if (other.bits != L->bits || other.shift != L->shift || other.swap != L->swap)
      continue;
    for (gint i = 0; i < other.n_shapes; i++) {
      ClKernelRequest r = *like;
      gchar *options;

      shape_request (&r, &other.shapes[i]);
      options = cl_variant_options (&self->facts, &r, &cl_variant_generic);
      if (g_hash_table_contains (seen, options)) {
        g_free (options);
        continue;
      }
      g_hash_table_add (seen, options);
      {
        const ClJobSpec spec = { CL_JOB_BUILD, r, cl_variant_generic, self->facts,
          self->source, self->sources_digest, self->tune_dir, TRUE
        };

        GST_DEBUG_OBJECT (self, "preparing the generic program %s", options);
        gst_cl_worker_prepare (self->ctx, &spec);
      }
    }
  }
  g_hash_table_unref (seen);
  gst_caps_unref (caps);
}

/* Makes v slot's kernel from a program the context holds ready (never building); FALSE when
 * it holds none (or the kernel could not be made: the worker's build will say why). */
static gboolean
use_ready (GstClContext * ctx, GstClConvolve * self, gint slot, const ClVariant * v)
{
  ClBuilt b;
  gchar *log = NULL;
  const gchar *what;

  if (gst_cl_built_make (ctx, &self->facts, self->source, &self->requests[slot], v, FALSE, &b,
          &log, &what) != CL_SUCCESS) {
    g_free (log);
    return FALSE;
  }
  built_clear (self, &self->built[slot], FALSE);
  self->built[slot] = b;
  run_built (self, slot, &self->built[slot]);
  return TRUE;
}

/* Releases slot's generic kernel g, and forgets it as what slot runs (a kernel made later may
 * get the same address). */
static void
clear_generic (GstClConvolve * self, gint slot, ClBuilt * g)
{
  if (g->kernel && self->run[slot].kernel == g->kernel)
    memset (&self->run[slot], 0, sizeof (self->run[slot]));
  built_clear (self, g, FALSE);
}

/* Makes slot run b unless it does already (run_built logs). */
static void
run_if_new (GstClConvolve * self, gint slot, const ClBuilt * b)
{
  if (self->run[slot].kernel != b->kernel)
    run_built (self, slot, b);
}

/* Runs the generic separable kernel for slot if its program is ready and TRUE; else FALSE,
 * having asked the worker for it (GST_CLCONVOLVE_GENERIC=1: built here and now). */
static gboolean
use_generic_separable (GstClConvolve * self, gint slot)
{
  const ClKernelRequest *r = &self->requests[slot];
  gchar *options = cl_variant_options (&self->facts, r, &cl_variant_generic_separable);
  ClBuilt *g = &self->generic_sep[slot];
  ClJob *job = self->jobs[SEP_JOB (slot)];
  ClJobResult res;
  gchar *log = NULL;
  const gchar *what = NULL;
  cl_int err = CL_SUCCESS;

  /* g->options without a kernel: asked for (its job pending), or failed (no second try) */
  if (!g->options || strcmp (options, g->options)) {
    clear_generic (self, slot, g);
    drop_job (self, SEP_JOB (slot));
    /* from the caches (an earlier build), else built here only where the developer override
     * asks for it, else by the worker */
    err = gst_cl_built_make (self->ctx, &self->facts, self->source, r,
        &cl_variant_generic_separable, self->generic_only, g, &log, &what);
    if (err == CL_INVALID_PROGRAM_EXECUTABLE && !self->generic_only) {
      submit_job (self, SEP_JOB (slot), slot, CL_JOB_BUILD, &cl_variant_generic_separable);
      err = CL_SUCCESS;
    }
  } else if (!g->kernel && job && gst_cl_job_poll (job, &res)) {
    g_clear_pointer (&g->options, g_free);
    err = gst_cl_built_make (self->ctx, &self->facts, self->source, r,
        &cl_variant_generic_separable, FALSE, g, &log, &what);
    post_job (self, job, err == CL_SUCCESS ? "done" : "failed", &res,
        g_get_monotonic_time () - self->job_asked[SEP_JOB (slot)]);
    drop_job (self, SEP_JOB (slot));
  }
  if (err != CL_SUCCESS)
    /* the dense one goes on running */
    GST_WARNING_OBJECT (self, "the generic separable program %s: %s failed (%s)%s%s",
        options, what, gst_cl_error_to_string (err), log ? "\n" : "", log ? log : "");
  if (!g->options)
    g->options = g_strdup (options);
  g_free (log);
  g_free (options);
  if (!g->kernel)
    return FALSE;
  run_if_new (self, slot, g);
  return TRUE;
}

/* Runs a generic kernel for slot: the separable one where it suits the matrix and is ready,
 * else the dense one, building its program on the first use of its pixel shape (the one build
 * a frame may wait for; the context keeps it, and so does the element). */
static gboolean
use_generic (GstClConvolve * self, gint slot)
{
  const ClKernelRequest *r = &self->requests[slot];
  gchar *options;
  ClBuilt *g = &self->generic[slot];
  gchar *log = NULL;
  const gchar *what;
  cl_int err;

  if (!self->generic_dense &&
      cl_variant_generic_for (r).method == GST_CL_CONVOLVE_METHOD_SEPARABLE &&
      use_generic_separable (self, slot))
    return TRUE;
  options = cl_variant_options (&self->facts, r, &cl_variant_generic);
  if (!g->kernel || strcmp (options, g->options)) {
    clear_generic (self, slot, g);
    err = gst_cl_built_make (self->ctx, &self->facts, self->source, r, &cl_variant_generic,
        TRUE, g, &log, &what);
    if (err != CL_SUCCESS) {
      if (log || err == CL_BUILD_PROGRAM_FAILURE)
        GST_ELEMENT_ERROR (self, LIBRARY, INIT,
            ("Could not build the OpenCL convolution program on %s (%s).",
                self->ctx->device_name, gst_cl_error_to_string (err)),
            ("build options: %s\nbuild log:\n%s", options, log ? log : "(empty)"));
      else
        FLOW_FAILED (what, err);
      self->requests[slot].method = -1; /* resolve again on the next frame */
      g_free (options);
      g_free (log);
      return FALSE;
    }
  }
  g_free (options);
  run_if_new (self, slot, g);
  return TRUE;
}

/* After the fixed rules' variant of a request not tuned yet: the tuning job. */
static void
then_tune (GstClConvolve * self, gint slot)
{
  if (!self->tune_next[slot])
    return;
  self->tune_next[slot] = FALSE;
  submit_job (self, slot, slot, CL_JOB_TUNE, &cl_variant_generic);
}

/* A job of slot that has ended: its variant becomes slot's kernel (a message says so) and
 * TRUE; a build that failed leaves the kernel running, with a warning. */
static gboolean
check_job (GstClConvolve * self, gint slot)
{
  ClJob *job = self->jobs[slot];
  ClJobResult res;
  gint64 wait;

  if (!gst_cl_job_poll (job, &res))
    return FALSE;
  wait = g_get_monotonic_time () - self->job_asked[slot];
  if (gst_cl_job_kind (job) == CL_JOB_TUNE)
    count_tuning (self, res.how);
  if (res.err == CL_SUCCESS && use_ready (self->ctx, self, slot, &res.variant)) {
    post_job (self, job, "done", &res, wait);
    drop_job (self, slot);
    then_tune (self, slot);
    /* the generic separable program stays wanted for the next settings, not waited for */
    if (self->jobs[SEP_JOB (slot)]) {
      ClJobSpec spec = job_spec (self, slot, CL_JOB_BUILD, &cl_variant_generic_separable);

      gst_cl_worker_prepare (self->ctx, &spec);
      drop_job (self, SEP_JOB (slot));
      /* to be looked up again when next needed */
      g_clear_pointer (&self->generic_sep[slot].options, g_free);
    }
    return TRUE;
  }
  if (res.err == CL_SUCCESS) {
    /* built, then released before this frame (the context's idle bound): once more */
    ClVariant v = res.variant;

    drop_job (self, slot);
    submit_job (self, slot, slot, CL_JOB_BUILD, &v);
    return FALSE;
  }
  post_job (self, job, "failed", &res, wait);
  GST_ELEMENT_WARNING (self, LIBRARY, INIT, ("Could not build an OpenCL kernel on %s (%s "
          "failed: %s); the generic kernel goes on running.", self->ctx->device_name,
          res.what, gst_cl_error_to_string (res.err)), ("build log:\n%s",
          res.log ? res.log : "(empty)"));
  drop_job (self, slot);
  then_tune (self, slot);
  return FALSE;
}

/* Makes run[slot] a kernel for the current settings and that pixel shape (the views of L that
 * have it) without waiting for a compiler: the specialised variant if the context holds its
 * program, else (while the worker builds it, or for method=auto first tunes it) the one
 * running if it computes the same, else the generic kernel. Between frames it switches to the
 * specialised one once the worker is done. Coefficients are data: they never cause a build. */
static gboolean
ensure_kernel (GstClConvolve * self, gint slot, const ClShape * shape, const ClLayout * L)
{
  const Settings *s = self->cur;
  ClKernelRequest request = { s->method, matrix_size (s),
    shape->channels, shape->depth, shape->skipmask, shape->only, s->border,
    self->block_override, self->rank, 0, 0, shape->passmask, s->autotune, self->split_override,
    self->discrete, shape->bits, shape->shift, shape->swap,
    cl_variant_taps (self->ntaps, matrix_size (s)), s->combine, self->box
  };
  ClTuner t;
  ClTuneOutcome how = CL_TUNE_KNOWN;
  ClJobResult res;
  ClVariant v = cl_variant_generic;
  gboolean known = TRUE;
  gchar *options;

  for (gint i = 0; i < L->n_views; i++)
    if (L->views[i].shape == slot && L->views[i].width * L->views[i].height >
        request.width * request.height) {
      request.width = L->views[i].width;
      request.height = L->views[i].height;
    }
  if (self->run[slot].kernel && !memcmp (&request, &self->requests[slot], sizeof (request))) {
    if (self->jobs[slot])
      check_job (self, slot);
    /* still generic: the separable one once its job has ended */
    if (self->run[slot].variant.generic && self->jobs[SEP_JOB (slot)] &&
        gst_cl_job_poll (self->jobs[SEP_JOB (slot)], &res))
      use_generic (self, slot);
    return TRUE;
  }
  drop_job (self, slot);
  self->tune_next[slot] = FALSE;
  self->requests[slot] = request;
  if (self->generic_only)
    return use_generic (self, slot);
  if (request.method == GST_CL_CONVOLVE_METHOD_AUTO && request.autotune) {
    t = element_tuner (self, &request);
    known = gst_cl_tuner_lookup (&t, &request, &v, &how);
    count_tuning (self, how);
  } else {
    v = fixed_variant (self, &request);
  }
  if (known && use_ready (self->ctx, self, slot, &v))
    return TRUE;
  if (self->sync_builds) {
    submit_job (self, slot, slot, known ? CL_JOB_BUILD : CL_JOB_TUNE, &v);
    gst_cl_job_wait (self->jobs[slot]);
    if (check_job (self, slot))
      return TRUE;
  }
  /* not tuned yet: the fixed rules' variant runs while the candidates are timed, its build
   * first where it is not ready (timing them all takes seconds on a CPU, that one build one) */
  if (!known) {
    ClVariant fixed = fixed_variant (self, &request);

    if (use_ready (self->ctx, self, slot, &fixed)) {
      submit_job (self, slot, slot, CL_JOB_TUNE, &v);
      return TRUE;
    }
    self->tune_next[slot] = TRUE;
    v = fixed;
    known = TRUE;
  }
  /* meanwhile: the kernel running, where it is compiled for the same, else the generic one
   * (made first: on a cold start the worker's build would slow its compile down) */
  options = self->built[slot].kernel ?
      cl_variant_options (&self->facts, &request, &self->built[slot].variant) : NULL;
  if (options && !strcmp (options, self->built[slot].options))
    self->run[slot] = self->built[slot];
  else if (!use_generic (self, slot)) {
    g_free (options);
    return FALSE;
  }
  g_free (options);
  /* first: small builds, and a renegotiation's frame would wait for one */
  if (!self->generics_prepared)
    prepare_generics (self, &request, L);
  if (!self->jobs[slot])
    submit_job (self, slot, slot, known ? CL_JOB_BUILD : CL_JOB_TUNE, &v);
  return TRUE;
}

static gboolean
ensure_buffer (GstClConvolve * self, cl_mem * mem, gsize * have, gsize need, cl_mem_flags flags)
{
  cl_int err;

  if (*mem && *have >= need)
    return TRUE;
  if (*mem)
    clReleaseMemObject (*mem);
  *mem = clCreateBuffer (self->ctx->context, flags, need, NULL, &err);
  *have = *mem ? need : 0;
  if (!*mem) {
    FLOW_FAILED ("clCreateBuffer", err);
    return FALSE;
  }
  return TRUE;
}

static void
gst_cl_convolve_before_transform (GstBaseTransform * bt, GstBuffer * buf)
{
  GstClockTime ts = gst_segment_to_stream_time (&bt->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buf));

  if (GST_CLOCK_TIME_IS_VALID (ts))
    gst_object_sync_values (GST_OBJECT (bt), ts);
}

/* ---------------------------------------------------------------------------------------------
 * Frames */

static const gchar *const stage_names[GST_CL_N_STAGES] = { "upload", "kernel", "download" };

/* Where a frame's planes lie. */
typedef enum
{
  FRAME_HOST,                   /* anywhere else: copied by the host or the driver */
  FRAME_PINNED,                 /* one pinned memory of our device */
  FRAME_DEVICE                  /* one device-resident memory of our device (memory:CLBuffer) */
} FrameMem;

/* The buffer's one GstClMemory of our device, else NULL. */
static GstClMemory *
buffer_cl_memory (GstClConvolve * self, GstBuffer * buffer)
{
  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  return gst_cl_memory_get (gst_buffer_peek_memory (buffer, 0), self->ctx);
}

/* The frame's planes and where they lie: when all of them lie in one memory of our device, each
 * plane's mem is set (its host is NULL for device-resident memory, which map_frames mapped with
 * GST_MAP_CL). */
static FrameMem
frame_planes (GstClConvolve * self, GstVideoFrame * frame, const ClLayout * L, ClPlane * p)
{
  GstClMemory *m = buffer_cl_memory (self, frame->buffer);
  GstMemory *mem = GST_MEMORY_CAST (m);
  gboolean ours = m != NULL;
  const guint8 *base = NULL;

  /* the address byte 0 of the memory was mapped at (a device map's is not memory) */
  if (m)
    base = (const guint8 *) frame->map[0].data - mem->offset;
  for (gint i = 0; i < L->n_planes; i++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, i);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, i);
    gsize extent = (gsize) stride * (L->height[i] - 1) + L->row[i];

    p[i].host = m && m->device ? NULL : data;
    p[i].pitch = stride;
    p[i].mem = NULL;
    p[i].offset = 0;
    /* 16-bit samples are loaded as such: they must be aligned (staging always is) */
    /* and the kernels' 32-bit offsets must reach the whole plane */
    if (!ours || stride < L->row[i] || data < base + mem->offset ||
        (gsize) (data - base) + extent > G_MAXINT32 ||
        (L->depth == 16 && (((guintptr) data | (guintptr) stride) & 1)) ||
        data + extent > base + mem->offset + mem->size) {
      ours = FALSE;
      continue;
    }
    p[i].mem = m->buffer;
    p[i].offset = data - base;
  }
  if (!ours)
    for (gint i = 0; i < L->n_planes; i++)
      p[i].mem = NULL;
  return !ours ? FRAME_HOST : m->device ? FRAME_DEVICE : FRAME_PINNED;
}

/* Whether every plane of frame holds L's rows inside the memory the frame mapped for it
 * (the whole buffer, or with a GstVideoMeta the memory holding the plane's offset): offset +
 * stride x (rows - 1) + row bytes, with stride >= row bytes. A meta may say anything; nothing
 * outside the mapped memory may be read or written. On failure *why says which plane and how
 * (free it). */
static gboolean
frame_in_bounds (const GstVideoFrame * frame, const ClLayout * L, gchar ** why)
{
  for (gint p = 0; p < L->n_planes; p++) {
    const GstMapInfo *map = &frame->map[frame->meta ? p : 0];
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    gsize start = data - map->data;
    gsize extent = (gsize) L->row[p] + (gsize) MAX (stride, 0) * (L->height[p] - 1);

    if (stride < L->row[p]) {
      *why = g_strdup_printf ("plane %d's stride (%d bytes) is shorter than its rows (%d "
          "bytes)", p, stride, L->row[p]);
      return FALSE;
    }
    if (data < map->data || start > map->size || extent > map->size - start) {
      *why = g_strdup_printf ("plane %d (offset %" G_GSIZE_FORMAT ", stride %d, %d rows of %d "
          "bytes: %" G_GSIZE_FORMAT " bytes) runs past the end of its memory (%" G_GSIZE_FORMAT
          " bytes)", p, start, stride, L->height[p], L->row[p], extent, map->size);
      return FALSE;
    }
  }
  return TRUE;
}

/* The planes packed one after the other (L's layout) in pinned staging memory. */
static gboolean
staging_planes (GstClConvolve * self, GstMemory ** stage, const ClLayout * L, ClPlane * p)
{
  GstClMemory *m;

  if (!*stage || (*stage)->size < L->size) {
    if (*stage)
      gst_memory_unref (*stage);
    *stage = gst_allocator_alloc (self->allocator, L->size, NULL);
    if (!*stage) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Could not allocate %" G_GSIZE_FORMAT
              " bytes of pinned memory on %s.", L->size, self->ctx->device_name), (NULL));
      return FALSE;
    }
  }
  m = (GstClMemory *) * stage;
  for (gint i = 0; i < L->n_planes; i++) {
    p[i].mem = m->buffer;
    p[i].offset = (*stage)->offset + L->base[i];
    p[i].pitch = L->row[i];
    p[i].host = m->host + (*stage)->offset + L->base[i];
  }
  return TRUE;
}

/* method=separable: gives each separable view its region of tmp_mem (one float value per
 * computed sample, pixel and pair), growing the buffer when the frame needs more. */
static gboolean
ensure_tmp (GstClConvolve * self, ClLayout * L)
{
  gsize bytes = 0;

  for (gint i = 0; i < L->n_views; i++) {
    ClView *v = &L->views[i];
    const ClShape *sh = &L->shapes[v->shape];
    gsize value = sizeof (gfloat) * cl_variant_sum_values (sh->channels, sh->only);

    if (!self->run[v->shape].rows)
      continue;
    v->tmp_offset = bytes / value;
    bytes += GST_ROUND_UP_16 (value * v->width * v->height * MAX (self->rank, 1));
  }
  if (bytes == 0 || (self->tmp_mem && self->tmp_bytes >= bytes))
    return TRUE;
  g_clear_pointer (&self->tmp_mem, clReleaseMemObject);
  return ensure_buffer (self, &self->tmp_mem, &self->tmp_bytes, bytes, CL_MEM_READ_WRITE);
}

/* Profiling events of a frame, per stage, in the order they were queued. */
static void
log_path (GstClConvolve * self, const gchar * side, MemPath old, MemPath path)
{
  if (old != path)
    GST_INFO_OBJECT (self, "%s: %s", side, path_logs[path]);
}

/* Counts the frame, its host copies and paths, and adds its profiling events to the stats. */
static void
record_frame (GstClConvolve * self, const ClEvents * e, guint copies, MemPath path_in,
    MemPath path_out)
{
  log_path (self, "input", self->path_in, path_in);
  log_path (self, "output", self->path_out, path_out);

  g_mutex_lock (&self->stats_lock);
  for (gint i = 0; self->profiling_on && i < GST_CL_N_STAGES; i++) {
    for (gint b = 0; b < e->n[i]; b++) {
      cl_ulong t0 = 0, t1 = 0;

      if (!e->ev[i][b] || clGetEventProfilingInfo (e->ev[i][b], CL_PROFILING_COMMAND_START,
              sizeof (t0), &t0, NULL) != CL_SUCCESS ||
          clGetEventProfilingInfo (e->ev[i][b], CL_PROFILING_COMMAND_END, sizeof (t1), &t1,
              NULL) != CL_SUCCESS)
        continue;
      gst_cl_stats_add (&self->stats, i, t0, t1);
      /* tests/bench/timeline.py draws these (GST_DEBUG=clconvolve:TRACE) */
      GST_TRACE_OBJECT (self, "timeline frame=%" G_GUINT64_FORMAT " stage=%s band=%d "
          "start=%" G_GUINT64_FORMAT " end=%" G_GUINT64_FORMAT, self->stats.frames,
          stage_names[i], b, (guint64) t0, (guint64) t1);
    }
  }
  self->stats.frames++;
  for (gint i = 0; i < CL_MAX_SHAPES; i++)
    if (self->run[i].kernel && self->run[i].variant.generic) {
      self->generic_frames++;
      break;
    }
  self->host_copies += copies;
  self->path_in = path_in;
  self->path_out = path_out;
  g_mutex_unlock (&self->stats_lock);
}

/* Whether components a and b run the same matrix (plane-matrices). */
static gboolean
same_matrix (const Settings * s, gint a, gint b)
{
  return s->plane_size[a] == s->plane_size[b] && (!s->plane_size[a] ||
      !memcmp (s->plane_m[a], s->plane_m[b], sizeof (gdouble) * s->plane_size[a] *
          s->plane_size[a]));
}

/* Each view's matrix: its first component's (one per component with plane-matrices, else
 * the one). A view computes its components together (RGBA's R, G and B; NV12's U and V): given
 * different matrices they run the first's, with a warning. */
static void
assign_matrices (GstClConvolve * self, ClLayout * L)
{
  for (gint i = 0; i < L->n_views; i++) {
    ClView *v = &L->views[i];
    gint first = v->comps ? g_bit_nth_lsf (v->comps, -1) : 0;

    v->matrix = self->n_matrices > 1 ? first : 0;
    for (gint c = first + 1; self->n_matrices > 1 && c < CL_MAX_MATRICES; c++)
      if ((v->comps & (1u << c)) && !same_matrix (self->cur, first, c) &&
          !self->warned_components) {
        self->warned_components = TRUE;
        GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("plane-matrices gives components %d "
                "and %d different matrices, but this format holds them in one plane, filtered "
                "together: both run component %d's. Use a planar format (I420, Y444, GBR) to "
                "filter them apart.", first + 1, c + 1, first + 1), (NULL));
      }
  }
}

/* Makes the settings' snapshot current (uploading new coefficients) and plans info's layout
 * into *L with its kernels and buffers ready: at negotiation (set_info), so that a format or a
 * build that fails is an error there, and before each frame (where nothing is built unless a
 * setting changed). fields: the frame is interlaced (its fields are views of their own, of
 * the same pixel shapes). *bands (if not NULL) is the bands property. Returns FALSE after
 * posting an error. */
static gboolean
prepare (GstClConvolve * self, const GstVideoInfo * info, gboolean fields, ClLayout * L,
    gint * bands)
{
  gboolean changed = FALSE;

  GST_OBJECT_LOCK (self);
  if (!self->cur_valid || self->cur_cookie != self->cookie) {
    *self->cur = *self->set;
    self->cur_cookie = self->cookie;
    self->cur_valid = changed = TRUE;
  }
  if (bands)
    *bands = self->bands;
  GST_OBJECT_UNLOCK (self);

  if (changed) {
    gboolean per_comp = FALSE;
    cl_int err = CL_SUCCESS;
    const gchar *what = "coefficient upload";

    for (gint c = 0; c < CL_MAX_MATRICES; c++)
      per_comp |= self->cur->plane_size[c] > 0;
    /* one matrix per component with plane-matrices (those without one of their own run the
     * kernel's), else one */
    self->n_matrices = per_comp ? CL_MAX_MATRICES : 1;
    self->rank = 0;
    self->ntaps = 0;
    self->box = !settings_paired (self->cur);
    for (gint m = 0; m < self->n_matrices && err == CL_SUCCESS; m++) {
      gfloat *coef = g_new0 (gfloat, 2 * NCOEF);
      gfloat sep[2 * CL_MAX_RANK * CONV_MAX_SIZE] = { 0 };
      ConvTap *taps = g_new (ConvTap, CL_MAX_TAPS);
      gint n = matrix_size (self->cur);

      /* the SVD of the split runs here, once per coefficient set, not per frame */
      self->m_rank[m] = compute_coefficients (self->cur, m, coef, sep, &self->m_rank_a[m]);
      self->m_ntaps[m] = conv_taps_pair (coef, settings_paired (self->cur) ? coef + n * n :
          NULL, n, taps, CL_MAX_TAPS);
      if (self->m_ntaps[m] > CL_MAX_TAPS)
        self->m_ntaps[m] = 0;
      self->box &= conv_is_box (coef, n) != 0;
      if (m == 0)
        self->rank_a = self->m_rank_a[m];
      self->rank = self->rank < 0 || self->m_rank[m] < 0 ? -1 :
          MAX (self->rank, self->m_rank[m]);
      self->ntaps = m > 0 && (self->ntaps == 0 || self->m_ntaps[m] == 0) ? 0 :
          MAX (self->ntaps, self->m_ntaps[m]);
      if (!self->coef_mem[m]) {
        what = "clCreateBuffer";
        self->coef_mem[m] = clCreateBuffer (self->ctx->context, CL_MEM_READ_ONLY,
            sizeof (gfloat) * 2 * NCOEF, NULL, &err);
        if (err == CL_SUCCESS)
          self->sep_mem[m] = clCreateBuffer (self->ctx->context, CL_MEM_READ_ONLY,
              sizeof (gfloat) * 2 * CL_MAX_RANK * CONV_MAX_SIZE, NULL, &err);
        if (err == CL_SUCCESS)
          self->taps_mem[m] = clCreateBuffer (self->ctx->context, CL_MEM_READ_ONLY,
              sizeof (ConvTap) * CL_MAX_TAPS, NULL, &err);
        what = "coefficient upload";
      }
      if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer (self->queue, self->coef_mem[m], CL_TRUE, 0,
            sizeof (gfloat) * 2 * NCOEF, coef, 0, NULL, NULL);
      if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer (self->queue, self->sep_mem[m], CL_TRUE, 0, sizeof (sep),
            sep, 0, NULL, NULL);
      if (err == CL_SUCCESS && self->m_ntaps[m] > 0)
        err = clEnqueueWriteBuffer (self->queue, self->taps_mem[m], CL_TRUE, 0,
            sizeof (ConvTap) * self->m_ntaps[m], taps, 0, NULL, NULL);
      g_free (coef);
      g_free (taps);
    }
    if (err != CL_SUCCESS) {
      /* the next frame tries again */
      self->cur_valid = FALSE;
      FLOW_FAILED (what, err);
      return FALSE;
    }
  }
  cl_layout_plan (info, self->cur->planes, fields, L);
  assign_matrices (self, L);
  for (gint i = 0; i < L->n_shapes; i++)
    if (!ensure_kernel (self, i, &L->shapes[i], L))
      return FALSE;
  return ensure_tmp (self, L);
}

/* The slot's frame no longer keeps the device's queues busy. */
static void
slot_idle (GstClConvolve * self, FrameSlot * slot)
{
  if (slot->busy)
    g_atomic_int_add (&self->ctx->frames_busy, -1);
  slot->busy = FALSE;
}

/* Queues the frame of slot (its in and out mapped) on the device: on success slot->done is
 * set, and frame_complete finishes it. */
static GstFlowReturn
frame_submit (GstClConvolve * self, FrameSlot * slot)
{
  GstVideoFilter *vf = GST_VIDEO_FILTER (self);
  GstVideoFrame *in = &slot->in, *out = &slot->out;
  FrameMem in_mem, out_mem;
  ClEvents *e = slot->e;
  gint bands, others;
  ClPlane src[CL_MAX_PLANES], dst[CL_MAX_PLANES];
  ClLayout L;
  ClFrameRun *f = &slot->f;
  const gchar *what = "";
  gchar *why = NULL;
  cl_int err;

  gint64 start = g_get_monotonic_time ();

  slot->done = NULL;
  slot->copies = 0;
  slot->copy_out = FALSE;
  slot->busy = FALSE;
  memset (f, 0, sizeof (*f));
  /* the negotiated size, not a GstVideoMeta's (which may be larger, or lie); the fields of an
   * interlaced frame (interleaved, or mixed with the buffer flagged) filtered apart, where
   * alternate's frames are one field each already */
  if (!prepare (self, &vf->in_info, GST_VIDEO_FRAME_IS_INTERLACED (in) &&
          GST_VIDEO_INFO_INTERLACE_MODE (&vf->in_info) != GST_VIDEO_INTERLACE_MODE_ALTERNATE,
          &L, &bands))
    return GST_FLOW_ERROR;
  /* what held a frame up beyond a pointer's check (never a compiler: tests/bench/gaps.sh) */
  if (g_get_monotonic_time () - start > 5000)
    GST_DEBUG_OBJECT (self, "the frame's kernels took %.1f ms to make ready",
        (g_get_monotonic_time () - start) / 1000.0);
  if (!frame_in_bounds (in, &L, &why)) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("Dropped an invalid input frame: %s.", why),
        ("%" GST_PTR_FORMAT, in->buffer));
    g_free (why);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  if (!frame_in_bounds (out, &L, &why)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("The output buffer is not a valid frame: %s.",
            why), ("%" GST_PTR_FORMAT, out->buffer));
    g_free (why);
    return GST_FLOW_ERROR;
  }

  in_mem = frame_planes (self, in, &L, src);
  out_mem = frame_planes (self, out, &L, dst);
  /* device-resident memory was mapped for the device alone: its planes must be usable there
   * (our pools' always are) */
  if ((in_mem == FRAME_HOST && !src[0].host) || (out_mem == FRAME_HOST && !dst[0].host)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("A frame in device memory has a plane layout "
            "the kernels cannot use (odd 16-bit offsets or strides, or beyond 2 GiB)."),
        ("%" GST_PTR_FORMAT, in_mem == FRAME_HOST ? in->buffer : out->buffer));
    return GST_FLOW_ERROR;
  }
  *f = frame_run (self, &L);

  if (!self->discrete) {
    gboolean in_pinned = in_mem != FRAME_HOST, out_pinned = out_mem != FRAME_HOST;

    slot->path_in = in_pinned ? PATH_IN_PLACE : PATH_STAGING_COPY;
    slot->path_out = out_pinned ? PATH_IN_PLACE : PATH_STAGING_COPY;
    if (!in_pinned) {
      ClPlane frame[CL_MAX_PLANES];

      memcpy (frame, src, sizeof (frame));
      if (!staging_planes (self, &slot->stage_in, &L, src))
        return GST_FLOW_ERROR;
      for (gint p = 0; p < L.n_planes; p++)
        gst_cl_copy_rows (src[p].host, src[p].pitch, frame[p].host, frame[p].pitch, L.row[p],
            L.height[p]);
      slot->copies++;
    }
    if (!out_pinned) {
      if (!staging_planes (self, &slot->stage_out, &L, dst))
        return GST_FLOW_ERROR;
      slot->copies++;
      slot->copy_out = TRUE;
      memcpy (slot->dst, dst, sizeof (dst));
      slot->n_planes = L.n_planes;
      memcpy (slot->row, L.row, sizeof (slot->row));
      memcpy (slot->height, L.height, sizeof (slot->height));
    }
    err = gst_cl_run_unified (f, &L, src, dst, e, &slot->done, &what);
  } else {
    gboolean in_dev = in_mem == FRAME_DEVICE, out_dev = out_mem == FRAME_DEVICE;
    ClPlane dev_in[CL_MAX_PLANES], dev_out[CL_MAX_PLANES];

    slot->path_in = in_dev ? PATH_DEVICE : in_mem == FRAME_PINNED ? PATH_PINNED_DMA :
        PATH_STAGING_COPY;
    slot->path_out = out_dev ? PATH_DEVICE : out_mem == FRAME_PINNED ? PATH_PINNED_DMA :
        PATH_PAGEABLE_DMA;
    /* the frame's device copies: the memory itself when it is device-resident, else the
     * slot's buffers with the planes packed */
    if ((!in_dev && !ensure_buffer (self, &slot->src_mem, &slot->src_bytes, L.size,
                CL_MEM_READ_ONLY)) || (!out_dev && !ensure_buffer (self, &slot->dst_mem,
                &slot->dst_bytes, L.size, CL_MEM_WRITE_ONLY)))
      return GST_FLOW_ERROR;
    for (gint p = 0; p < L.n_planes; p++) {
      dev_in[p] = in_dev ? src[p] : (ClPlane) { slot->src_mem, L.base[p], L.row[p], NULL };
      dev_out[p] = out_dev ? dst[p] : (ClPlane) { slot->dst_mem, L.base[p], L.row[p], NULL };
    }
    if (in_mem == FRAME_HOST) {
      if (!staging_planes (self, &slot->stage_in, &L, src))
        return GST_FLOW_ERROR;
      slot->copies++;
    }
    slot->copies += out_mem == FRAME_HOST;
    /* automatic bands while other frames (this element's in flight, or other elements') keep
     * the queues busy: a few large ones (the runner's CL_BANDS_BUSY) behind one other frame,
     * none behind two or more, where the queues stay full anyway and every band costs driver
     * calls (docs/design.md) */
    slot->busy = TRUE;
    others = g_atomic_int_add (&self->ctx->frames_busy, 1);
    if (others > 0 && bands == 0)
      bands = others > 1 ? 1 : CL_BANDS_BUSY;
    err = gst_cl_run_discrete (f, &L, in_dev ? NULL : src, dev_in, dev_out, out_dev ? NULL : dst,
        in_mem == FRAME_HOST ? in : NULL, bands, e, &slot->done, &what);
  }
  if (err != CL_SUCCESS) {
    /* transfers may still use the frames: let them finish before the frames are unmapped */
    gst_cl_run_finish (f);
    slot_idle (self, slot);
    g_clear_pointer (&slot->done, clReleaseEvent);
    gst_cl_events_release (e);
    FLOW_FAILED (what, err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* Waits for a submitted frame's output, copies it out of staging where it was staged and
 * counts it. */
static GstFlowReturn
frame_complete (GstClConvolve * self, FrameSlot * slot)
{
  cl_int err;

  /* the previous frame's events go while this one is on the device: releasing them is a
   * driver call each, off the host's critical path here */
  if (self->spent)
    gst_cl_events_release (self->spent);
  err = clWaitForEvents (1, &slot->done);

  if (err == CL_SUCCESS) {
    /* an event's status after the wait: a failed command (CL_EXEC_STATUS_ERROR...) */
    cl_int status = CL_COMPLETE;

    clGetEventInfo (slot->done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status,
        NULL);
    if (status < 0)
      err = status;
  }
  g_clear_pointer (&slot->done, clReleaseEvent);
  slot_idle (self, slot);
  if (err != CL_SUCCESS) {
    gst_cl_run_finish (&slot->f);
    gst_cl_events_release (slot->e);
    FLOW_FAILED ("frame", err);
    return GST_FLOW_ERROR;
  }
  if (slot->copy_out)
    for (gint p = 0; p < slot->n_planes; p++)
      gst_cl_copy_rows (GST_VIDEO_FRAME_PLANE_DATA (&slot->out, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&slot->out, p), slot->dst[p].host, slot->dst[p].pitch,
          slot->row[p], slot->height[p]);
  record_frame (self, slot->e, slot->copies, slot->path_in, slot->path_out);
  {
    ClEvents *emptied = self->spent ? self->spent : g_new0 (ClEvents, 1);

    self->spent = slot->e;
    slot->e = emptied;
  }
  return GST_FLOW_OK;
}

/* The next free slot of the ring (there is one: callers keep n_pending < MAX_INFLIGHT). */
static FrameSlot *
free_slot (GstClConvolve * self)
{
  FrameSlot *slot;

  g_assert (self->n_pending < MAX_INFLIGHT);
  slot = &self->slots[(self->oldest + self->n_pending) % MAX_INFLIGHT];
  if (!slot->e)
    slot->e = g_new0 (ClEvents, 1);
  return slot;
}

/* Why buffer cannot be mapped as a frame of info (NULL when it can): GstVideoFilter's own
 * transform pushes the output buffer unfilled, with a warning, when a map fails, and
 * gst_video_frame_map () is critical about a GstVideoMeta that contradicts the caps. Free with
 * g_free. */
static gchar *
frame_map_problem (const GstVideoInfo * info, GstBuffer * buffer)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);

  if (!meta) {
    if (gst_buffer_get_size (buffer) < GST_VIDEO_INFO_SIZE (info))
      return g_strdup_printf ("the buffer holds %" G_GSIZE_FORMAT " bytes where a %dx%d %s "
          "frame needs %" G_GSIZE_FORMAT, gst_buffer_get_size (buffer),
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info),
          GST_VIDEO_INFO_SIZE (info));
    return NULL;
  }
  if (meta->format != GST_VIDEO_INFO_FORMAT (info) ||
      meta->n_planes != GST_VIDEO_INFO_N_PLANES (info) ||
      meta->width < GST_VIDEO_INFO_WIDTH (info) || meta->height < GST_VIDEO_INFO_HEIGHT (info))
    return g_strdup_printf ("its GstVideoMeta (%ux%u %s, %u planes) contradicts the caps (%dx%d "
        "%s)", meta->width, meta->height, gst_video_format_to_string (meta->format),
        meta->n_planes, GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
        GST_VIDEO_INFO_NAME (info));
  return NULL;
}

/* Maps inbuf and outbuf as frames of the negotiated format into slot: GST_FLOW_OK, or
 * GST_BASE_TRANSFORM_FLOW_DROPPED with a warning when the input is not a valid frame (no
 * unfilled output frame goes downstream), or an error when the output is not one. GstVideoFilter's
 * own transform would push the output unfilled when a map fails, and gst_video_frame_map () is
 * critical about a GstVideoMeta that contradicts the caps. The planes' bounds are checked in
 * frame_submit. */
static GstFlowReturn
map_frames (GstClConvolve * self, FrameSlot * slot, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstVideoFilter *vf = GST_VIDEO_FILTER (self);
  GstClMemory *m;
  GstMapFlags in_cl = 0, out_cl = 0;
  gchar *why;

  /* device-resident memory of our device is mapped for the device: nothing comes to the host */
  if ((m = buffer_cl_memory (self, inbuf)) && m->device)
    in_cl = GST_MAP_CL;
  if ((m = buffer_cl_memory (self, outbuf)) && m->device)
    out_cl = GST_MAP_CL;

  if (!vf->negotiated) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("no format negotiated"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  why = frame_map_problem (&vf->in_info, inbuf);
  if (why || !gst_video_frame_map (&slot->in, &vf->in_info, inbuf,
          GST_MAP_READ | in_cl | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("Dropped an invalid input frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, inbuf));
    g_free (why);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  why = frame_map_problem (&vf->out_info, outbuf);
  if (why || !gst_video_frame_map (&slot->out, &vf->out_info, outbuf,
          GST_MAP_WRITE | out_cl | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("The output buffer is not a valid frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, outbuf));
    g_free (why);
    gst_video_frame_unmap (&slot->in);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

static void
unmap_frames (FrameSlot * slot)
{
  gst_video_frame_unmap (&slot->out);
  gst_video_frame_unmap (&slot->in);
}

/* A frame queued and waited for: it leaves complete before the next one comes. */
static GstFlowReturn
run_frame (GstClConvolve * self, FrameSlot * slot)
{
  GstFlowReturn ret = frame_submit (self, slot);

  return ret == GST_FLOW_OK ? frame_complete (self, slot) : ret;
}

/* ---------------------------------------------------------------------------------------------
 * Regions of interest (roi-* properties, roi-meta): in place where both sides have the same
 * caps (GstBaseTransform's transform_ip, on the buffer itself): only the regions' windows are
 * read and only the regions written; the rest of the frame is not touched. Between different
 * memories (system and memory:CLBuffer) the frame is copied first, then filtered in place. */

static GstAllocator *caps_allocator (GstClConvolve * self, GstCaps * caps);

/* The frames held inputs are copied into go (new caps, stop). */
static void
drop_held_pool (GstClConvolve * self)
{
  if (self->held_pool) {
    gst_buffer_pool_set_active (self->held_pool, FALSE);
    gst_clear_object (&self->held_pool);
  }
}

/* Whether frames are filtered in regions. */
static gboolean
regions_on (GstClConvolve * self)
{
  gboolean on;

  GST_OBJECT_LOCK (self);
  on = self->roi_meta || self->roi.x || self->roi.y || self->roi.width || self->roi.height;
  GST_OBJECT_UNLOCK (self);
  return on;
}

/* The regions to filter on buf (a frame of width x height) into rects: the properties'
 * rectangle, or buf's GstVideoRegionOfInterestMeta of the roi-types. Returns how many. */
static gint
collect_regions (GstClConvolve * self, GstBuffer * buf, gint width, gint height,
    ClRect * rects)
{
  gboolean dropped = FALSE;
  gint n = 0;

  GST_OBJECT_LOCK (self);
  if (!self->roi_meta) {
    ClRect r = self->roi;

    /* 0: to the frame's edge */
    if (r.width == 0)
      r.width = CLAMP ((gint64) width - r.x, 0, G_MAXINT);
    if (r.height == 0)
      r.height = CLAMP ((gint64) height - r.y, 0, G_MAXINT);
    rects[n++] = r;
  } else {
    gpointer state = NULL;
    GstMeta *m;

    while ((m = gst_buffer_iterate_meta_filtered (buf, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
      GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) m;

      if (self->roi_type_list && !g_strv_contains ((const gchar * const *)
              self->roi_type_list, g_quark_to_string (roi->roi_type)))
        continue;
      if (n == CL_MAX_REGIONS) {
        dropped = TRUE;
        break;
      }
      rects[n++] = (ClRect) { MIN (roi->x, G_MAXINT), MIN (roi->y, G_MAXINT),
        MIN (roi->w, G_MAXINT), MIN (roi->h, G_MAXINT)
      };
    }
  }
  GST_OBJECT_UNLOCK (self);
  if (dropped)
    GST_WARNING_OBJECT (self, "more than %d regions on a frame: the first %d filtered",
        CL_MAX_REGIONS, CL_MAX_REGIONS);
  return n;
}

/* Filters the regions of buf in place (meta: the buffer whose regions are taken: buf, or the
 * input buf was copied from). */
static GstFlowReturn
regions_frame (GstClConvolve * self, GstBuffer * buf, GstBuffer * meta)
{
  GstVideoFilter *vf = GST_VIDEO_FILTER (self);
  FrameSlot *slot = free_slot (self);
  GstVideoFrame *frame = &slot->out;
  gint w = GST_VIDEO_INFO_WIDTH (&vf->in_info), h = GST_VIDEO_INFO_HEIGHT (&vf->in_info);
  ClRect rects[CL_MAX_REGIONS];
  gint n_rects = collect_regions (self, meta, w, h, rects), n = 0;
  ClPlane planes[CL_MAX_PLANES];
  ClLayout L;
  FrameMem mem;
  MemPath path;
  gboolean in_place;
  gsize bytes = 0;
  cl_event done = NULL;
  const gchar *what = "";
  gchar *why;
  GstMapFlags cl = 0;
  GstClMemory *m;
  GstFlowReturn ret = GST_FLOW_OK;
  cl_int err;

  if ((m = buffer_cl_memory (self, buf)) && m->device)
    cl = GST_MAP_CL;
  why = frame_map_problem (&vf->in_info, buf);
  if (why || !gst_video_frame_map (frame, &vf->in_info, buf, GST_MAP_READWRITE | cl |
          GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("Dropped an invalid input frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, buf));
    g_free (why);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  if (!prepare (self, &vf->in_info, GST_VIDEO_FRAME_IS_INTERLACED (frame) &&
          GST_VIDEO_INFO_INTERLACE_MODE (&vf->in_info) != GST_VIDEO_INTERLACE_MODE_ALTERNATE,
          &L, NULL)) {
    ret = GST_FLOW_ERROR;
    goto out;
  }
  if (!frame_in_bounds (frame, &L, &why)) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("Dropped an invalid input frame: %s.", why),
        ("%" GST_PTR_FORMAT, buf));
    g_free (why);
    ret = GST_BASE_TRANSFORM_FLOW_DROPPED;
    goto out;
  }
  if (!self->parts)
    self->parts = g_new (ClRegionPart, CL_MAX_REGIONS * CL_MAX_VIEWS);
  for (gint i = 0; i < n_rects; i++)
    n += cl_region_plan (&L, w, h, &rects[i], matrix_size (self->cur) / 2,
        self->cur->border == GST_CL_CONVOLVE_BORDER_WRAP, self->parts + n, &bytes);
  mem = frame_planes (self, frame, &L, planes);
  /* the kernels read the frame where it is when the device may: device-resident memory, or
   * pinned memory on a host-unified device; else the windows go up and the regions down */
  in_place = mem == FRAME_DEVICE || (mem == FRAME_PINNED && !self->discrete);
  path = mem == FRAME_DEVICE ? PATH_DEVICE : in_place ? PATH_IN_PLACE :
      mem == FRAME_PINNED ? PATH_PINNED_DMA : PATH_PAGEABLE_DMA;
  if (n == 0) {
    record_frame (self, slot->e, 0, path, path);
    goto out;
  }
  for (gint p = 0; p < L.n_planes && !in_place; p++) {
    planes[p].mem = NULL;
    if (!planes[p].host) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED, ("A frame in device memory has a plane layout "
              "the kernels cannot use (odd 16-bit offsets or strides, or beyond 2 GiB)."),
          ("%" GST_PTR_FORMAT, buf));
      ret = GST_FLOW_ERROR;
      goto out;
    }
  }
  /* the buffers grow in whole MiB: regions that move from frame to frame rarely need more */
  bytes = GST_ROUND_UP_N (bytes, 1 << 20);
  if (!ensure_buffer (self, &self->region_out, &self->region_out_bytes, bytes,
          CL_MEM_READ_WRITE) || (!in_place && !ensure_buffer (self, &self->region_in,
              &self->region_in_bytes, bytes, CL_MEM_READ_ONLY))) {
    ret = GST_FLOW_ERROR;
    goto out;
  }
  slot->f = frame_run (self, &L);
  err = gst_cl_run_regions (&slot->f, &L, self->parts, n, planes, self->region_in,
      self->region_out, slot->e, &done, &what);
  if (err == CL_SUCCESS) {
    cl_int status = CL_COMPLETE;

    what = "frame";
    err = clWaitForEvents (1, &done);
    if (err == CL_SUCCESS)
      clGetEventInfo (done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status, NULL);
    if (status < 0)
      err = status;
  }
  g_clear_pointer (&done, clReleaseEvent);
  if (err != CL_SUCCESS) {
    gst_cl_run_finish (&slot->f);
    gst_cl_events_release (slot->e);
    FLOW_FAILED (what, err);
    ret = GST_FLOW_ERROR;
    goto out;
  }
  record_frame (self, slot->e, 0, path, path);
  gst_cl_events_release (slot->e);
out:
  gst_video_frame_unmap (frame);
  return ret;
}

/* The whole of frame src into dst (both of the negotiated format, mapped on the host here),
 * each plane in parallel pieces. FALSE after posting why. */
static gboolean
copy_frame (GstClConvolve * self, GstBuffer * dst, GstBuffer * src)
{
  GstVideoFilter *vf = GST_VIDEO_FILTER (self);
  GstVideoFrame in, out;
  gchar *why = frame_map_problem (&vf->in_info, src);
  ClLayout L;

  if (why || !gst_video_frame_map (&in, &vf->in_info, src, GST_MAP_READ)) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("Dropped an invalid input frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, src));
    g_free (why);
    return FALSE;
  }
  why = frame_map_problem (&vf->out_info, dst);
  if (why || !gst_video_frame_map (&out, &vf->out_info, dst, GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("The output buffer is not a valid frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, dst));
    g_free (why);
    gst_video_frame_unmap (&in);
    return FALSE;
  }
  cl_layout_plan (&vf->in_info, GST_CL_CONVOLVE_PLANES_AUTO, FALSE, &L);
  if (!frame_in_bounds (&in, &L, &why) || !frame_in_bounds (&out, &L, &why)) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("Dropped an invalid frame: %s.", why),
        ("%" GST_PTR_FORMAT, src));
    g_free (why);
    gst_video_frame_unmap (&out);
    gst_video_frame_unmap (&in);
    return FALSE;
  }
  for (gint p = 0; p < L.n_planes; p++)
    gst_cl_copy_rows_parallel (GST_VIDEO_FRAME_PLANE_DATA (&out, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&out, p), GST_VIDEO_FRAME_PLANE_DATA (&in, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&in, p), L.row[p], L.height[p], self->copy_parts);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return TRUE;
}

static GstFlowReturn
gst_cl_convolve_transform_ip (GstBaseTransform * bt, GstBuffer * buf)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  GstBuffer *src = self->ip_source;
  GstFlowReturn ret;

  /* a held input: buf is a new frame of ours that gets its pixels first */
  self->ip_source = NULL;
  if (src && !copy_frame (self, buf, src)) {
    gst_buffer_unref (src);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  ret = regions_frame (self, buf, src ? src : buf);
  gst_clear_buffer (&src);
  return ret;
}

/* In place (regions): the input itself when it is writable. Else (upstream holds it: a tee,
 * an application) a frame of our device's memory, which transform_ip fills from the input with
 * a parallel copy: GStreamer's copy-on-write would copy it in one thread through system
 * memory. GstBaseTransform's own would take a buffer of the output pool negotiated before
 * regions were switched on. */
static GstFlowReturn
gst_cl_convolve_prepare_output_buffer (GstBaseTransform * bt, GstBuffer * inbuf,
    GstBuffer ** outbuf)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  GstCaps *caps;

  if (!gst_base_transform_is_in_place (bt) || gst_base_transform_is_passthrough (bt))
    return GST_BASE_TRANSFORM_CLASS (parent_class)->prepare_output_buffer (bt, inbuf, outbuf);
  if (gst_buffer_is_writable (inbuf)) {
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  if (!self->held_pool && (caps = gst_pad_get_current_caps (GST_BASE_TRANSFORM_SRC_PAD (bt)))) {
    GstBufferPool *pool = gst_cl_buffer_pool_new (caps_allocator (self, caps));
    GstStructure *config = gst_buffer_pool_get_config (pool);

    gst_buffer_pool_config_set_params (config, caps,
        GST_VIDEO_INFO_SIZE (&GST_VIDEO_FILTER (self)->out_info), 0, 0);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (gst_buffer_pool_set_config (pool, config) && gst_buffer_pool_set_active (pool, TRUE))
      self->held_pool = pool;
    else
      gst_object_unref (pool);
    gst_caps_unref (caps);
  }
  *outbuf = NULL;
  if (self->held_pool)
    gst_buffer_pool_acquire_buffer (self->held_pool, outbuf, NULL);
  if (!*outbuf) {
    GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Could not allocate a frame on %s.",
            self->ctx->device_name), (NULL));
    return GST_FLOW_ERROR;
  }
  GST_BASE_TRANSFORM_GET_CLASS (bt)->copy_metadata (bt, inbuf, *outbuf);
  gst_buffer_replace (&self->ip_source, inbuf);
  return GST_FLOW_OK;
}

/* Regions between different memories: outbuf gets the whole input, then its regions. */
static GstFlowReturn
regions_copy (GstClConvolve * self, GstBuffer * inbuf, GstBuffer * outbuf)
{
  return copy_frame (self, outbuf, inbuf) ? regions_frame (self, outbuf, inbuf) :
      GST_BASE_TRANSFORM_FLOW_DROPPED;
}

/* GstVideoFilter needs it set (without it the element would work in place); transform below
 * replaces the path that calls it. */
static GstFlowReturn
gst_cl_convolve_transform_frame (GstVideoFilter * vf, GstVideoFrame * in, GstVideoFrame * out)
{
  GstClConvolve *self = GST_CL_CONVOLVE (vf);
  FrameSlot *slot = free_slot (self);

  slot->in = *in;
  slot->out = *out;
  return run_frame (self, slot);
}

/* One frame at a time (max-inflight=1), its buffers checked before they are mapped. */
static GstFlowReturn
gst_cl_convolve_transform (GstBaseTransform * bt, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  FrameSlot *slot = free_slot (self);
  GstFlowReturn ret;

  if (regions_on (self))
    return regions_copy (self, inbuf, outbuf);
  ret = map_frames (self, slot, inbuf, outbuf);

  if (ret != GST_FLOW_OK)
    return ret;
  ret = run_frame (self, slot);
  unmap_frames (slot);
  return ret;
}

/* ---------------------------------------------------------------------------------------------
 * Frames in flight (max-inflight > 1): GstBaseTransform's generate_output, which may return no
 * buffer, queues each input frame on the device and returns the oldest one's output once
 * max-inflight frames are queued. Events that must see every frame before them (EOS, caps,
 * segments, gaps, the drain query) push the frames in flight first; a flush drops them. */

static guint
max_inflight (GstClConvolve * self)
{
  guint n;

  GST_OBJECT_LOCK (self);
  n = self->max_inflight;
  GST_OBJECT_UNLOCK (self);
  return n;
}

/* Queues inbuf (taken) and an output buffer for it as the newest frame in flight. */
static GstFlowReturn
submit_inflight (GstClConvolve * self, GstBuffer * inbuf)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstBuffer *outbuf = NULL;
  FrameSlot *slot;
  GstFlowReturn ret;

  ret = GST_BASE_TRANSFORM_GET_CLASS (bt)->prepare_output_buffer (bt, inbuf, &outbuf);
  if (ret != GST_FLOW_OK || !outbuf) {
    gst_buffer_unref (inbuf);
    return ret;
  }
  slot = free_slot (self);
  ret = map_frames (self, slot, inbuf, outbuf);
  if (ret == GST_FLOW_OK) {
    ret = frame_submit (self, slot);
    if (ret != GST_FLOW_OK)
      unmap_frames (slot);
  }
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    return ret;
  }
  slot->inbuf = inbuf;
  slot->outbuf = outbuf;
  self->n_pending++;
  return GST_FLOW_OK;
}

/* Completes the oldest frame in flight: *outbuf is its output (NULL after a failure). */
static GstFlowReturn
complete_oldest (GstClConvolve * self, GstBuffer ** outbuf)
{
  FrameSlot *slot = &self->slots[self->oldest];
  GstFlowReturn ret = frame_complete (self, slot);

  unmap_frames (slot);
  gst_clear_buffer (&slot->inbuf);
  *outbuf = slot->outbuf;
  slot->outbuf = NULL;
  if (ret != GST_FLOW_OK)
    gst_clear_buffer (outbuf);
  self->oldest = (self->oldest + 1) % MAX_INFLIGHT;
  self->n_pending--;
  return ret;
}

/* Pushes every frame in flight downstream, oldest first; the first failure is returned (the
 * frames after it are dropped). */
static GstFlowReturn
drain_inflight (GstClConvolve * self)
{
  GstFlowReturn ret = GST_FLOW_OK;

  while (self->n_pending > 0) {
    GstBuffer *out = NULL;
    GstFlowReturn r = complete_oldest (self, &out);

    if (out && ret == GST_FLOW_OK)
      r = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), out);
    else if (out)
      gst_buffer_unref (out);
    if (ret == GST_FLOW_OK)
      ret = r;
  }
  return ret;
}

/* Drops every frame in flight once the device is done with it (flush, stop). */
static void
discard_inflight (GstClConvolve * self)
{
  while (self->n_pending > 0) {
    FrameSlot *slot = &self->slots[self->oldest];

    if (slot->done) {
      clWaitForEvents (1, &slot->done);
      g_clear_pointer (&slot->done, clReleaseEvent);
    }
    slot_idle (self, slot);
    gst_cl_events_release (slot->e);
    unmap_frames (slot);
    gst_clear_buffer (&slot->inbuf);
    gst_clear_buffer (&slot->outbuf);
    self->oldest = (self->oldest + 1) % MAX_INFLIGHT;
    self->n_pending--;
  }
  self->oldest = 0;
  if (self->spent)
    gst_cl_events_release (self->spent);
}

/* Whether s leaves every sample as it is: the identity matrix (a 1 at the centre once divided)
 * and no bias. */
static gboolean
settings_identity (const Settings * s)
{
  gdouble k[NCOEF];
  gint n = settings_matrix (s, k);
  gdouble divisor = s->divisor != 0.0 ? s->divisor : conv_auto_divisor (k, n);

  if (s->bias != 0.0 || divisor == 0.0 || s->combine != GST_CL_CONVOLVE_COMBINE_NONE)
    return FALSE;
  for (gint c = 0; c < CL_MAX_MATRICES; c++)
    if (s->plane_size[c])
      return FALSE;
  for (gint i = 0; i < n * n; i++)
    if (k[i] / divisor != (i == n * n / 2 ? 1.0 : 0.0))
      return FALSE;
  return TRUE;
}

/* Whether the current settings are the identity (cached until they change). */
static gboolean
is_identity (GstClConvolve * self)
{
  gboolean identity;

  GST_OBJECT_LOCK (self);
  if (self->identity_cookie != self->cookie) {
    self->identity = settings_identity (self->set);
    self->identity_cookie = self->cookie;
  }
  identity = self->identity;
  GST_OBJECT_UNLOCK (self);
  return identity;
}

/* Switches GstBaseTransform's passthrough on while the settings are the identity and the caps
 * the same on both sides (buffers then go out untouched), and off again; the frames in flight
 * leave first, so that none is overtaken. */
static GstFlowReturn
update_passthrough (GstClConvolve * self)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  gboolean pass, identity = is_identity (self);

  GST_OBJECT_LOCK (self);
  pass = identity && self->same_caps;
  GST_OBJECT_UNLOCK (self);
  /* the identity with device memory out of system memory in (or the other way round): the
   * caps are chosen again, preferring the input's (fixate_caps) */
  if (identity != self->identity_negotiated) {
    self->identity_negotiated = identity;
    if (identity && !pass)
      gst_base_transform_reconfigure_src (bt);
  }
  if (pass == gst_base_transform_is_passthrough (bt))
    return GST_FLOW_OK;
  if (pass && self->n_pending > 0) {
    GstFlowReturn ret = drain_inflight (self);

    if (ret != GST_FLOW_OK)
      return ret;
  }
  GST_INFO_OBJECT (self, pass ? "identity: buffers pass through untouched" :
      "convolving again");
  gst_base_transform_set_passthrough (bt, pass);
  return GST_FLOW_OK;
}

static GstFlowReturn
gst_cl_convolve_generate_output (GstBaseTransform * bt, GstBuffer ** outbuf)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  GstBuffer *inbuf = bt->queued_buf;
  guint max = max_inflight (self);
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean regions = regions_on (self), in_place;

  if (inbuf) {
    ret = update_passthrough (self);
    if (ret != GST_FLOW_OK)
      return ret;
    if (gst_base_transform_is_passthrough (bt))
      return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt, outbuf);
    /* regions go one frame at a time, in place where the caps are the same on both sides */
    if (regions && self->n_pending > 0 && (ret = drain_inflight (self)) != GST_FLOW_OK)
      return ret;
    GST_OBJECT_LOCK (self);
    in_place = regions && self->same_caps;
    GST_OBJECT_UNLOCK (self);
    gst_base_transform_set_in_place (bt, in_place);
  }
  /* one at a time: GstBaseTransform's own path (QoS, transform) */
  if ((max <= 1 || regions) && self->n_pending == 0)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->generate_output (bt, outbuf);
  *outbuf = NULL;
  if (inbuf) {
    bt->queued_buf = NULL;
    ret = submit_inflight (self, inbuf);
    if (ret == GST_BASE_TRANSFORM_FLOW_DROPPED)
      ret = GST_FLOW_OK;
    if (ret != GST_FLOW_OK)
      return ret;
  }
  /* called again until it returns no buffer: after max-inflight was lowered, every frame
   * beyond the new count leaves now */
  if (self->n_pending > 0 && self->n_pending >= max)
    ret = complete_oldest (self, outbuf);
  return ret;
}

static gboolean
gst_cl_convolve_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_GAP:
      drain_inflight (self);
      break;
    case GST_EVENT_FLUSH_STOP:
      discard_inflight (self);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

static gboolean
gst_cl_convolve_set_info (GstVideoFilter * vf, GstCaps * incaps, GstVideoInfo * in_info,
    GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClConvolve *self = GST_CL_CONVOLVE (vf);
  ClLayout L;

  /* the kernels index a frame with 32-bit offsets */
  if (GST_VIDEO_INFO_SIZE (in_info) > G_MAXINT32) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Frames of %dx%d %s are larger than 2 GiB, "
            "which clconvolve does not handle; scale them down first.",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
            GST_VIDEO_INFO_NAME (in_info)), (NULL));
    return FALSE;
  }
  GST_DEBUG_OBJECT (self, "format %s, %d planes", GST_VIDEO_INFO_NAME (in_info),
      GST_VIDEO_INFO_N_PLANES (in_info));
  drop_held_pool (self);
  /* passthrough needs the same memory on both sides, not only the same format */
  GST_OBJECT_LOCK (self);
  self->same_caps = gst_caps_is_equal (incaps, outcaps);
  GST_OBJECT_UNLOCK (self);
  /* the kernels of this format and the current settings, built (and tuned) now */
  return prepare (self, in_info, FALSE, &L, NULL);
}

/* The allocator of the memory caps ask for: device-resident for memory:CLBuffer, else pinned. */
static GstAllocator *
caps_allocator (GstClConvolve * self, GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features && gst_caps_features_contains (features, GST_CAPS_FEATURE_MEMORY_CL_BUFFER) ?
      self->dev_allocator : self->allocator;
}

/* Offers upstream a pool of our device's memory (and the allocator behind it): pinned memory
 * for system-memory caps, so that sources, decoders and appsrc write frames where the device
 * reads them without a host copy; device-resident memory for memory:CLBuffer. */
static gboolean
gst_cl_convolve_propose_allocation (GstBaseTransform * bt, GstQuery * decide_query,
    GstQuery * query)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  GstAllocationParams params;
  GstAllocator *allocator;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean need_pool;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gst_video_info_from_caps (&info, caps) || !self->allocator)
    return FALSE;
  allocator = caps_allocator (self, caps);

  gst_allocation_params_init (&params);
  gst_query_add_allocation_param (query, allocator, &params);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (!need_pool)
    return TRUE;

  pool = gst_cl_buffer_pool_new (allocator);
  if (!pool)
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, 0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (self, "could not configure the pool for %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return FALSE;
  }
  /* frames in flight hold that many of upstream's buffers */
  gst_query_add_allocation_pool (query, pool, info.size, max_inflight (self), 0);
  gst_object_unref (pool);
  return TRUE;
}

/* Output buffers come from a pool of our device's memory of the kind the caps say (pinned, or
 * device-resident for memory:CLBuffer): downstream's if it is one (a second clconvolve on the
 * same device), else ours. The base classes then configure it. */
static gboolean
gst_cl_convolve_decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  GstBufferPool *pool = NULL;
  GstAllocator *allocator;
  guint size = 0, min = 0, max = 0;
  GstVideoInfo info;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps) || !self->ctx)
    return FALSE;
  allocator = caps_allocator (self, caps);

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    if (pool && (gst_cl_buffer_pool_get_context (pool) != self->ctx ||
            gst_cl_buffer_pool_is_device (pool) != gst_cl_allocator_is_device (allocator)))
      gst_clear_object (&pool);
  }
  if (!pool) {
    pool = gst_cl_buffer_pool_new (allocator);
    if (!pool)
      return FALSE;
  }
  size = MAX (size, info.size);
  /* frames in flight hold that many output buffers besides downstream's */
  min += max_inflight (self) - 1;
  if (max && max < min)
    max = min;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  GST_DEBUG_OBJECT (self, "output pool %" GST_PTR_FORMAT, pool);
  gst_object_unref (pool);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (bt, query);
}

/* Both sides take memory:CLBuffer or system memory, whatever the other side has: the element
 * uploads and downloads what is not on the device. */
static GstCaps *
gst_cl_convolve_transform_caps (GstBaseTransform * bt, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCaps *ret = gst_caps_new_empty ();

  if (gst_caps_is_any (caps)) {
    gst_caps_unref (ret);
    ret = gst_caps_ref (caps);
  } else {
    for (gint feature = 0; feature < 2; feature++)
      for (guint i = 0; i < gst_caps_get_size (caps); i++) {
        GstCaps *one = gst_caps_new_full (gst_structure_copy (gst_caps_get_structure (caps,
                    i)), NULL);

        gst_caps_set_features (one, 0, feature == 0 ?
            gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_CL_BUFFER) :
            gst_caps_features_new_single (GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY));
        ret = gst_caps_merge (ret, one);
      }
  }
  if (filter) {
    GstCaps *both = gst_caps_intersect_full (filter, ret, GST_CAPS_INTERSECT_FIRST);

    gst_caps_unref (ret);
    ret = both;
  }
  GST_DEBUG_OBJECT (bt, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, ret);
  return ret;
}

/* Output in memory:CLBuffer whenever downstream takes it: GstBaseTransform puts downstream's
 * own caps first (for passthrough), which would otherwise choose system memory. The identity
 * prefers the input's caps instead: the same caps on both sides let buffers pass through. */
static GstCaps *
gst_cl_convolve_fixate_caps (GstBaseTransform * bt, GstPadDirection direction, GstCaps * caps,
    GstCaps * othercaps)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);

  self->identity_negotiated = is_identity (self);
  if (direction == GST_PAD_SINK && self->identity_negotiated) {
    GstCaps *same = gst_caps_intersect_full (caps, othercaps, GST_CAPS_INTERSECT_FIRST);

    if (gst_caps_is_empty (same))
      gst_caps_unref (same);
    else
      othercaps = gst_caps_merge (same, othercaps);
  } else if (direction == GST_PAD_SINK) {
    GstCaps *cl = gst_caps_new_empty ();

    for (guint i = 0; i < gst_caps_get_size (othercaps); i++) {
      GstCapsFeatures *features = gst_caps_get_features (othercaps, i);

      if (features && !gst_caps_features_is_any (features) &&
          gst_caps_features_contains (features, GST_CAPS_FEATURE_MEMORY_CL_BUFFER))
        gst_caps_append_structure_full (cl,
            gst_structure_copy (gst_caps_get_structure (othercaps, i)),
            gst_caps_features_copy (features));
    }
    othercaps = gst_caps_merge (cl, othercaps);
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->fixate_caps (bt, direction, caps, othercaps);
}

static void
release_cl (GstClConvolve * self)
{
  GstClContext *ctx;

  for (gint i = 0; i < CL_MAX_SHAPES; i++) {
    drop_job (self, i);
    drop_job (self, SEP_JOB (i));
    built_clear (self, &self->built[i], FALSE);
    built_clear (self, &self->generic[i], FALSE);
    built_clear (self, &self->generic_sep[i], FALSE);
  }
  memset (self->run, 0, sizeof (self->run));
  /* frames still in flight (a stop without EOS) wait for the device before they go */
  discard_inflight (self);
  for (gint i = 0; i < MAX_INFLIGHT; i++) {
    FrameSlot *slot = &self->slots[i];

    g_clear_pointer (&slot->src_mem, clReleaseMemObject);
    g_clear_pointer (&slot->dst_mem, clReleaseMemObject);
    g_clear_pointer (&slot->stage_in, gst_memory_unref);
    g_clear_pointer (&slot->stage_out, gst_memory_unref);
    slot->src_bytes = slot->dst_bytes = 0;
  }
  for (gint m = 0; m < CL_MAX_MATRICES; m++) {
    g_clear_pointer (&self->coef_mem[m], clReleaseMemObject);
    g_clear_pointer (&self->sep_mem[m], clReleaseMemObject);
    g_clear_pointer (&self->taps_mem[m], clReleaseMemObject);
  }
  g_clear_pointer (&self->tmp_mem, clReleaseMemObject);
  self->tmp_bytes = 0;
  gst_clear_buffer (&self->ip_source);
  drop_held_pool (self);
  g_clear_pointer (&self->region_in, clReleaseMemObject);
  g_clear_pointer (&self->region_out, clReleaseMemObject);
  self->region_in_bytes = self->region_out_bytes = 0;
  gst_clear_object (&self->allocator);
  gst_clear_object (&self->dev_allocator);
  g_clear_pointer (&self->queue, clReleaseCommandQueue);
  g_clear_pointer (&self->up_queue, clReleaseCommandQueue);
  g_clear_pointer (&self->down_queue, clReleaseCommandQueue);
  /* the context property reads it under the lock */
  GST_OBJECT_LOCK (self);
  ctx = self->ctx;
  self->ctx = NULL;
  GST_OBJECT_UNLOCK (self);
  /* no longer counted on the device (device=auto's load) */
  gst_cl_context_leave (ctx);
  gst_cl_context_release (ctx);
  for (gint i = 0; i < CL_N_SOURCES; i++)
    g_clear_pointer (&self->source_override[i], g_free);
  g_clear_pointer (&self->digest_override, g_free);
  self->cur_valid = FALSE;
}

/* device-name and device-index: ctx's, or NULL. Notifies only a change: gst-launch-1.0 -v
 * would print "device-name = (null)" at start. */
static void
show_device (GstClConvolve * self, GstClContext * ctx)
{
  const gchar *name = ctx ? ctx->device_name : NULL, *index = ctx ? ctx->index_spec : NULL;
  gboolean name_changed, index_changed;

  GST_OBJECT_LOCK (self);
  name_changed = g_strcmp0 (self->device_name, name) != 0;
  if (name_changed) {
    g_free (self->device_name);
    self->device_name = g_strdup (name);
  }
  index_changed = g_strcmp0 (self->device_index, index) != 0;
  if (index_changed) {
    g_free (self->device_index);
    self->device_index = g_strdup (index);
  }
  GST_OBJECT_UNLOCK (self);
  if (name_changed)
    g_object_notify (G_OBJECT (self), "device-name");
  if (index_changed)
    g_object_notify (G_OBJECT (self), "device-index");
}

/* A part of a program source read from dir: a #line directive naming the file, then its text,
 * as kernels/embed.py joins them. NULL with error set when it cannot be read. */
static gchar *
read_source_part (const gchar * dir, const gchar * file, GError ** error)
{
  gchar *path = g_build_filename (dir, file, NULL), *text = NULL, *part = NULL;
  gsize len;

  if (g_file_get_contents (path, &text, &len, error))
    part = g_strdup_printf ("#line 1 \"%s\"\n%s%s", file, text,
        len && text[len - 1] != '\n' ? "\n" : "");
  g_free (text);
  g_free (path);
  return part;
}

/* Sets the program sources and their digest: the embedded ones, or those of
 * GST_CLCONVOLVE_KERNEL_SOURCE (path, if not empty): a directory holding common.cl and every
 * variant's file, joined as at build time (an unchanged copy of kernels/ gives the embedded
 * sources), or one file that is every program's whole source. FALSE with error set when a file
 * cannot be read. */
static gboolean
load_sources (GstClConvolve * self, const gchar * path, GError ** error)
{
  GChecksum *sum;

  for (gint i = 0; i < CL_N_SOURCES; i++)
    self->source[i] = gst_cl_embedded_sources ()[i];
  self->sources_digest = gst_cl_embedded_digest ();
  if (!path || !*path)
    return TRUE;
  if (g_file_test (path, G_FILE_TEST_IS_DIR)) {
    gchar *common = read_source_part (path, COMMON_SOURCE, error);

    for (gint i = 0; i < CL_N_SOURCES && common; i++) {
      gchar *variant = read_source_part (path, kernel_files[i], error);

      if (!variant)
        g_clear_pointer (&common, g_free);
      else
        self->source_override[i] = g_strconcat (common, variant, NULL);
      g_free (variant);
    }
    if (!common)
      return FALSE;
    g_free (common);
  } else if (!g_file_get_contents (path, &self->source_override[0], NULL, error)) {
    return FALSE;
  }
  /* as kernels/embed.py digests the embedded sources: each with its terminating NUL */
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  for (gint i = 0; i < CL_N_SOURCES; i++) {
    self->source[i] = self->source_override[i] ? self->source_override[i] :
        self->source_override[0];
    g_checksum_update (sum, (const guchar *) self->source[i], strlen (self->source[i]) + 1);
  }
  self->digest_override = g_strdup (g_checksum_get_string (sum));
  self->sources_digest = self->digest_override;
  g_checksum_free (sum);
  return TRUE;
}

static gboolean
gst_cl_convolve_start (GstBaseTransform * bt)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  const gchar *override = g_getenv (SOURCE_ENV);
  GstClContext *ctx;
  GError *error = NULL;
  gchar *spec;
  cl_int err;

  GST_OBJECT_LOCK (self);
  spec = g_strdup (self->device);
  GST_OBJECT_UNLOCK (self);

  show_device (self, NULL);
  ctx = gst_cl_context_ensure_element (GST_ELEMENT (self), spec, &self->offered, &error);
  GST_OBJECT_LOCK (self);
  self->ctx = ctx;
  GST_OBJECT_UNLOCK (self);
  if (!self->ctx) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", error->message),
        ("device=\"%s\"", spec));
    g_clear_error (&error);
    g_free (spec);
    return FALSE;
  }
  g_free (spec);

  if (!load_sources (self, override, &error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not read %s=%s: %s", SOURCE_ENV,
            override, error->message), (NULL));
    g_clear_error (&error);
    goto fail;
  }
  if (self->digest_override)
    GST_WARNING_OBJECT (self, "using OpenCL sources from %s (developer override)", override);

  GST_OBJECT_LOCK (self);
  self->profiling_on = self->profiling;
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&self->stats_lock);
  gst_cl_stats_init (&self->stats);
  self->host_copies = 0;
  self->path_in = self->path_out = PATH_NONE;
  self->tunings = self->tunings_loaded = 0;
  self->generic_frames = 0;
  memset (&self->variant, 0, sizeof (self->variant));
  g_mutex_unlock (&self->stats_lock);

  g_free (self->tune_dir);
  self->tune_dir = gst_cl_tuner_dir ();
  self->block_override = g_getenv (BLOCK_ENV) ? CLAMP (atoi (g_getenv (BLOCK_ENV)), 0, 16) : 0;
  self->split_override = split_override ();
  self->sparse_tiles = g_strcmp0 (g_getenv (SPARSE_TILES_ENV), "1") == 0;
  self->generic_dense = g_strcmp0 (g_getenv (GENERIC_ENV), "dense") == 0;
  self->generic_only = self->generic_dense || g_strcmp0 (g_getenv (GENERIC_ENV), "1") == 0;
  self->sync_builds = g_strcmp0 (g_getenv (SYNC_ENV), "1") == 0;
  self->copy_parts = g_getenv (COPY_ENV) && atoi (g_getenv (COPY_ENV)) > 0 ?
      MIN (atoi (g_getenv (COPY_ENV)), CL_MAX_COPY_PARTS) :
      CLAMP ((gint) g_get_num_processors () / 2, 2, 8);
  self->facts = (ClDeviceFacts) { self->ctx->local_mem_dedicated, self->ctx->local_mem_size,
    self->ctx->max_work_group_size, self->ctx->native_float_width
  };
  self->discrete = !self->ctx->host_unified;
  if (!self->discrete && g_getenv (DISCRETE_ENV) && atoi (g_getenv (DISCRETE_ENV))) {
    GST_WARNING_OBJECT (self, "%s set: copying frames to device buffers (developer override)",
        DISCRETE_ENV);
    self->discrete = TRUE;
  }
  {
    /* the context's: one queue per stage for every element on the device */
    cl_command_queue q[GST_CL_CONTEXT_N_QUEUES] = { NULL };

    err = gst_cl_context_frame_queues (self->ctx, self->profiling_on, self->discrete ? 3 : 1,
        q);
    if (err != CL_SUCCESS) {
      FLOW_FAILED ("clCreateCommandQueue", err);
      goto fail;
    }
    self->queue = q[0];
    self->up_queue = q[1];
    self->down_queue = q[2];
  }
  self->allocator = gst_cl_allocator_new (self->ctx);
  if (self->allocator)
    self->dev_allocator = self->discrete ? gst_cl_allocator_new_device (self->ctx) :
        gst_object_ref (self->allocator);
  if (!self->allocator || !self->dev_allocator) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Could not set up pinned memory on %s.",
            self->ctx->device_name), (NULL));
    goto fail;
  }
  self->coef_mem[0] = clCreateBuffer (self->ctx->context, CL_MEM_READ_ONLY,
      sizeof (gfloat) * 2 * NCOEF, NULL, &err);
  if (self->coef_mem[0])
    self->sep_mem[0] = clCreateBuffer (self->ctx->context, CL_MEM_READ_ONLY,
        sizeof (gfloat) * 2 * CL_MAX_RANK * CONV_MAX_SIZE, NULL, &err);
  if (self->sep_mem[0])
    self->taps_mem[0] = clCreateBuffer (self->ctx->context, CL_MEM_READ_ONLY,
        sizeof (ConvTap) * CL_MAX_TAPS, NULL, &err);
  if (!self->coef_mem[0] || !self->sep_mem[0] || !self->taps_mem[0]) {
    FLOW_FAILED ("clCreateBuffer", err);
    goto fail;
  }

  show_device (self, self->ctx);
  GST_INFO_OBJECT (self, "using OpenCL device %s %s", self->ctx->index_spec,
      self->ctx->device_name);
  return TRUE;

fail:
  release_cl (self);
  return FALSE;
}

static gboolean
gst_cl_convolve_stop (GstBaseTransform * bt)
{
  release_cl (GST_CL_CONVOLVE (bt));
  show_device (GST_CL_CONVOLVE (bt), NULL);
  return TRUE;
}

/* Contexts the pipeline or the application give: kept for the next start (one in use is
 * never swapped mid-stream). */
static void
gst_cl_convolve_set_context (GstElement * element, GstContext * context)
{
  gst_cl_context_set_element_context (element, context,
      &GST_CL_CONVOLVE (element)->offered);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean
gst_cl_convolve_query (GstBaseTransform * bt, GstPadDirection direction, GstQuery * query)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  gboolean ok, placed;

  GST_OBJECT_LOCK (self);
  placed = gst_cl_device_spec_is_auto (self->device);
  GST_OBJECT_UNLOCK (self);
  /* a placed element answers with the context it runs on, or not at all: what it was given
   * or ran on before would decide a neighbour's place instead of the load */
  if (gst_cl_context_handle_query (GST_ELEMENT (bt), query, placed ? &self->ctx :
          &self->offered))
    return TRUE;
  /* serialized on the sink pad: the streaming thread's, so the frames in flight are ours */
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN)
    drain_inflight (self);
  ok = GST_BASE_TRANSFORM_CLASS (parent_class)->query (bt, direction, query);
  /* frames in flight hold each frame back by max-inflight - 1 frames */
  if (ok && direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstVideoInfo *info = &GST_VIDEO_FILTER (bt)->in_info;
    guint extra = max_inflight (self) - 1;
    GstClockTime min, max, added = 0;
    gboolean live;

    if (extra > 0 && GST_VIDEO_INFO_FPS_N (info) > 0)
      added = gst_util_uint64_scale_int (extra * GST_SECOND, GST_VIDEO_INFO_FPS_D (info),
          GST_VIDEO_INFO_FPS_N (info));
    gst_query_parse_latency (query, &live, &min, &max);
    GST_DEBUG_OBJECT (self, "%u frames in flight add %" GST_TIME_FORMAT, extra + 1,
        GST_TIME_ARGS (added));
    gst_query_set_latency (query, live, min + added,
        GST_CLOCK_TIME_IS_VALID (max) ? max + added : max);
  }
  return ok;
}

static void
gst_cl_convolve_finalize (GObject * object)
{
  GstClConvolve *self = GST_CL_CONVOLVE (object);

  release_cl (self);
  g_free (self->tune_dir);
  g_free (self->matrix_text);
  g_free (self->matrix_y_text);
  g_free (self->plane_matrices_text);
  g_free (self->roi_types);
  g_strfreev (self->roi_type_list);
  g_free (self->parts);
  g_free (self->device);
  g_free (self->device_name);
  g_free (self->device_index);
  gst_clear_object (&self->offered);
  gst_cl_stats_clear (&self->stats);
  g_mutex_clear (&self->stats_lock);
  for (gint i = 0; i < MAX_INFLIGHT; i++)
    g_free (self->slots[i].e);
  if (self->spent)
    gst_cl_events_release (self->spent);
  g_free (self->spent);
  g_free (self->slots);
  g_free (self->cur);
  g_free (self->set);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_cl_convolve_class_init (GstClConvolveClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);
  GstVideoFilterClass *vf_class = GST_VIDEO_FILTER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  const GParamFlags live = rw | GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags ctrl = live | GST_PARAM_CONTROLLABLE;

  GST_DEBUG_CATEGORY_INIT (gst_cl_convolve_debug, "clconvolve", 0, "OpenCL convolution");
  gst_cl_tuner_init ();

  gobject_class->set_property = gst_cl_convolve_set_property;
  gobject_class->get_property = gst_cl_convolve_get_property;
  gobject_class->finalize = gst_cl_convolve_finalize;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_enum ("kernel", "Kernel", "Coefficient preset, generated for any odd size "
          "(formulas in docs/kernels.md); 'custom' uses the matrix property. The identity (also a "
          "matrix that divides to a 1 at the centre, bias 0) passes buffers through untouched",
          GST_TYPE_CL_CONVOLVE_KERNEL, DEFAULT_KERNEL, live));
  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size", "Side of the square kernel in pixels, odd; an even "
          "value is refused with a warning and the previous size stays", 1, CONV_MAX_SIZE,
          DEFAULT_SIZE, live));
  g_object_class_install_property (gobject_class, PROP_MATRIX,
      g_param_spec_string ("matrix", "Matrix", "Custom coefficients, row-major, separated by "
          "commas or spaces; a semicolon or a line end ends a row. Rows of one odd length make "
          "a rectangle ('1 2 1' a row, '1; 2; 1' a column, odd sides <= 63); one list of an "
          "odd square count is square. Setting it switches kernel to custom and size to the "
          "longer side; a malformed matrix is refused with a warning", NULL, live));
  g_object_class_install_property (gobject_class, PROP_DIVISOR,
      g_param_spec_double ("divisor", "Divisor", "Divide the weighted sum by this; 0 = "
          "automatic: the sum of the coefficients, or 1 where that sum is 0",
          -G_MAXDOUBLE, G_MAXDOUBLE, DEFAULT_DIVISOR, ctrl));
  g_object_class_install_property (gobject_class, PROP_BIAS,
      g_param_spec_double ("bias", "Bias", "Added after dividing, in 8-bit units "
          "(e.g. 128 to centre signed responses such as sobel-x)", -1e6, 1e6, DEFAULT_BIAS,
          ctrl));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border", "How pixels outside the frame are made up",
          GST_TYPE_CL_CONVOLVE_BORDER, DEFAULT_BORDER, live));
  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "OpenCL kernel variant (all give the same output "
          "within 1 LSB); auto logs its choice at INFO level", GST_TYPE_CL_CONVOLVE_METHOD,
          DEFAULT_METHOD, live));
  g_object_class_install_property (gobject_class, PROP_ANGLE,
      g_param_spec_double ("angle", "Angle", "Direction of the motionblur line in degrees, "
          "counter-clockwise from +x (image y points down)", -360.0, 360.0, DEFAULT_ANGLE,
          ctrl));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma", "Standard deviation of the gaussian in pixels; "
          "0 = OpenCV's rule 0.3*((size-1)*0.5-1)+0.8 (gaussian and unsharp)", 0.0, 1000.0,
          DEFAULT_SIGMA, ctrl));
  g_object_class_install_property (gobject_class, PROP_AMOUNT,
      g_param_spec_double ("amount", "Amount", "Strength of kernel=unsharp: out = in + amount "
          "x (in - gaussian blur of size and sigma); negative values blur", -2.0, 20.0,
          DEFAULT_AMOUNT, ctrl));
  g_object_class_install_property (gobject_class, PROP_COMBINE,
      g_param_spec_enum ("combine", "Combine", "What is output from the sums: the matrix's "
          "sum (none), or the gradient magnitude, |sum| or the larger magnitude of two "
          "matrices taken in one pass (the second: matrix-y, else the matrix's transpose), "
          "divided by |divisor|, plus bias. Runs on float4, sparse and separable (other "
          "methods fall back with a warning)", GST_TYPE_CL_CONVOLVE_COMBINE, DEFAULT_COMBINE,
          live));
  g_object_class_install_property (gobject_class, PROP_MATRIX_Y,
      g_param_spec_string ("matrix-y", "Matrix y", "The second matrix of combine=magnitude "
          "and max, in the matrix syntax (e.g. '-1; 0; 1' beside matrix='-1 0 1'); "
          "empty = the transpose of the kernel's matrix", NULL, live));
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device", "OpenCL device: empty = the first GPU, else the "
          "first CPU, else any device; 'gpu', 'cpu', 'accelerator', 'P:D' (platform:device "
          "indices as listed by clinfo -l) or a case-insensitive substring of the device or "
          "platform name (e.g. 'nvidia', 'portable'); or placed when the element starts on "
          "the device with the fewest clconvolve elements of the process: 'auto' (among the "
          "GPUs, else the CPUs), 'auto:gpu', 'auto:cpu' or 'auto:NAME' (a chain of elements "
          "stays on one device). Read when the element starts, refused while it runs",
          DEFAULT_DEVICE, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name", "The OpenCL device in use, as "
          "'device (platform)'; NULL while the element is stopped", NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_DEVICE_INDEX,
      g_param_spec_string ("device-index", "Device index", "The OpenCL device in use, as "
          "'P:D' (platform:device indices, what device= selects it by); NULL while the "
          "element is stopped", NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_PROFILING,
      g_param_spec_boolean ("profiling", "Profiling", "Time every upload, kernel and download "
          "with OpenCL profiling events (see stats); read when the element starts",
          DEFAULT_PROFILING, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", "Since the element started: frames, "
          "host-copies, input-path and output-path (how frames reach the device), "
          "programs-built and programs-from-cache (the device's programs compiled and loaded "
          "from the disk cache, see GST_CLCONVOLVE_CACHE_DIR), programs-held (the programs the "
          "device keeps: those in use and up to 16 idle ones), tunings and tunings-from-cache "
          "(method=auto choices this element timed or read from the disk, see autotune), "
          "variant (the kernel variant running), and with profiling=true the "
          "device time of upload-ns, kernel-ns, download-ns, busy-ns (any command running), "
          "overlap-ns (two or more at once) and span-ns (first start to last end)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_BANDS,
      g_param_spec_int ("bands", "Bands", "On a GPU (any device with its own memory): split each "
          "frame into this many horizontal bands whose upload, kernel and download overlap on "
          "three queues; 1 = one after the other; 0 = automatic: about 8 bands of at least 128 "
          "rows while the frame is the only one on the device, whole frames while others are "
          "(this element's, see max-inflight, or other elements' on the same device), whose "
          "stages then overlap with its own. A CPU device works on the frame in place and "
          "ignores it. Bands add no latency",
          0, CL_MAX_BANDS, DEFAULT_BANDS, live));
  g_object_class_install_property (gobject_class, PROP_MAX_INFLIGHT,
      g_param_spec_uint ("max-inflight", "Frames in flight", "Frames queued on the device at "
          "once. 1: each frame leaves complete before the next one comes. Above 1: frame n+1 "
          "is uploaded while frame n is convolved and downloaded (throughput on a GPU, where a "
          "frame's transfers otherwise wait for the host), and each frame leaves max-inflight "
          "- 1 frames later, a latency the element reports in the latency query (at the "
          "caps' frame rate). EOS, caps changes, segments, gaps and the drain query push the "
          "frames in flight first, in order; a flush drops them",
          1, MAX_INFLIGHT, DEFAULT_MAX_INFLIGHT, live));
  g_object_class_install_property (gobject_class, PROP_PLANES,
      g_param_spec_flags ("planes", "Planes", "Which planes or components are convolved; the "
          "others pass through unchanged. auto: luma (y) of YUV and gray formats, r+g+b of RGB "
          "(alpha and padding copied). y, u, v apply to YUV and gray formats (the gray plane is "
          "y), r, g, b, a to RGB ones. Chroma planes of subsampled formats are convolved at "
          "chroma resolution with the same coefficients",
          GST_TYPE_CL_CONVOLVE_PLANES, DEFAULT_PLANES, live));
  g_object_class_install_property (gobject_class, PROP_CONTEXT,
      g_param_spec_object ("context", "Context", "The OpenCL context in use (a GstClContext, "
          "whose cl-context and cl-device properties are the OpenCL handles), NULL while the "
          "element is stopped. Elements of a pipeline share one through the GstContext "
          "'" GST_CL_CONTEXT_TYPE "'; an application may give its own cl_context and "
          "cl_device_id in one (fields cl-context and cl-device, pointers)",
          GST_TYPE_CL_CONTEXT, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_PLANE_MATRICES,
      g_param_spec_string ("plane-matrices", "Plane matrices", "A matrix per component, "
          "in the matrix syntax, separated by '|', in the format's component order: Y|U|V|A "
          "for YUV and gray formats, R|G|B|A for RGB ones (\"|1 2 1; 2 4 2; 1 2 1\" keeps "
          "luma on the kernel and blurs U). An empty or missing entry runs the kernel's "
          "matrix; divisor and bias apply to each. Components a format filters together "
          "(R, G, B of packed RGB; U, V of NV12 and YUY2) run the first one's. The planes "
          "property still selects what is filtered; not with combine", NULL, live));
  g_object_class_install_property (gobject_class, PROP_ROI_X,
      g_param_spec_int ("roi-x", "Region x", "Left column of the region convolved (frame "
          "pixels; with roi-y, roi-width and roi-height): only its pixels are filtered, the "
          "rest of the frame passes unchanged, and its edges read the real neighbouring pixels. "
          "The region is clipped to the frame. All four 0: the whole frame (no region)",
          G_MININT, G_MAXINT, 0, ctrl));
  g_object_class_install_property (gobject_class, PROP_ROI_Y,
      g_param_spec_int ("roi-y", "Region y", "Top row of the region convolved (see roi-x)",
          G_MININT, G_MAXINT, 0, ctrl));
  g_object_class_install_property (gobject_class, PROP_ROI_WIDTH,
      g_param_spec_int ("roi-width", "Region width", "Width of the region convolved (see "
          "roi-x); 0: to the frame's right edge", 0, G_MAXINT, 0, ctrl));
  g_object_class_install_property (gobject_class, PROP_ROI_HEIGHT,
      g_param_spec_int ("roi-height", "Region height", "Height of the region convolved (see "
          "roi-x); 0: to the frame's bottom edge", 0, G_MAXINT, 0, ctrl));
  g_object_class_install_property (gobject_class, PROP_ROI_META,
      g_param_spec_boolean ("roi-meta", "Regions from meta", "Convolve the rectangles of each "
          "buffer's GstVideoRegionOfInterestMeta (those of roi-types) instead of roi-x/y/"
          "width/height; a buffer without one passes unchanged. Regions may overlap; each "
          "reads the input as it came", FALSE, live));
  g_object_class_install_property (gobject_class, PROP_ROI_TYPES,
      g_param_spec_string ("roi-types", "Region types", "roi-meta: the roi-type names "
          "whose rectangles are convolved, separated by commas (\"face,license-plate\"); "
          "empty: every type", NULL, live));
  g_object_class_install_property (gobject_class, PROP_AUTOTUNE,
      g_param_spec_boolean ("autotune", "Auto-tune", "method=auto: time the kernel variants "
          "(tiled, float4, vector blockings, separable) on the device the first time a device, "
          "format, frame size, matrix size, border and split rank are seen, and run the "
          "fastest. The choice is kept in $XDG_CACHE_HOME/clconvolve/tuning (GST_CLCONVOLVE_TUNE_DIR moves "
          "it; empty: this process only), so it is timed once per machine. false: fixed rules "
          "(tiled on GPUs, vector on CPUs, separable from size 9 / 7)",
          DEFAULT_AUTOTUNE, live));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "OpenCL convolution",
      "Filter/Effect/Video", "Convolves video frames with a square kernel on an OpenCL device "
      "(GPU, or CPU through PoCL)", "clconvolve developers");

  bt_class->start = GST_DEBUG_FUNCPTR (gst_cl_convolve_start);
  bt_class->query = GST_DEBUG_FUNCPTR (gst_cl_convolve_query);
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cl_convolve_set_context);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_cl_convolve_stop);
  bt_class->before_transform = GST_DEBUG_FUNCPTR (gst_cl_convolve_before_transform);
  bt_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_cl_convolve_propose_allocation);
  bt_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cl_convolve_decide_allocation);
  bt_class->transform_caps = GST_DEBUG_FUNCPTR (gst_cl_convolve_transform_caps);
  bt_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cl_convolve_fixate_caps);
  vf_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_convolve_set_info);
  /* set although transform below calls it: GstVideoFilter works in place without it */
  vf_class->transform_frame = GST_DEBUG_FUNCPTR (gst_cl_convolve_transform_frame);
  bt_class->transform_ip = GST_DEBUG_FUNCPTR (gst_cl_convolve_transform_ip);
  bt_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_cl_convolve_prepare_output_buffer);
  bt_class->transform = GST_DEBUG_FUNCPTR (gst_cl_convolve_transform);
  bt_class->generate_output = GST_DEBUG_FUNCPTR (gst_cl_convolve_generate_output);
  /* passthrough (the identity) leaves the buffer alone: no in-place pass */
  bt_class->transform_ip_on_passthrough = FALSE;
  bt_class->sink_event = GST_DEBUG_FUNCPTR (gst_cl_convolve_sink_event);

  gst_cl_enums_mark_plugin_api ();
}

static void
gst_cl_convolve_init (GstClConvolve * self)
{
  self->cur = g_new0 (Settings, 1);
  self->set = g_new0 (Settings, 1);
  self->identity_cookie = G_MAXUINT;
  self->set->kernel = DEFAULT_KERNEL;
  self->set->size = DEFAULT_SIZE;
  self->set->divisor = DEFAULT_DIVISOR;
  self->set->bias = DEFAULT_BIAS;
  self->set->angle = DEFAULT_ANGLE;
  self->set->sigma = DEFAULT_SIGMA;
  self->set->amount = DEFAULT_AMOUNT;
  self->set->combine = DEFAULT_COMBINE;
  self->set->border = DEFAULT_BORDER;
  self->set->method = DEFAULT_METHOD;
  self->device = g_strdup (DEFAULT_DEVICE);
  self->profiling = DEFAULT_PROFILING;
  self->bands = DEFAULT_BANDS;
  self->set->planes = DEFAULT_PLANES;
  self->set->autotune = DEFAULT_AUTOTUNE;
  self->slots = g_new0 (FrameSlot, MAX_INFLIGHT);
  self->max_inflight = DEFAULT_MAX_INFLIGHT;
  g_mutex_init (&self->stats_lock);
  gst_cl_stats_init (&self->stats);
}
