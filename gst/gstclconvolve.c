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
 * ## Example launch line
 * |[
 * gst-launch-1.0 videotestsrc ! clconvolve kernel=motionblur size=7 ! videoconvert ! autovideosink
 * gst-launch-1.0 v4l2src ! videoconvert ! clconvolve matrix="0,-1,0; -1,5,-1; 0,-1,0" ! videoconvert ! autovideosink
 * ]|
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclconvolve.h"
#include "gstclcontext.h"
#include "gstclbufferpool.h"
#include "gstclmemory.h"
#include "gstclstats.h"
#include "convkernel.h"

#include <stdlib.h>
#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_convolve_debug);
#define GST_CAT_DEFAULT gst_cl_convolve_debug

/* kernels/convolve.cl, embedded at build time (kernels/embed.py) */
extern const char gst_cl_source_convolve[];

/* Developer override: read the OpenCL source from this file instead of the embedded copy. */
#define SOURCE_ENV "GST_CLCONVOLVE_KERNEL_SOURCE"
/* Developer override: on a host-unified device (a CPU), still copy frames to device buffers and
 * back in bands on three queues, as on a GPU, so that path can be tested without one. */
#define DISCRETE_ENV "GST_CLCONVOLVE_DISCRETE"

#define MAX_BANDS 64
/* bands=0 on a discrete device: about 8 bands, none under this many rows */
#define AUTO_BANDS 8
#define AUTO_MIN_BAND_ROWS 128

#define NCOEF (CONV_MAX_SIZE * CONV_MAX_SIZE)

#define DEFAULT_KERNEL CONV_PRESET_GAUSSIAN
#define DEFAULT_SIZE 5
#define DEFAULT_DIVISOR 0.0
#define DEFAULT_BIAS 0.0
#define DEFAULT_BORDER GST_CL_CONVOLVE_BORDER_CLAMP
#define DEFAULT_METHOD GST_CL_CONVOLVE_METHOD_AUTO
#define DEFAULT_ANGLE 45.0
#define DEFAULT_SIGMA 0.0
#define DEFAULT_DEVICE ""
#define DEFAULT_PROFILING FALSE
#define DEFAULT_BANDS 0

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
  PROP_DEVICE,
  PROP_DEVICE_NAME,
  PROP_PROFILING,
  PROP_STATS,
  PROP_BANDS
};

/* How a frame's plane reaches the kernel and its result the output buffer. */
typedef enum
{
  PATH_NONE,
  PATH_IN_PLACE,                /* host-unified device: the kernel uses the pinned buffer itself */
  PATH_PINNED_DMA,              /* discrete device: DMA from or to pinned memory */
  PATH_STAGING_COPY,            /* one host memcpy through a pinned staging buffer */
  PATH_PAGEABLE_DMA             /* discrete device: DMA from or to ordinary (pageable) memory */
} MemPath;

static const gchar *const path_names[] = {
  "none", "in-place", "pinned-dma", "staging-copy", "pageable-dma"
};

static const gchar *const path_logs[] = {
  "none",
  "pinned memory of this device, used in place by the kernel (no copy)",
  "pinned memory of this device, moved by DMA (no host copy)",
  "not pinned memory of this device: one host copy per frame through a pinned staging buffer",
  "not pinned memory of this device: DMA from pageable memory (the driver copies it)"
};

/* What the coefficients and the program depend on: copied from the properties under the object
 * lock, used by the streaming thread without it. */
typedef struct
{
  ConvPreset kernel;
  gint size;
  gint custom_size;             /* side of the custom matrix, 0 when none was set */
  gdouble custom[NCOEF];
  gdouble divisor, bias, angle, sigma;
  GstClConvolveBorder border;
  GstClConvolveMethod method;
} Settings;

/* What self->kernel was built for: compared every frame, rebuilt only when it changes. */
typedef struct
{
  gint method, size, channels, border;
} KernelRequest;

struct _GstClConvolve
{
  GstVideoFilter parent;

  /* under the object lock */
  Settings set;
  guint cookie;                 /* bumped on every change of set */
  gchar *matrix_text;
  gchar *device;
  gchar *device_name;
  gboolean profiling;
  gint bands;

  /* under stats_lock: written by the streaming thread, read by the stats getter */
  GMutex stats_lock;
  GstClStats stats;
  guint64 host_copies;          /* planes the host copied (memcpy or pageable DMA) */
  MemPath path_in, path_out;    /* the last frame's */

  /* streaming thread (and start/stop) only */
  GstClContext *ctx;
  const gchar *source;
  gchar *source_override;
  cl_command_queue queue;       /* kernels (and everything on a host-unified device) */
  cl_command_queue up_queue, down_queue;        /* discrete device: transfers */
  gboolean profiling_on;        /* the queues record profiling events */
  gboolean discrete;            /* frames are copied to device memory and back */
  GstAllocator *allocator;      /* pinned memory: proposed upstream, staging */
  GstMemory *stage_in, *stage_out;      /* pinned staging for frames in other memory */
  cl_mem coef_mem, src_mem, dst_mem;    /* dst/src_mem: device copies (discrete only) */
  gsize src_bytes, dst_bytes;
  cl_kernel kernel;
  KernelRequest request;
  gsize local[2];
  Settings cur;                 /* the snapshot in use */
  guint cur_cookie;
  gboolean cur_valid;
  gint channels;                /* samples per pixel of plane 0 */
  guint passmask;               /* samples copied unchanged (alpha, padding) */
};

#define CAPS_FORMATS "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, GRAY8 }"
#define CL_CONVOLVE_CAPS GST_VIDEO_CAPS_MAKE (CAPS_FORMATS)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (CL_CONVOLVE_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (CL_CONVOLVE_CAPS));

#define gst_cl_convolve_parent_class parent_class
G_DEFINE_TYPE (GstClConvolve, gst_cl_convolve, GST_TYPE_VIDEO_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clconvolve, "clconvolve", GST_RANK_NONE, GST_TYPE_CL_CONVOLVE);

#define GST_TYPE_CL_CONVOLVE_KERNEL (gst_cl_convolve_kernel_get_type ())
static GType
gst_cl_convolve_kernel_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CONV_PRESET_IDENTITY, "Identity: 1 at the centre", "identity"},
    {CONV_PRESET_BOX, "Box: mean over size x size", "box"},
    {CONV_PRESET_GAUSSIAN, "Gaussian with the sigma property, normalised to 1", "gaussian"},
    {CONV_PRESET_SHARPEN, "Sharpen: centre 5, centre row and column -1/radius", "sharpen"},
    {CONV_PRESET_EMBOSS, "Emboss: diagonal gradient plus the centre", "emboss"},
    {CONV_PRESET_EDGE, "Edge: centre 8, every other cell -8/(size^2-1)", "edge"},
    {CONV_PRESET_SOBEL_X, "Sobel x: binomial smoothing x binomial derivative", "sobel-x"},
    {CONV_PRESET_SOBEL_Y, "Sobel y: the transpose of sobel-x", "sobel-y"},
    {CONV_PRESET_MOTIONBLUR, "Motion blur: anti-aliased line of length size at the angle "
          "property, normalised to 1", "motionblur"},
    {CONV_PRESET_CUSTOM, "Custom: the matrix property", "custom"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClConvolveKernel", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CL_CONVOLVE_BORDER (gst_cl_convolve_border_get_type ())
static GType
gst_cl_convolve_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_CONVOLVE_BORDER_CLAMP, "Repeat the edge pixel (aaa|abcd|ddd)", "clamp"},
    {GST_CL_CONVOLVE_BORDER_MIRROR, "Reflect without repeating the edge (dcb|abcd|cba)",
        "mirror"},
    {GST_CL_CONVOLVE_BORDER_WRAP, "Wrap around (bcd|abcd|abc)", "wrap"},
    {GST_CL_CONVOLVE_BORDER_CONSTANT, "Zeros outside the frame", "constant"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClConvolveBorder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define GST_TYPE_CL_CONVOLVE_METHOD (gst_cl_convolve_method_get_type ())
static GType
gst_cl_convolve_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_CONVOLVE_METHOD_AUTO, "Pick for the device and size (tiled where the device has "
          "on-chip local memory and the tile fits, else float4)", "auto"},
    {GST_CL_CONVOLVE_METHOD_TILED, "16x16 work-groups (8x8 where the device allows fewer than "
          "256 work-items) staging tile plus halo in local memory", "tiled"},
    {GST_CL_CONVOLVE_METHOD_FLOAT4, "One work-item per pixel from global memory, vector loads, "
          "__constant coefficients", "float4"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClConvolveMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

static const gchar *
enum_nick (GType type, gint value)
{
  GEnumClass *klass = g_type_class_ref (type);
  GEnumValue *v = g_enum_get_value (klass, value);
  const gchar *nick = v ? v->value_nick : "?";

  g_type_class_unref (klass);
  return nick;
}

/* ---------------------------------------------------------------------------------------------
 * Properties: setters change self->set under the object lock and bump the cookie; the streaming
 * thread picks the change up at its next frame. No OpenCL here. */

/* Stores a double property (GObject has already refused NaN and out-of-range values). A
 * controller syncs every frame: only a real change makes the streaming thread re-upload. */
static void
set_double (GstClConvolve * self, gdouble * field, const GValue * value)
{
  gdouble v = g_value_get_double (value);

  GST_OBJECT_LOCK (self);
  if (*field != v) {
    *field = v;
    self->cookie++;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
set_matrix (GstClConvolve * self, const gchar * text)
{
  gdouble *k = g_new (gdouble, NCOEF);
  gchar err[256];
  gint n = conv_matrix_parse (text, k, err, sizeof (err));
  gchar *formatted;

  if (n == 0) {
    g_warning ("%s: matrix refused: %s; keeping the previous kernel", GST_OBJECT_NAME (self),
        err);
    g_free (k);
    return;
  }
  formatted = conv_matrix_format (k, n);
  GST_OBJECT_LOCK (self);
  memcpy (self->set.custom, k, sizeof (gdouble) * n * n);
  self->set.custom_size = n;
  self->set.kernel = CONV_PRESET_CUSTOM;
  self->set.size = n;
  g_free (self->matrix_text);
  self->matrix_text = g_strdup (formatted);
  self->cookie++;
  GST_OBJECT_UNLOCK (self);
  free (formatted);
  g_free (k);
  g_object_notify (G_OBJECT (self), "kernel");
  g_object_notify (G_OBJECT (self), "size");
}

static void
set_size (GstClConvolve * self, gint v)
{
  gint old, custom;

  GST_OBJECT_LOCK (self);
  old = self->set.size;
  custom = self->set.kernel == CONV_PRESET_CUSTOM ? self->set.custom_size : 0;
  if (v % 2 == 1 && (custom == 0 || custom == v)) {
    if (v != old) {
      self->set.size = v;
      self->cookie++;
    }
    custom = -1;
  }
  GST_OBJECT_UNLOCK (self);

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
    case PROP_KERNEL:
      GST_OBJECT_LOCK (self);
      self->set.kernel = g_value_get_enum (value);
      if (self->set.kernel == CONV_PRESET_CUSTOM && self->set.custom_size &&
          self->set.size != self->set.custom_size) {
        self->set.size = self->set.custom_size;
        size_changed = TRUE;
      }
      self->cookie++;
      GST_OBJECT_UNLOCK (self);
      if (size_changed)
        g_object_notify (object, "size");
      break;
    case PROP_SIZE:
      set_size (self, g_value_get_int (value));
      break;
    case PROP_MATRIX:
      set_matrix (self, g_value_get_string (value));
      break;
    case PROP_DIVISOR:
      set_double (self, &self->set.divisor, value);
      break;
    case PROP_BIAS:
      set_double (self, &self->set.bias, value);
      break;
    case PROP_ANGLE:
      set_double (self, &self->set.angle, value);
      break;
    case PROP_SIGMA:
      set_double (self, &self->set.sigma, value);
      break;
    case PROP_BORDER:
      GST_OBJECT_LOCK (self);
      self->set.border = g_value_get_enum (value);
      self->cookie++;
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_METHOD:
      GST_OBJECT_LOCK (self);
      self->set.method = g_value_get_enum (value);
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
    case PROP_DEVICE:
      GST_OBJECT_LOCK (self);
      g_free (self->device);
      self->device = g_value_dup_string (value);
      if (!self->device)
        self->device = g_strdup (DEFAULT_DEVICE);
      GST_OBJECT_UNLOCK (self);
      break;
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

  g_mutex_lock (&self->stats_lock);
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
      "output-path", G_TYPE_STRING, path_names[self->path_out], NULL);
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
      g_value_set_enum (value, self->set.kernel);
      break;
    case PROP_SIZE:
      g_value_set_int (value, self->set.size);
      break;
    case PROP_MATRIX:
      g_value_set_string (value, self->matrix_text);
      break;
    case PROP_DIVISOR:
      g_value_set_double (value, self->set.divisor);
      break;
    case PROP_BIAS:
      g_value_set_double (value, self->set.bias);
      break;
    case PROP_ANGLE:
      g_value_set_double (value, self->set.angle);
      break;
    case PROP_SIGMA:
      g_value_set_double (value, self->set.sigma);
      break;
    case PROP_BORDER:
      g_value_set_enum (value, self->set.border);
      break;
    case PROP_METHOD:
      g_value_set_enum (value, self->set.method);
      break;
    case PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;
    case PROP_DEVICE_NAME:
      g_value_set_string (value, self->device_name);
      break;
    case PROP_PROFILING:
      g_value_set_boolean (value, self->profiling);
      break;
    case PROP_BANDS:
      g_value_set_int (value, self->bands);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---------------------------------------------------------------------------------------------
 * Streaming */

/* The device's float coefficients: the matrix already divided by the divisor. */
static void
compute_coefficients (const Settings * s, gfloat * out)
{
  gdouble k[NCOEF];
  gint n = s->size;
  gdouble divisor;

  if (s->kernel == CONV_PRESET_CUSTOM && s->custom_size) {
    n = s->custom_size;
    memcpy (k, s->custom, sizeof (gdouble) * n * n);
  } else {
    conv_preset_generate (s->kernel, n, s->sigma, s->angle, k);
  }
  divisor = s->divisor != 0.0 ? s->divisor : conv_auto_divisor (k, n);
  for (gint i = 0; i < n * n; i++)
    out[i] = (gfloat) (k[i] / divisor);
}

/* Method to run: an explicit choice is honoured when the device can run it; auto stages tiles in
 * local memory only where that memory is on-chip (a CPU's "local" memory is ordinary RAM). */
static GstClConvolveMethod
resolve_method (GstClConvolve * self, GstClConvolveMethod asked, gint size, gint tile)
{
  GstClContext *ctx = self->ctx;
  gsize side = tile + size - 1;
  gboolean fits = ctx->max_work_group_size >= (gsize) tile * tile &&
      side * side * self->channels + 256 <= ctx->local_mem_size;

  switch (asked) {
    case GST_CL_CONVOLVE_METHOD_TILED:
      if (fits)
        return GST_CL_CONVOLVE_METHOD_TILED;
      GST_WARNING_OBJECT (self, "method=tiled: a %dx%d tile with a %d-pixel halo does not fit "
          "in %" G_GSIZE_FORMAT " bytes of local memory; using float4", tile, tile, size / 2,
          ctx->local_mem_size);
      return GST_CL_CONVOLVE_METHOD_FLOAT4;
    case GST_CL_CONVOLVE_METHOD_FLOAT4:
      return GST_CL_CONVOLVE_METHOD_FLOAT4;
    case GST_CL_CONVOLVE_METHOD_AUTO:
    default:
      return fits && ctx->local_mem_dedicated ?
          GST_CL_CONVOLVE_METHOD_TILED : GST_CL_CONVOLVE_METHOD_FLOAT4;
  }
}

#define FLOW_FAILED(what, err) G_STMT_START { \
    GST_ELEMENT_ERROR (self, LIBRARY, FAILED, \
        ("OpenCL %s failed on %s: %s", what, self->ctx->device_name, \
            gst_cl_error_to_string (err)), (NULL)); \
} G_STMT_END

/* Makes self->kernel the kernel for the current settings and format, building its program on
 * first use (the context keeps programs; coefficients are data, so they never cause a build). */
static gboolean
ensure_kernel (GstClConvolve * self)
{
  const Settings *s = &self->cur;
  gint size = s->kernel == CONV_PRESET_CUSTOM && s->custom_size ? s->custom_size : s->size;
  gint tile = self->ctx->max_work_group_size >= 256 ? 16 : 8;
  KernelRequest request = { s->method, size, self->channels, s->border };
  GstClConvolveMethod method;
  gchar *options = NULL, *log = NULL;
  cl_kernel kernel = NULL;
  cl_int err;
  gsize wg = 0;

  if (self->kernel && !memcmp (&request, &self->request, sizeof (request)))
    return TRUE;

  method = resolve_method (self, s->method, size, tile);
  for (;;) {
    gboolean tiled = method == GST_CL_CONVOLVE_METHOD_TILED;
    const gchar *entry = tiled ? "convolve_tiled" : "convolve_direct";
    cl_program prog;

    g_free (options);
    options = tiled ?
        g_strdup_printf ("-DKSIZE=%d -DCHANNELS=%d -DBORDER=%d -DTILE_W=%d -DTILE_H=%d", size,
        self->channels, s->border, tile, tile) :
        g_strdup_printf ("-DKSIZE=%d -DCHANNELS=%d -DBORDER=%d", size, self->channels,
        s->border);
    prog = gst_cl_context_get_program (self->ctx, self->source, options, &err, &log);
    if (!prog) {
      GST_ELEMENT_ERROR (self, LIBRARY, INIT,
          ("Could not build the OpenCL convolution program on %s (%s).",
              self->ctx->device_name, gst_cl_error_to_string (err)),
          ("build options: %s\nbuild log:\n%s", options, log ? log : "(empty)"));
      goto fail;
    }
    kernel = clCreateKernel (prog, entry, &err);
    if (!kernel) {
      FLOW_FAILED ("clCreateKernel", err);
      goto fail;
    }
    if (clGetKernelWorkGroupInfo (kernel, self->ctx->device, CL_KERNEL_WORK_GROUP_SIZE,
            sizeof (wg), &wg, NULL) != CL_SUCCESS)
      wg = 1;
    if (!tiled || wg >= (gsize) tile * tile)
      break;
    /* the compiled kernel needs more resources than a tile's work-group may have */
    GST_WARNING_OBJECT (self, "tiled kernel allows %" G_GSIZE_FORMAT " work-items, needs %d; "
        "using float4", wg, tile * tile);
    clReleaseKernel (kernel);
    method = GST_CL_CONVOLVE_METHOD_FLOAT4;
  }

  /* the direct kernel runs any work-group shape: shrink it to what the compiled kernel allows */
  while (method != GST_CL_CONVOLVE_METHOD_TILED && tile > 1 && (gsize) tile * tile > wg)
    tile /= 2;
  if (self->kernel)
    clReleaseKernel (self->kernel);
  self->kernel = kernel;
  self->request = request;
  self->local[0] = self->local[1] = tile;
  GST_INFO_OBJECT (self, "method=%s: running %s (%s, work-group %dx%d) on %s",
      enum_nick (GST_TYPE_CL_CONVOLVE_METHOD, s->method),
      enum_nick (GST_TYPE_CL_CONVOLVE_METHOD, method), options, tile, tile,
      self->ctx->device_name);
  g_free (options);
  return TRUE;

fail:
  g_free (log);
  g_free (options);
  return FALSE;
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

/* A frame's plane as a command sees it: the OpenCL buffer and the plane's byte offset and pitch
 * in it, and the plane's host address (transfers and copies). */
typedef struct
{
  cl_mem mem;
  gint offset, pitch;
  guint8 *host;
} Plane;

static const gchar *const stage_names[GST_CL_N_STAGES] = { "upload", "kernel", "download" };

/* Plane 0 of frame as pinned memory of our device, if that is what holds it. */
static gboolean
frame_plane (GstClConvolve * self, GstVideoFrame * frame, Plane * p)
{
  GstMemory *mem;
  GstClMemory *m;
  guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, 0);
  gsize stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, 0);
  gsize extent = stride * (GST_VIDEO_FRAME_HEIGHT (frame) - 1) +
      (gsize) GST_VIDEO_FRAME_WIDTH (frame) * self->channels;

  p->host = data;
  p->pitch = stride;
  p->mem = NULL;
  p->offset = 0;
  if (gst_buffer_n_memory (frame->buffer) != 1)
    return FALSE;
  mem = gst_buffer_peek_memory (frame->buffer, 0);
  m = gst_cl_memory_get (mem, self->ctx);
  if (!m || data < m->host + mem->offset || data + extent > m->host + mem->offset + mem->size)
    return FALSE;
  p->mem = m->buffer;
  p->offset = data - m->host;
  return TRUE;
}

/* A tightly packed pinned staging plane of at least bytes. */
static gboolean
staging_plane (GstClConvolve * self, GstMemory ** stage, gsize bytes, gint row, Plane * p)
{
  GstClMemory *m;

  if (!*stage || (*stage)->size < bytes) {
    if (*stage)
      gst_memory_unref (*stage);
    *stage = gst_allocator_alloc (self->allocator, bytes, NULL);
    if (!*stage) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("Could not allocate %" G_GSIZE_FORMAT
              " bytes of pinned memory on %s.", bytes, self->ctx->device_name), (NULL));
      return FALSE;
    }
  }
  m = (GstClMemory *) * stage;
  p->mem = m->buffer;
  p->offset = (*stage)->offset;
  p->pitch = row;
  p->host = m->host + (*stage)->offset;
  return TRUE;
}

static void
copy_rows (guint8 * dst, gsize dst_pitch, const guint8 * src, gsize src_pitch, gsize row,
    gint rows)
{
  if (dst_pitch == row && src_pitch == row) {
    memcpy (dst, src, row * rows);
    return;
  }
  for (gint y = 0; y < rows; y++)
    memcpy (dst + y * dst_pitch, src + y * src_pitch, row);
}

/* Rows [y0, y0 + rows) between host (with its pitch) and a tightly packed device buffer. */
static cl_int
enqueue_rows (cl_command_queue q, gboolean upload, cl_mem mem, gsize row, gint y0, gint rows,
    const Plane * host, cl_uint n_wait, const cl_event * wait, cl_event * ev)
{
  const size_t buffer_origin[3] = { 0, y0, 0 };
  const size_t host_origin[3] = { 0, 0, 0 };
  const size_t region[3] = { row, rows, 1 };
  guint8 *ptr = host->host + (gsize) y0 * host->pitch;

  if ((gsize) host->pitch == row && upload)
    return clEnqueueWriteBuffer (q, mem, CL_FALSE, y0 * row, rows * row, ptr, n_wait, wait, ev);
  if ((gsize) host->pitch == row)
    return clEnqueueReadBuffer (q, mem, CL_FALSE, y0 * row, rows * row, ptr, n_wait, wait, ev);
  if (upload)
    return clEnqueueWriteBufferRect (q, mem, CL_FALSE, buffer_origin, host_origin, region, row,
        0, host->pitch, 0, ptr, n_wait, wait, ev);
  return clEnqueueReadBufferRect (q, mem, CL_FALSE, buffer_origin, host_origin, region, row, 0,
      host->pitch, 0, ptr, n_wait, wait, ev);
}

static cl_int
set_kernel_args (GstClConvolve * self, const Plane * src, const Plane * dst, gint w, gint h)
{
  gfloat bias = (gfloat) self->cur.bias;
  cl_int err;

  err = clSetKernelArg (self->kernel, 0, sizeof (cl_mem), &src->mem);
  err |= clSetKernelArg (self->kernel, 1, sizeof (gint), &src->offset);
  err |= clSetKernelArg (self->kernel, 2, sizeof (gint), &src->pitch);
  err |= clSetKernelArg (self->kernel, 3, sizeof (cl_mem), &dst->mem);
  err |= clSetKernelArg (self->kernel, 4, sizeof (gint), &dst->offset);
  err |= clSetKernelArg (self->kernel, 5, sizeof (gint), &dst->pitch);
  err |= clSetKernelArg (self->kernel, 6, sizeof (gint), &w);
  err |= clSetKernelArg (self->kernel, 7, sizeof (gint), &h);
  err |= clSetKernelArg (self->kernel, 8, sizeof (cl_mem), &self->coef_mem);
  err |= clSetKernelArg (self->kernel, 9, sizeof (gfloat), &bias);
  err |= clSetKernelArg (self->kernel, 10, sizeof (guint), &self->passmask);
  return err;
}

/* The kernel over rows [y0, y0 + rows) of a w-wide plane (a band, or the whole frame). */
static cl_int
enqueue_kernel (GstClConvolve * self, gint w, gint y0, gint rows, cl_uint n_wait,
    const cl_event * wait, cl_event * ev)
{
  const size_t offset[2] = { 0, y0 };
  const size_t global[2] = { GST_ROUND_UP_N ((gsize) w, self->local[0]),
    GST_ROUND_UP_N ((gsize) rows, self->local[1])
  };

  return clEnqueueNDRangeKernel (self->queue, self->kernel, 2, offset, global, self->local,
      n_wait, wait, ev);
}

/* Rows per band: a multiple of the work-group height, so that bands never share a work-group. */
static gint
band_rows (GstClConvolve * self, gint h, gint bands)
{
  gint ly = self->local[1];
  gint rows = bands > 0 ? (h + bands - 1) / bands :
      MAX ((h + AUTO_BANDS - 1) / AUTO_BANDS, AUTO_MIN_BAND_ROWS);

  return MAX (GST_ROUND_UP_N (rows, ly), ly);
}

/* Host-unified device: one kernel reads and writes pinned host memory in place. */
static cl_int
run_unified (GstClConvolve * self, GstVideoFrame * out, const Plane * src, const Plane * dst,
    gint w, gint h, cl_event * ev, const gchar ** what)
{
  cl_int err;

  *what = "clSetKernelArg";
  err = set_kernel_args (self, src, dst, w, h);
  if (err != CL_SUCCESS)
    return err;
  *what = "kernel launch";
  err = enqueue_kernel (self, w, 0, h, 0, NULL, ev);
  if (err != CL_SUCCESS)
    return err;
  *what = "clFinish";
  err = clFinish (self->queue);
  if (err != CL_SUCCESS)
    return err;
  if (dst->host != GST_VIDEO_FRAME_PLANE_DATA (out, 0))
    copy_rows (GST_VIDEO_FRAME_PLANE_DATA (out, 0), GST_VIDEO_FRAME_PLANE_STRIDE (out, 0),
        dst->host, dst->pitch, (gsize) w * self->channels, h);
  return CL_SUCCESS;
}

/* Enqueues the kernel and the download of every band not yet enqueued whose input rows are all
 * on the device once band b is: a band's kernel needs the upload of the last band its halo
 * reaches (all of them when wrap reaches across the frame); its download needs its kernel. */
static cl_int
enqueue_ready_bands (GstClConvolve * self, const Plane * dst, gint w, gint h, gint rows,
    gint nb, gint b, gint * next, cl_event ev[][MAX_BANDS], const gchar ** what)
{
  gsize row = (gsize) w * self->channels;
  gint radius = self->request.size / 2;
  cl_event *up = ev[GST_CL_STAGE_UPLOAD], *k = ev[GST_CL_STAGE_KERNEL];
  cl_int err = CL_SUCCESS;
  gint first = *next;

  for (; *next < nb; (*next)++) {
    gint y0 = *next * rows, n = MIN (rows, h - y0), last = y0 + n - 1 + radius;
    gint need = last >= h - 1 || (self->request.border == GST_CL_CONVOLVE_BORDER_WRAP &&
        y0 < radius) ? nb - 1 : last / rows;

    if (need > b)
      break;
    *what = "kernel launch";
    err = enqueue_kernel (self, w, y0, n, 1, &up[b], &k[*next]);
    if (err != CL_SUCCESS)
      return err;
    *what = "frame download";
    err = enqueue_rows (self->down_queue, FALSE, self->dst_mem, row, y0, n, dst, 1, &k[*next],
        &ev[GST_CL_STAGE_DOWNLOAD][*next]);
    if (err != CL_SUCCESS)
      return err;
  }
  if (*next > first) {
    clFlush (self->queue);
    clFlush (self->down_queue);
  }
  return err;
}

/* Discrete device: the frame goes up, through the kernel and down in horizontal bands, each
 * stage on its own in-order queue, so that band b+1 uploads while band b computes and band b-1
 * downloads; events order the queues. Each band's kernel and download are queued as soon as
 * its input rows are (queuing every upload first measured 20% slower on an H200). in_stage:
 * each band of in is copied to src->host (pinned staging) just before its upload. Returns when
 * the last download is done, so every frame leaves complete and in order. */
static cl_int
run_discrete (GstClConvolve * self, const Plane * src, const Plane * dst, GstVideoFrame * in,
    gint w, gint h, gint bands, gboolean in_stage, cl_event ev[][MAX_BANDS], gint * n_bands,
    const gchar ** what)
{
  gsize row = (gsize) w * self->channels;
  gint rows = band_rows (self, h, bands);
  gint nb = (h + rows - 1) / rows, next = 0;
  Plane dev = { self->src_mem, 0, row, NULL }, dev_out = { self->dst_mem, 0, row, NULL };
  cl_int err;

  *n_bands = nb;
  *what = "clSetKernelArg";
  err = set_kernel_args (self, &dev, &dev_out, w, h);
  if (err != CL_SUCCESS)
    return err;

  for (gint b = 0; b < nb; b++) {
    gint y0 = b * rows, n = MIN (rows, h - y0);

    if (in_stage)
      copy_rows (src->host + y0 * row, row, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (in, 0) +
          (gsize) y0 * GST_VIDEO_FRAME_PLANE_STRIDE (in, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), row, n);
    *what = "frame upload";
    err = enqueue_rows (self->up_queue, TRUE, self->src_mem, row, y0, n, src, 0, NULL,
        &ev[GST_CL_STAGE_UPLOAD][b]);
    if (err != CL_SUCCESS)
      return err;
    clFlush (self->up_queue);
    err = enqueue_ready_bands (self, dst, w, h, rows, nb, b, &next, ev, what);
    if (err != CL_SUCCESS)
      return err;
  }
  *what = "frame download";
  return clWaitForEvents (1, &ev[GST_CL_STAGE_DOWNLOAD][nb - 1]);
}

static void
finish_all (GstClConvolve * self)
{
  if (self->up_queue)
    clFinish (self->up_queue);
  clFinish (self->queue);
  if (self->down_queue)
    clFinish (self->down_queue);
}

static void
log_path (GstClConvolve * self, const gchar * side, MemPath old, MemPath path)
{
  if (old != path)
    GST_INFO_OBJECT (self, "%s: %s", side, path_logs[path]);
}

/* Counts the frame, its host copies and paths, and adds its profiling events to the stats. */
static void
record_frame (GstClConvolve * self, cl_event ev[][MAX_BANDS], gint nb, guint copies,
    MemPath path_in, MemPath path_out)
{
  log_path (self, "input", self->path_in, path_in);
  log_path (self, "output", self->path_out, path_out);

  g_mutex_lock (&self->stats_lock);
  for (gint i = 0; self->profiling_on && i < GST_CL_N_STAGES; i++) {
    for (gint b = 0; b < nb; b++) {
      cl_ulong t0 = 0, t1 = 0;

      if (!ev[i][b] || clGetEventProfilingInfo (ev[i][b], CL_PROFILING_COMMAND_START,
              sizeof (t0), &t0, NULL) != CL_SUCCESS ||
          clGetEventProfilingInfo (ev[i][b], CL_PROFILING_COMMAND_END, sizeof (t1), &t1,
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
  self->host_copies += copies;
  self->path_in = path_in;
  self->path_out = path_out;
  g_mutex_unlock (&self->stats_lock);
}

static void
release_events (cl_event ev[][MAX_BANDS])
{
  for (gint i = 0; i < GST_CL_N_STAGES; i++)
    for (gint b = 0; b < MAX_BANDS; b++)
      g_clear_pointer (&ev[i][b], clReleaseEvent);
}

static GstFlowReturn
gst_cl_convolve_transform_frame (GstVideoFilter * vf, GstVideoFrame * in, GstVideoFrame * out)
{
  GstClConvolve *self = GST_CL_CONVOLVE (vf);
  gint w = GST_VIDEO_FRAME_WIDTH (in), h = GST_VIDEO_FRAME_HEIGHT (in);
  gint row = w * self->channels, bands, nb = 1;
  gsize bytes = (gsize) row * h;
  gboolean changed = FALSE, in_pinned, out_pinned;
  cl_event ev[GST_CL_N_STAGES][MAX_BANDS] = { {NULL} };
  MemPath path_in, path_out;
  guint copies = 0;
  Plane src, dst;
  const gchar *what = "";
  cl_int err;

  GST_OBJECT_LOCK (self);
  if (!self->cur_valid || self->cur_cookie != self->cookie) {
    self->cur = self->set;
    self->cur_cookie = self->cookie;
    self->cur_valid = changed = TRUE;
  }
  bands = self->bands;
  GST_OBJECT_UNLOCK (self);

  if (!ensure_kernel (self))
    return GST_FLOW_ERROR;

  if (changed) {
    gfloat coef[NCOEF];

    compute_coefficients (&self->cur, coef);
    what = "coefficient upload";
    err = clEnqueueWriteBuffer (self->queue, self->coef_mem, CL_TRUE, 0, sizeof (coef), coef,
        0, NULL, NULL);
    if (err != CL_SUCCESS)
      goto cl_failed;
  }

  in_pinned = frame_plane (self, in, &src);
  out_pinned = frame_plane (self, out, &dst);

  if (!self->discrete) {
    path_in = in_pinned ? PATH_IN_PLACE : PATH_STAGING_COPY;
    path_out = out_pinned ? PATH_IN_PLACE : PATH_STAGING_COPY;
    if (!in_pinned) {
      if (!staging_plane (self, &self->stage_in, bytes, row, &src))
        return GST_FLOW_ERROR;
      copy_rows (src.host, row, GST_VIDEO_FRAME_PLANE_DATA (in, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (in, 0), row, h);
      copies++;
    }
    if (!out_pinned) {
      if (!staging_plane (self, &self->stage_out, bytes, row, &dst))
        return GST_FLOW_ERROR;
      copies++;
    }
    err = run_unified (self, out, &src, &dst, w, h, &ev[GST_CL_STAGE_KERNEL][0], &what);
  } else {
    path_in = in_pinned ? PATH_PINNED_DMA : PATH_STAGING_COPY;
    path_out = out_pinned ? PATH_PINNED_DMA : PATH_PAGEABLE_DMA;
    if (!ensure_buffer (self, &self->src_mem, &self->src_bytes, bytes, CL_MEM_READ_ONLY) ||
        !ensure_buffer (self, &self->dst_mem, &self->dst_bytes, bytes, CL_MEM_WRITE_ONLY))
      return GST_FLOW_ERROR;
    if (!in_pinned) {
      if (!staging_plane (self, &self->stage_in, bytes, row, &src))
        return GST_FLOW_ERROR;
      copies++;
    }
    copies += !out_pinned;
    err = run_discrete (self, &src, &dst, in, w, h, bands, !in_pinned, ev, &nb, &what);
  }
  if (err != CL_SUCCESS)
    goto cl_failed;

  record_frame (self, ev, nb, copies, path_in, path_out);
  release_events (ev);
  return GST_FLOW_OK;

  /* ERRORS */
cl_failed:
  {
    /* transfers may still use the frames: let them finish before the frames are unmapped */
    finish_all (self);
    release_events (ev);
    FLOW_FAILED (what, err);
    return GST_FLOW_ERROR;
  }
}

static gboolean
gst_cl_convolve_set_info (GstVideoFilter * vf, GstCaps * incaps, GstVideoInfo * in_info,
    GstCaps * outcaps, GstVideoInfo * out_info)
{
  GstClConvolve *self = GST_CL_CONVOLVE (vf);
  const GstVideoFormatInfo *finfo = in_info->finfo;

  self->channels = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0);
  /* the kernels index a plane with 32-bit offsets */
  if ((guint64) GST_VIDEO_INFO_WIDTH (in_info) * self->channels *
      GST_VIDEO_INFO_HEIGHT (in_info) > G_MAXINT32) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Frames of %dx%d %s are larger than 2 GiB, "
            "which clconvolve does not handle; scale them down first.",
            GST_VIDEO_INFO_WIDTH (in_info), GST_VIDEO_INFO_HEIGHT (in_info),
            GST_VIDEO_FORMAT_INFO_NAME (finfo)), (NULL));
    return FALSE;
  }
  self->passmask = 0;
  if (self->channels == 4) {
    guint colour = 0;

    /* every byte that is not R, G or B (alpha or padding) is copied */
    for (gint c = 0; c < 3; c++)
      colour |= 1u << GST_VIDEO_FORMAT_INFO_POFFSET (finfo, c);
    self->passmask = 0xfu & ~colour;
  }
  GST_DEBUG_OBJECT (self, "format %s: %d samples per pixel, passmask 0x%x",
      GST_VIDEO_FORMAT_INFO_NAME (finfo), self->channels, self->passmask);
  return TRUE;
}

/* Offers upstream a pool of pinned memory of our device (and the allocator behind it), so that
 * sources, decoders and appsrc write frames where the device reads them without a host copy. */
static gboolean
gst_cl_convolve_propose_allocation (GstBaseTransform * bt, GstQuery * decide_query,
    GstQuery * query)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  GstAllocationParams params;
  GstBufferPool *pool;
  GstStructure *config;
  GstVideoInfo info;
  GstCaps *caps;
  gboolean need_pool;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gst_video_info_from_caps (&info, caps) || !self->allocator)
    return FALSE;

  gst_allocation_params_init (&params);
  gst_query_add_allocation_param (query, self->allocator, &params);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  if (!need_pool)
    return TRUE;

  pool = gst_cl_buffer_pool_new (self->allocator);
  if (!pool)
    return FALSE;
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, info.size, 0, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (self, "could not configure the pinned pool for %" GST_PTR_FORMAT, caps);
    gst_object_unref (pool);
    return FALSE;
  }
  gst_query_add_allocation_pool (query, pool, info.size, 0, 0);
  gst_object_unref (pool);
  return TRUE;
}

/* Output buffers come from a pinned pool of our device: downstream's if it is one (a second
 * clconvolve on the same device), else ours. The base classes then configure it. */
static gboolean
gst_cl_convolve_decide_allocation (GstBaseTransform * bt, GstQuery * query)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0;
  GstVideoInfo info;
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps) || !self->ctx)
    return FALSE;

  if (gst_query_get_n_allocation_pools (query) > 0) {
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
    if (pool && gst_cl_buffer_pool_get_context (pool) != self->ctx)
      gst_clear_object (&pool);
  }
  if (!pool) {
    pool = gst_cl_buffer_pool_new (self->allocator);
    if (!pool)
      return FALSE;
  }
  size = MAX (size, info.size);
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  GST_DEBUG_OBJECT (self, "output pool %" GST_PTR_FORMAT, pool);
  gst_object_unref (pool);

  return GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (bt, query);
}

static void
release_cl (GstClConvolve * self)
{
  g_clear_pointer (&self->kernel, clReleaseKernel);
  g_clear_pointer (&self->src_mem, clReleaseMemObject);
  g_clear_pointer (&self->dst_mem, clReleaseMemObject);
  g_clear_pointer (&self->coef_mem, clReleaseMemObject);
  g_clear_pointer (&self->stage_in, gst_memory_unref);
  g_clear_pointer (&self->stage_out, gst_memory_unref);
  gst_clear_object (&self->allocator);
  g_clear_pointer (&self->queue, clReleaseCommandQueue);
  g_clear_pointer (&self->up_queue, clReleaseCommandQueue);
  g_clear_pointer (&self->down_queue, clReleaseCommandQueue);
  g_clear_pointer (&self->ctx, gst_cl_context_release);
  g_clear_pointer (&self->source_override, g_free);
  self->src_bytes = self->dst_bytes = 0;
  self->cur_valid = FALSE;
}

static void
set_device_name (GstClConvolve * self, const gchar * name)
{
  GST_OBJECT_LOCK (self);
  g_free (self->device_name);
  self->device_name = g_strdup (name);
  GST_OBJECT_UNLOCK (self);
  g_object_notify (G_OBJECT (self), "device-name");
}

static gboolean
gst_cl_convolve_start (GstBaseTransform * bt)
{
  GstClConvolve *self = GST_CL_CONVOLVE (bt);
  const gchar *override = g_getenv (SOURCE_ENV);
  GError *error = NULL;
  gchar *spec;
  cl_int err;

  GST_OBJECT_LOCK (self);
  spec = g_strdup (self->device);
  GST_OBJECT_UNLOCK (self);

  set_device_name (self, NULL);
  self->ctx = gst_cl_context_acquire (spec, &error);
  if (!self->ctx) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", error->message),
        ("device=\"%s\"", spec));
    g_clear_error (&error);
    g_free (spec);
    return FALSE;
  }
  g_free (spec);

  self->source = gst_cl_source_convolve;
  if (override && *override) {
    if (!g_file_get_contents (override, &self->source_override, NULL, &error)) {
      GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not read %s=%s: %s", SOURCE_ENV,
              override, error->message), (NULL));
      g_clear_error (&error);
      goto fail;
    }
    GST_WARNING_OBJECT (self, "using OpenCL source from %s (developer override)", override);
    self->source = self->source_override;
  }

  GST_OBJECT_LOCK (self);
  self->profiling_on = self->profiling;
  GST_OBJECT_UNLOCK (self);
  g_mutex_lock (&self->stats_lock);
  gst_cl_stats_init (&self->stats);
  self->host_copies = 0;
  self->path_in = self->path_out = PATH_NONE;
  g_mutex_unlock (&self->stats_lock);

  self->discrete = !self->ctx->host_unified;
  if (!self->discrete && g_getenv (DISCRETE_ENV) && atoi (g_getenv (DISCRETE_ENV))) {
    GST_WARNING_OBJECT (self, "%s set: copying frames to device buffers (developer override)",
        DISCRETE_ENV);
    self->discrete = TRUE;
  }
  for (gint i = 0; i < (self->discrete ? 3 : 1); i++) {
    cl_command_queue *q[3] = { &self->queue, &self->up_queue, &self->down_queue };

    *q[i] = clCreateCommandQueue (self->ctx->context, self->ctx->device,
        self->profiling_on ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
    if (!*q[i]) {
      FLOW_FAILED ("clCreateCommandQueue", err);
      goto fail;
    }
  }
  self->allocator = gst_cl_allocator_new (self->ctx);
  if (!self->allocator) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Could not set up pinned memory on %s.",
            self->ctx->device_name), (NULL));
    goto fail;
  }
  self->coef_mem = clCreateBuffer (self->ctx->context, CL_MEM_READ_ONLY,
      sizeof (gfloat) * NCOEF, NULL, &err);
  if (!self->coef_mem) {
    FLOW_FAILED ("clCreateBuffer", err);
    goto fail;
  }

  set_device_name (self, self->ctx->device_name);
  GST_INFO_OBJECT (self, "using OpenCL device %s", self->ctx->device_name);
  return TRUE;

fail:
  release_cl (self);
  return FALSE;
}

static gboolean
gst_cl_convolve_stop (GstBaseTransform * bt)
{
  release_cl (GST_CL_CONVOLVE (bt));
  set_device_name (GST_CL_CONVOLVE (bt), NULL);
  return TRUE;
}

static void
gst_cl_convolve_finalize (GObject * object)
{
  GstClConvolve *self = GST_CL_CONVOLVE (object);

  release_cl (self);
  g_free (self->matrix_text);
  g_free (self->device);
  g_free (self->device_name);
  gst_cl_stats_clear (&self->stats);
  g_mutex_clear (&self->stats_lock);
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

  gobject_class->set_property = gst_cl_convolve_set_property;
  gobject_class->get_property = gst_cl_convolve_get_property;
  gobject_class->finalize = gst_cl_convolve_finalize;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_enum ("kernel", "Kernel", "Coefficient preset, generated for any odd size "
          "(formulas in docs/kernels.md); 'custom' uses the matrix property",
          GST_TYPE_CL_CONVOLVE_KERNEL, DEFAULT_KERNEL, live));
  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size", "Side of the square kernel in pixels, odd; an even "
          "value is refused with a warning and the previous size stays", 1, CONV_MAX_SIZE,
          DEFAULT_SIZE, live));
  g_object_class_install_property (gobject_class, PROP_MATRIX,
      g_param_spec_string ("matrix", "Matrix", "Custom coefficients, row-major, separated by "
          "commas, spaces or semicolons, an odd square count (n x n, n <= 63); setting it "
          "switches kernel to custom and size to n; a malformed matrix is refused with a "
          "warning", NULL, live));
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
          "0 = OpenCV's rule 0.3*((size-1)*0.5-1)+0.8", 0.0, 1000.0, DEFAULT_SIGMA, ctrl));
  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device", "OpenCL device: empty = the first GPU, else the "
          "first CPU, else any device; 'gpu', 'cpu', 'accelerator', 'P:D' (platform:device "
          "indices as listed by clinfo -l) or a case-insensitive substring of the device or "
          "platform name (e.g. 'nvidia', 'portable'); read when the element starts",
          DEFAULT_DEVICE, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name", "The OpenCL device in use, as "
          "'device (platform)'; NULL while the element is stopped", NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_PROFILING,
      g_param_spec_boolean ("profiling", "Profiling", "Time every upload, kernel and download "
          "with OpenCL profiling events (see stats); read when the element starts",
          DEFAULT_PROFILING, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics", "Since the element started: frames, and with "
          "profiling=true the device time of upload-ns, kernel-ns, download-ns, busy-ns (any command "
          "running), overlap-ns (two or more at once) and span-ns (first start to last end)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_BANDS,
      g_param_spec_int ("bands", "Bands", "On a GPU (any device with its own memory): split each "
          "frame into this many horizontal bands whose upload, kernel and download overlap on "
          "three queues; 1 = one after the other; 0 = automatic (about 8 bands of at least 128 "
          "rows). A CPU device works on the frame in place and ignores it. Frames still leave "
          "one at a time, complete and in order: no latency is added",
          0, MAX_BANDS, DEFAULT_BANDS, live));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "OpenCL convolution",
      "Filter/Effect/Video", "Convolves video frames with a square kernel on an OpenCL device "
      "(GPU, or CPU through PoCL)", "clconvolve developers");

  bt_class->start = GST_DEBUG_FUNCPTR (gst_cl_convolve_start);
  bt_class->stop = GST_DEBUG_FUNCPTR (gst_cl_convolve_stop);
  bt_class->before_transform = GST_DEBUG_FUNCPTR (gst_cl_convolve_before_transform);
  bt_class->propose_allocation = GST_DEBUG_FUNCPTR (gst_cl_convolve_propose_allocation);
  bt_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_cl_convolve_decide_allocation);
  vf_class->set_info = GST_DEBUG_FUNCPTR (gst_cl_convolve_set_info);
  vf_class->transform_frame = GST_DEBUG_FUNCPTR (gst_cl_convolve_transform_frame);

  gst_type_mark_as_plugin_api (GST_TYPE_CL_CONVOLVE_KERNEL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_CONVOLVE_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_CONVOLVE_METHOD, 0);
}

static void
gst_cl_convolve_init (GstClConvolve * self)
{
  self->set.kernel = DEFAULT_KERNEL;
  self->set.size = DEFAULT_SIZE;
  self->set.divisor = DEFAULT_DIVISOR;
  self->set.bias = DEFAULT_BIAS;
  self->set.angle = DEFAULT_ANGLE;
  self->set.sigma = DEFAULT_SIGMA;
  self->set.border = DEFAULT_BORDER;
  self->set.method = DEFAULT_METHOD;
  self->device = g_strdup (DEFAULT_DEVICE);
  self->profiling = DEFAULT_PROFILING;
  self->bands = DEFAULT_BANDS;
  g_mutex_init (&self->stats_lock);
  gst_cl_stats_init (&self->stats);
}
