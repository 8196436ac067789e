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
 * element maps them. Other neighbours, a sink that takes any caps included, get system memory
 * and 8-bit formats first.
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
#include "clsettings.h"
#include "clkernels.h"
#include "clsizes.h"
#include "gstcltuner.h"
#include "gstclmemory.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_convolve_debug);
#define GST_CAT_DEFAULT gst_cl_convolve_debug

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
  PROP_PLANES,
  PROP_AUTOTUNE,
  PROP_ROI_X,
  PROP_ROI_Y,
  PROP_ROI_WIDTH,
  PROP_ROI_HEIGHT,
  PROP_ROI_META,
  PROP_ROI_TYPES,
  PROP_PLANE_MATRICES,
  PROP_ROI_SCALE,
  PROP_ROI_MARGIN,
  PROP_ROI_MARGIN_SCALE
};

struct _GstClConvolve
{
  GstClBaseFilter parent;

  /* under the object lock */
  ClSettings *set;              /* on the heap, as cur: six matrices of doubles */
  guint cookie;                 /* bumped on every change of set */
  gchar *matrix_text;
  gchar *matrix_y_text;
  gchar *plane_matrices_text;
  ClRect roi;                   /* roi-x, -y, -width, -height (width, height 0: to the edge) */
  gboolean roi_meta;
  gchar *roi_types;             /* the property's text */
  ClRegionRules rules;          /* roi-types parsed, roi-scale, roi-margin(-scale) */
  /* the settings make the identity (as of identity_cookie; cookie never starts there) */
  gboolean identity;
  guint identity_cookie;

  /* under the base class's stats_lock */
  ClKernelStats kstats;

  /* streaming thread (and start/stop) only */
  ClKernels *kernels;           /* settings to kernels */
  ClSizes *sizes;               /* ... for regions of other sides (roi-scale) */
  ClSettings *cur;              /* the snapshot in use */
  guint cur_cookie;
  gboolean cur_valid;
};

/* 8-bit formats first: what a flexible neighbour (videoconvert, videotestsrc) then picks */
#define CAPS_FORMATS_8 "{ RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, RGB, BGR, GRAY8, " \
  "I420, YV12, Y42B, Y444, NV12, NV21, NV16, NV24, YUY2, UYVY, AYUV, VUYA, GBR, GBRA }"
#define CAPS_FORMATS_DEEP "{ GRAY16_LE, GRAY16_BE, P010_10LE, P012_LE, P016_LE, I420_10LE, " \
  "I420_12LE, I422_10LE, I422_12LE, Y444_10LE, Y444_12LE, Y444_16LE, RGBA64_LE }"
/* system memory first; memory:CLBuffer where a neighbour asks for it (GstClBaseFilter's
 * fixation), so OpenCL neighbours on the same device keep frames on it */
#define CL_CONVOLVE_CAPS \
  GST_VIDEO_CAPS_MAKE (CAPS_FORMATS_8) "; " GST_VIDEO_CAPS_MAKE (CAPS_FORMATS_DEEP) "; " \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CL_BUFFER, CAPS_FORMATS_8) "; " \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (GST_CAPS_FEATURE_MEMORY_CL_BUFFER, CAPS_FORMATS_DEEP)

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (CL_CONVOLVE_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (CL_CONVOLVE_CAPS));

#define gst_cl_convolve_parent_class parent_class
G_DEFINE_TYPE (GstClConvolve, gst_cl_convolve, GST_TYPE_CL_BASE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (clconvolve, "clconvolve", GST_RANK_NONE, GST_TYPE_CL_CONVOLVE);

/* ---------------------------------------------------------------------------------------------
 * Properties: setters change self->set under the object lock and bump the cookie; the streaming
 * thread picks the change up at its next frame. No OpenCL here. */

/* What a warning about a refused value calls the value and the one kept: "size 3", "kernel=box"
 * (a string property: its name alone, and "its previous value"). */
static gchar *
describe_value (GParamSpec * pspec, const GValue * value)
{
  gchar *v, *text;

  if (G_VALUE_HOLDS_STRING (value))
    return NULL;
  v = G_VALUE_HOLDS_ENUM (value) ? g_strdup (gst_cl_enum_nick (G_VALUE_TYPE (value),
          g_value_get_enum (value))) : g_strdup_value_contents (value);
  text = g_strdup_printf (G_VALUE_HOLDS_INT (value) ? "%s %s" : "%s=%s", pspec->name, v);
  g_free (v);
  return text;
}

/* Applies one of the convolution's settings under the object lock (no OpenCL: the streaming
 * thread picks the change up at its next frame); a value whose coefficients would be unusable
 * is refused with a warning that names the problem, and the previous one stays. */
static void
set_setting (GstClConvolve * self, GParamSpec * pspec, const GValue * value)
{
  gchar err[256] = "", *text = NULL, **keep = NULL;
  gboolean ok = TRUE, changed = TRUE, size_changed = FALSE;
  ClSettings *s;

#define SET_DOUBLE(field) G_STMT_START { \
    changed = s->field != g_value_get_double (value); \
    ok = cl_settings_set_double (s, &s->field, g_value_get_double (value), err, 256); \
} G_STMT_END

  GST_OBJECT_LOCK (self);
  s = self->set;
  switch (pspec->param_id) {
    case PROP_KERNEL:
      ok = cl_settings_set_kernel (s, g_value_get_enum (value), &size_changed, err, 256);
      break;
    case PROP_SIZE:
      ok = cl_settings_set_size (s, g_value_get_int (value), err, 256);
      break;
    case PROP_DIVISOR:
      SET_DOUBLE (divisor);
      break;
    case PROP_BIAS:
      SET_DOUBLE (bias);
      break;
    case PROP_ANGLE:
      SET_DOUBLE (angle);
      break;
    case PROP_SIGMA:
      SET_DOUBLE (sigma);
      break;
    case PROP_AMOUNT:
      SET_DOUBLE (amount);
      break;
    case PROP_COMBINE:
      ok = cl_settings_set_combine (s, g_value_get_enum (value), err, 256);
      break;
    case PROP_MATRIX:
      ok = cl_settings_set_matrix (s, g_value_get_string (value), &text, err, 256);
      keep = &self->matrix_text;
      size_changed = ok;
      break;
    case PROP_MATRIX_Y:
      ok = cl_settings_set_matrix_y (s, g_value_get_string (value), &text, err, 256);
      keep = &self->matrix_y_text;
      break;
    case PROP_PLANE_MATRICES:
      ok = cl_settings_set_plane_matrices (s, g_value_get_string (value), &text, err, 256);
      keep = &self->plane_matrices_text;
      break;
    case PROP_BORDER:
      s->border = g_value_get_enum (value);
      break;
    case PROP_METHOD:
      s->method = g_value_get_enum (value);
      break;
    case PROP_AUTOTUNE:
      s->autotune = g_value_get_boolean (value);
      break;
    case PROP_PLANES:
      s->planes = g_value_get_flags (value);
      break;
  }
#undef SET_DOUBLE
  if (ok && keep) {
    g_free (*keep);
    *keep = text;
  }
  /* a controller syncs every frame: only a change makes the streaming thread re-upload */
  if (ok && changed)
    self->cookie++;
  GST_OBJECT_UNLOCK (self);
  if (!ok) {
    gchar *what = describe_value (pspec, value), *kept;
    GValue cur = G_VALUE_INIT;

    g_value_init (&cur, G_PARAM_SPEC_VALUE_TYPE (pspec));
    g_object_get_property (G_OBJECT (self), pspec->name, &cur);
    kept = describe_value (pspec, &cur);
    g_warning ("%s: %s refused: %s; keeping %s", GST_OBJECT_NAME (self),
        what ? what : pspec->name, err, kept ? kept : "the previous value");
    g_value_unset (&cur);
    g_free (kept);
    g_free (what);
  }
  if (pspec->param_id == PROP_MATRIX && ok)
    g_object_notify (G_OBJECT (self), "kernel");
  if (size_changed)
    g_object_notify (G_OBJECT (self), "size");
}

static void
gst_cl_convolve_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstClConvolve *self = GST_CL_CONVOLVE (object);

  switch (prop_id) {
    case PROP_KERNEL:
    case PROP_SIZE:
    case PROP_MATRIX:
    case PROP_DIVISOR:
    case PROP_BIAS:
    case PROP_ANGLE:
    case PROP_SIGMA:
    case PROP_AMOUNT:
    case PROP_COMBINE:
    case PROP_MATRIX_Y:
    case PROP_BORDER:
    case PROP_METHOD:
    case PROP_AUTOTUNE:
    case PROP_PLANES:
    case PROP_PLANE_MATRICES:
      set_setting (self, pspec, value);
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
    case PROP_ROI_META:
      GST_OBJECT_LOCK (self);
      self->roi_meta = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ROI_SCALE:
    case PROP_ROI_MARGIN_SCALE:
      GST_OBJECT_LOCK (self);
      *(prop_id == PROP_ROI_SCALE ? &self->rules.scale : &self->rules.margin_scale) =
          g_value_get_double (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ROI_MARGIN:
      GST_OBJECT_LOCK (self);
      self->rules.margin = g_value_get_int (value);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_ROI_TYPES:{
      const gchar *text = g_value_get_string (value);
      gchar **names;
      gdouble *scales;

      /* as a refused setting is told (set_setting) */
      if (!cl_region_types_parse (text, &names, &scales))
        g_warning ("%s: roi-types \"%s\": an entry without a name or with a scale that is not "
            "a number from 0 to 10 is left out%s", GST_OBJECT_NAME (self), text,
            names ? "" : "; every type is convolved");
      GST_OBJECT_LOCK (self);
      g_free (self->roi_types);
      self->roi_types = g_strdup (text);
      cl_region_rules_clear (&self->rules);
      self->rules.types = names;
      self->rules.type_scale = scales;
      GST_OBJECT_UNLOCK (self);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

/* The kernels' side of the stats (GstClBaseFilter's add_stats, under its stats_lock). */
static void
gst_cl_convolve_add_stats (GstClBaseFilter * filter, GstStructure * st)
{
  const ClKernelStats *k = &GST_CL_CONVOLVE (filter)->kstats;
  gchar variant[64] = "none";

  if (k->variant.method)
    cl_variant_text (&k->variant, variant, sizeof (variant));
  gst_structure_set (st, "programs-built", G_TYPE_UINT, k->programs_built,
      "programs-from-cache", G_TYPE_UINT, k->programs_loaded,
      "programs-held", G_TYPE_UINT, k->programs_held,
      "tunings", G_TYPE_UINT, k->tunings,
      "tunings-from-cache", G_TYPE_UINT, k->tunings_loaded,
      "jobs-pending", G_TYPE_UINT, k->jobs_pending,
      "variant", G_TYPE_STRING, variant, NULL);
}

static void
gst_cl_convolve_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstClConvolve *self = GST_CL_CONVOLVE (object);

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
    case PROP_AUTOTUNE:
      g_value_set_boolean (value, self->set->autotune);
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
    case PROP_ROI_SCALE:
      g_value_set_double (value, self->rules.scale);
      break;
    case PROP_ROI_MARGIN:
      g_value_set_int (value, self->rules.margin);
      break;
    case PROP_ROI_MARGIN_SCALE:
      g_value_set_double (value, self->rules.margin_scale);
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
 * Frames: ClFrames maps, checks, queues and waits for them; this side makes the settings
 * current and plans each frame's layout and kernels (prepare). */

/* Makes the settings' snapshot current (uploading new coefficients) and plans info's layout
 * into *L with its kernels and buffers ready (GstClBaseFilter's prepare): nothing is built
 * unless a setting changed. */
static gboolean
gst_cl_convolve_prepare (GstClBaseFilter * filter, const GstVideoInfo * info, gboolean fields,
    gint size, ClLayout * L, ClFrameRun * run)
{
  GstClConvolve *self = GST_CL_CONVOLVE (filter);
  gboolean changed = FALSE;

  GST_OBJECT_LOCK (self);
  if (!self->cur_valid || self->cur_cookie != self->cookie) {
    *self->cur = *self->set;
    self->cur_cookie = self->cookie;
    self->cur_valid = changed = TRUE;
  }
  GST_OBJECT_UNLOCK (self);

  if (changed && !cl_kernels_set_coefficients (self->kernels, self->cur)) {
    /* the next frame tries again */
    self->cur_valid = FALSE;
    return FALSE;
  }
  /* regions with a side of their own (roi-scale) */
  if (size)
    return cl_sizes_prepare (self->sizes, self->cur, self->cur_cookie, size, info, fields, L,
        run);
  cl_layout_plan (info, self->cur->planes, fields, L);
  if (!cl_kernels_prepare (self->kernels, L))
    return FALSE;
  *run = cl_kernels_frame_run (self->kernels, L);
  return TRUE;
}

/* The kernels' side of the device: made at start, released at stop. */
static gboolean
gst_cl_convolve_open (GstClBaseFilter * filter)
{
  GstClConvolve *self = GST_CL_CONVOLVE (filter);
  GstCaps *formats = gst_static_caps_get (&sink_template.static_caps);

  g_mutex_lock (&filter->stats_lock);
  self->kstats.tunings = self->kstats.tunings_loaded = 0;
  memset (&self->kstats.variant, 0, sizeof (self->kstats.variant));
  g_mutex_unlock (&filter->stats_lock);
  self->kernels = cl_kernels_new (GST_ELEMENT (self), filter->ctx,
      cl_frames_queues (filter->frames), &filter->o, filter->discrete, formats, &self->kstats,
      &filter->stats_lock);
  self->sizes = cl_sizes_new (GST_ELEMENT (self), filter->ctx,
      cl_frames_queues (filter->frames), &filter->o, filter->discrete, formats, &self->kstats,
      &filter->stats_lock);
  gst_caps_unref (formats);
  return self->kernels != NULL;
}

static void
gst_cl_convolve_close (GstClBaseFilter * filter)
{
  GstClConvolve *self = GST_CL_CONVOLVE (filter);

  g_clear_pointer (&self->sizes, cl_sizes_free);
  g_clear_pointer (&self->kernels, cl_kernels_free);
  self->cur_valid = FALSE;
}

/* ---------------------------------------------------------------------------------------------
 * Regions of interest (roi-* properties, roi-meta): the base class filters them in place. */

/* Whether frames are filtered in regions. */
static gboolean
gst_cl_convolve_regions_on (GstClBaseFilter * filter)
{
  GstClConvolve *self = GST_CL_CONVOLVE (filter);
  gboolean on;

  GST_OBJECT_LOCK (self);
  on = self->roi_meta || self->roi.x || self->roi.y || self->roi.width || self->roi.height;
  GST_OBJECT_UNLOCK (self);
  return on;
}

/* The regions to filter on buf (a frame of width x height) into rects: the properties'
 * rectangle, or buf's GstVideoRegionOfInterestMeta of the roi-types. Returns how many. */
static gint
gst_cl_convolve_collect_regions (GstClBaseFilter * filter, GstBuffer * buf, gint width,
    gint height, ClRect * rects)
{
  GstClConvolve *self = GST_CL_CONVOLVE (filter);
  gboolean dropped = FALSE;
  gint n = 0;

  GST_OBJECT_LOCK (self);
  if (!self->roi_meta) {
    ClRect r = self->roi;

    /* 0: from x (the frame's edge for any x left of it) to the frame's edge */
    if (r.width == 0) {
      r.x = MAX (r.x, 0);
      r.width = MAX (width - r.x, 0);
    }
    if (r.height == 0) {
      r.y = MAX (r.y, 0);
      r.height = MAX (height - r.y, 0);
    }
    cl_region_rules_apply (&self->rules, NULL, FALSE, &r);
    rects[n++] = r;
  } else {
    /* a preset made at any size (not custom) takes each region's own */
    gboolean sized = self->set->kernel != CONV_PRESET_CUSTOM;
    gpointer state = NULL;
    GstMeta *m;

    while ((m = gst_buffer_iterate_meta_filtered (buf, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
      GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) m;
      ClRect r = { MIN (roi->x, G_MAXINT), MIN (roi->y, G_MAXINT), MIN (roi->w, G_MAXINT),
        MIN (roi->h, G_MAXINT), 0
      };

      if (!cl_region_rules_apply (&self->rules, g_quark_to_string (roi->roi_type), sized, &r))
        continue;
      if (n == CL_MAX_REGIONS) {
        dropped = TRUE;
        break;
      }
      rects[n++] = r;
    }
  }
  GST_OBJECT_UNLOCK (self);
  if (dropped)
    GST_WARNING_OBJECT (self, "more than %d regions on a frame: the first %d filtered",
        CL_MAX_REGIONS, CL_MAX_REGIONS);
  return n;
}

static gboolean
gst_cl_convolve_is_identity (GstClBaseFilter * filter)
{
  GstClConvolve *self = GST_CL_CONVOLVE (filter);
  gboolean identity;

  GST_OBJECT_LOCK (self);
  if (self->identity_cookie != self->cookie) {
    self->identity = cl_settings_identity (self->set);
    self->identity_cookie = self->cookie;
  }
  identity = self->identity;
  GST_OBJECT_UNLOCK (self);
  return identity;
}

static void
gst_cl_convolve_finalize (GObject * object)
{
  GstClConvolve *self = GST_CL_CONVOLVE (object);

  g_free (self->matrix_text);
  g_free (self->matrix_y_text);
  g_free (self->plane_matrices_text);
  g_free (self->roi_types);
  cl_region_rules_clear (&self->rules);
  g_free (self->cur);
  g_free (self->set);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* The settings' properties: what the kernels compute and how. Each blurb is one line for
 * gst-inspect; the details are in docs/properties.md. */
static void
install_settings_properties (GObjectClass * gobject_class)
{
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  const GParamFlags live = rw | GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags ctrl = live | GST_PARAM_CONTROLLABLE;

  g_object_class_install_property (gobject_class, PROP_KERNEL,
      g_param_spec_enum ("kernel", "Kernel", "Coefficient preset generated for the current "
          "size, or custom for the matrix property (formulas in docs/kernels.md)",
          GST_TYPE_CL_CONVOLVE_KERNEL, CL_SETTINGS_DEFAULT_KERNEL, live));
  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size", "Side of the square kernel in pixels, odd", 1,
          CONV_MAX_SIZE, CL_SETTINGS_DEFAULT_SIZE, live));
  g_object_class_install_property (gobject_class, PROP_DIVISOR,
      g_param_spec_double ("divisor", "Divisor", "Divisor of the weighted sum, 0 for the sum "
          "of the coefficients (1 where they sum to 0)",
          -G_MAXDOUBLE, G_MAXDOUBLE, CL_SETTINGS_DEFAULT_DIVISOR, ctrl));
  g_object_class_install_property (gobject_class, PROP_BIAS,
      g_param_spec_double ("bias", "Bias", "Offset added after dividing, in 8-bit units "
          "(128 centres signed results)", -1e6, 1e6, CL_SETTINGS_DEFAULT_BIAS, ctrl));
  g_object_class_install_property (gobject_class, PROP_BORDER,
      g_param_spec_enum ("border", "Border", "How pixels outside the frame are made up",
          GST_TYPE_CL_CONVOLVE_BORDER, CL_SETTINGS_DEFAULT_BORDER, live));
  g_object_class_install_property (gobject_class, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "OpenCL kernel variant, each giving the same "
          "output within 1 LSB", GST_TYPE_CL_CONVOLVE_METHOD, CL_SETTINGS_DEFAULT_METHOD, live));
  g_object_class_install_property (gobject_class, PROP_ANGLE,
      g_param_spec_double ("angle", "Angle", "Direction of the motionblur line in degrees, "
          "counter-clockwise from +x", -360.0, 360.0, CL_SETTINGS_DEFAULT_ANGLE, ctrl));
  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma", "Standard deviation of the gaussian in pixels, "
          "0 to derive it from size", 0.0, 1000.0, CL_SETTINGS_DEFAULT_SIGMA, ctrl));
  g_object_class_install_property (gobject_class, PROP_AMOUNT,
      g_param_spec_double ("amount", "Amount", "Strength of kernel=unsharp, negative values "
          "blur", -2.0, 20.0, CL_SETTINGS_DEFAULT_AMOUNT, ctrl));
  g_object_class_install_property (gobject_class, PROP_PLANES,
      g_param_spec_flags ("planes", "Planes", "Planes or components to convolve, the others "
          "pass through unchanged", GST_TYPE_CL_CONVOLVE_PLANES, CL_SETTINGS_DEFAULT_PLANES,
          live));
  g_object_class_install_property (gobject_class, PROP_AUTOTUNE,
      g_param_spec_boolean ("autotune", "Auto-tune", "Let method=auto time the kernel variants "
          "once per machine and run the fastest, instead of fixed rules",
          CL_SETTINGS_DEFAULT_AUTOTUNE, live));
}

/* The custom matrices' properties, and how two matrices combine. */
static void
install_matrix_properties (GObjectClass * gobject_class)
{
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  g_object_class_install_property (gobject_class, PROP_MATRIX,
      g_param_spec_string ("matrix", "Matrix", "Custom coefficients, row-major, rows ended by "
          "';' (syntax in docs/kernels.md); sets kernel to custom", NULL, live));
  g_object_class_install_property (gobject_class, PROP_COMBINE,
      g_param_spec_enum ("combine", "Combine", "Output the matrix's sum, its absolute value, "
          "or its magnitude or maximum with matrix-y's sum", GST_TYPE_CL_CONVOLVE_COMBINE,
          CL_SETTINGS_DEFAULT_COMBINE, live));
  g_object_class_install_property (gobject_class, PROP_MATRIX_Y,
      g_param_spec_string ("matrix-y", "Matrix y", "Second matrix of combine=magnitude and "
          "max, empty for the transpose of the kernel's matrix", NULL, live));
  g_object_class_install_property (gobject_class, PROP_PLANE_MATRICES,
      g_param_spec_string ("plane-matrices", "Plane matrices", "One matrix per component in "
          "the format's order, separated by '|' (see docs/properties.md)", NULL, live));
}

/* The regions' properties: where the kernels run. */
static void
install_region_properties (GObjectClass * gobject_class)
{
  const GParamFlags live = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags ctrl = live | GST_PARAM_CONTROLLABLE;

  g_object_class_install_property (gobject_class, PROP_ROI_X,
      g_param_spec_int ("roi-x", "Region x", "Left column of the region to convolve, in frame "
          "pixels; all four roi-* at 0 for the whole frame", G_MININT, G_MAXINT, 0, ctrl));
  g_object_class_install_property (gobject_class, PROP_ROI_Y,
      g_param_spec_int ("roi-y", "Region y", "Top row of the region to convolve, in frame "
          "pixels", G_MININT, G_MAXINT, 0, ctrl));
  g_object_class_install_property (gobject_class, PROP_ROI_WIDTH,
      g_param_spec_int ("roi-width", "Region width", "Width of the region to convolve, 0 to "
          "reach the frame's right edge", 0, G_MAXINT, 0, ctrl));
  g_object_class_install_property (gobject_class, PROP_ROI_HEIGHT,
      g_param_spec_int ("roi-height", "Region height", "Height of the region to convolve, 0 "
          "to reach the frame's bottom edge", 0, G_MAXINT, 0, ctrl));
  g_object_class_install_property (gobject_class, PROP_ROI_META,
      g_param_spec_boolean ("roi-meta", "Regions from meta", "Convolve the rectangles of each "
          "buffer's region of interest metas instead of the roi-* region", FALSE, live));
  g_object_class_install_property (gobject_class, PROP_ROI_TYPES,
      g_param_spec_string ("roi-types", "Region types", "Comma-separated roi-type names that "
          "roi-meta convolves, each with =scale for its own roi-scale; empty for every type",
          NULL, live));
  g_object_class_install_property (gobject_class, PROP_ROI_SCALE,
      g_param_spec_double ("roi-scale", "Region kernel scale", "Kernel size of each roi-meta "
          "region: this times its shorter side (odd, 3-63), 0 for size", 0.0, 10.0, 0.0,
          live));
  g_object_class_install_property (gobject_class, PROP_ROI_MARGIN,
      g_param_spec_int ("roi-margin", "Region margin", "Pixels added on every side of each "
          "region before it is convolved", 0, 65535, 0, live));
  g_object_class_install_property (gobject_class, PROP_ROI_MARGIN_SCALE,
      g_param_spec_double ("roi-margin-scale", "Region margin scale", "Fraction of each "
          "region's width (height) added on its left and right (top and bottom)", 0.0, 10.0,
          0.0, live));
}

static void
gst_cl_convolve_class_init (GstClConvolveClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstClBaseFilterClass *filter_class = GST_CL_BASE_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_cl_convolve_debug, "clconvolve", 0, "OpenCL convolution");
  cl_kernels_init_debug ();
  gst_cl_tuner_init ();

  gobject_class->set_property = gst_cl_convolve_set_property;
  gobject_class->get_property = gst_cl_convolve_get_property;
  gobject_class->finalize = gst_cl_convolve_finalize;
  install_settings_properties (gobject_class);
  install_matrix_properties (gobject_class);
  install_region_properties (gobject_class);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "OpenCL convolution",
      "Filter/Effect/Video", "Convolves video frames with a square kernel on an OpenCL device "
      "(GPU, or CPU through PoCL)", "clconvolve developers");

  filter_class->open = GST_DEBUG_FUNCPTR (gst_cl_convolve_open);
  filter_class->close = GST_DEBUG_FUNCPTR (gst_cl_convolve_close);
  filter_class->prepare = GST_DEBUG_FUNCPTR (gst_cl_convolve_prepare);
  filter_class->is_identity = GST_DEBUG_FUNCPTR (gst_cl_convolve_is_identity);
  filter_class->regions_on = GST_DEBUG_FUNCPTR (gst_cl_convolve_regions_on);
  filter_class->collect_regions = GST_DEBUG_FUNCPTR (gst_cl_convolve_collect_regions);
  filter_class->add_stats = GST_DEBUG_FUNCPTR (gst_cl_convolve_add_stats);

  gst_cl_enums_mark_plugin_api ();
}

static void
gst_cl_convolve_init (GstClConvolve * self)
{
  self->cur = cl_settings_new ();
  self->set = cl_settings_new ();
  self->identity_cookie = G_MAXUINT;
}
