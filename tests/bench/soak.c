/* clconvolve-soak: RSS and program count over minutes of random live changes
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Runs N pipelines
 *   videotestsrc is-live=false pattern=ball ! video/x-raw,format=F,width=W,height=H,
 *   framerate=30/1 ! clconvolve name=c ! video/x-raw ! fakesink sync=false
 * and, while they play, changes clconvolve's settings at random (seeded) every --change-ms.
 * Every --interval seconds it prints one line (and a JSON line to --out): RSS, VmHWM, the
 * device context's programs (held, built, from the disk cache), frames, frames/s, changes and
 * distinct settings. With --pool N the changes go between N settings drawn at the start (an
 * application that moves between a few presets), so that after they are all visited no kernel
 * is new. At the end a summary compares RSS after the warm-up with its maximum and
 * last value, and programs-held with its bound (in use + idle). A benchmark: exits 0 unless a
 * pipeline failed (error on a bus, or it did not start).
 *
 *   GST_PLUGIN_PATH_1_0=$PWD/build/gst build/tests/bench/clconvolve-soak --seconds 600 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#define IDLE_PROGRAMS_DEFAULT 16        /* GST_CL_CONTEXT_MAX_IDLE_PROGRAMS */
/* Programs an element can have in use per pixel shape (clkernels.c): its specialised kernel's
 * and its two generic kernels' (dense and separable); + 1 per element while a change swaps its
 * specialised kernel (the old one is given back once the new one is made); + 1 per context: the
 * worker's job, from its build to its warm-up launch. */
#define IN_USE_PER_SHAPE 3
#define MAX_SHAPES 2            /* CL_MAX_SHAPES: a format's planes have at most two shapes */

typedef struct
{
  gdouble seconds, interval, warmup;
  gint change_ms, pipelines, width, height;
  guint32 seed;
  gchar *format, *formats, *out, *res;
  gdouble format_period;
  gint pool;
  gboolean no_disk_cache, malloc_trim;
} Options;

static Options opt;

/* The settings a change draws; the tuple is hashed to count distinct settings. */
typedef struct
{
  gint kernel;                  /* index in kernel_nicks; -1: custom matrix */
  gint size;
  gint border, method;
  gboolean autotune;
  gdouble angle, sigma, divisor, bias;
  gchar planes[16];
  gchar *matrix;
  gint format;                  /* index in the format list */
} Settings;

typedef struct
{
  GstElement *pipeline, *conv, *capsfilter;
  Settings s;
  gboolean playing;
} Soak;

typedef struct
{
  gdouble t, rss_mb, hwm_mb;
  gdouble anon_mb;              /* RssAnon: RSS less the pages of mapped files (library code) */
  guint held, built;            /* programs held, built + loaded */
  guint kernel_libs;            /* kernel libraries mapped (read_kernel_libs) */
  gdouble kernel_libs_mb;       /* their resident pages */
} Sample;

static const gchar *kernel_nicks[] = { "identity", "box", "gaussian", "sharpen", "emboss",
  "edge", "sobel-x", "sobel-y", "motionblur"
};

static const gchar *border_nicks[] = { "clamp", "mirror", "wrap", "constant" };
static const gchar *method_nicks[] = { "auto", "tiled", "float4", "separable", "vector" };
static const gdouble sigmas[] = { 0, 0, 0, 0.5, 0.8, 1, 1.5, 2, 3, 5 };
static const gdouble divisors[] = { 1, 2, 4, 9, 16, -2, 0.5 };
static const gdouble biases[] = { 16, 64, 128, -32 };

#define N_OF(a) ((gint) G_N_ELEMENTS (a))

static Soak *soaks;
static gchar **formats;
static gint n_formats;
static GRand *rng;
static GMainLoop *loop;
static GHashTable *seen;        /* 64-bit hashes of the settings tuples */
static Settings *pool;          /* --pool: the settings changes go between */
static FILE *out;
static gint64 t0, next_report_us, next_format_us;
static guint64 changes, last_frames;
static gdouble last_t;
static gdouble max_set_ms;      /* longest time one change took to apply (property sets) */
static guint held_max, held_bound, idle_max, warnings;
static GArray *samples;
static gint exit_code;
static gchar *failure;

/* ------------------------------------------------------------------ helpers */

/* glibc's heap in MB: in use (allocated and not freed, mmapped chunks included) and free but
 * kept in its arenas; NAN where mallinfo2 is missing. RSS above the first is retained heap or
 * memory not from malloc (code, stacks, driver mappings). */
static void
read_heap (gdouble * used, gdouble * kept)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  struct mallinfo2 mi = mallinfo2 ();

  *used = (mi.uordblks + mi.hblkhd) / 1048576.0;
  *kept = mi.fordblks / 1048576.0;
#else
  *used = *kept = NAN;
#endif
}

/* VmRSS, VmHWM and RssAnon of this process in MB */
static void
read_memory (gdouble * rss, gdouble * hwm, gdouble * anon)
{
  gchar *text = NULL, *p;

  *rss = *hwm = *anon = NAN;
  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return;
  if ((p = strstr (text, "VmRSS:")))
    *rss = g_ascii_strtod (p + 6, NULL) / 1024.0;
  if ((p = strstr (text, "VmHWM:")))
    *hwm = g_ascii_strtod (p + 6, NULL) / 1024.0;
  if ((p = strstr (text, "RssAnon:")))
    *anon = g_ascii_strtod (p + 8, NULL) / 1024.0;
  g_free (text);
}

/* The shared objects mapped into this process whose file name does not start with "lib": on
 * PoCL, the kernel code it generated (one file per kernel and work-group size, named after the
 * kernel), which it does not unmap when the program is released. Counts them and adds up their
 * resident pages (smaps); 0 where /proc is missing. */
static guint
read_kernel_libs (gdouble * rss_mb)
{
  gchar *text = NULL, **lines;
  GHashTable *paths;
  gboolean counting = FALSE;
  guint64 kb = 0;
  guint n;

  *rss_mb = 0;
  if (!g_file_get_contents ("/proc/self/smaps", &text, NULL, NULL))
    return 0;
  paths = g_hash_table_new (g_str_hash, g_str_equal);
  lines = g_strsplit (text, "\n", -1);
  for (gchar ** l = lines; *l; l++) {
    gchar *path;

    if (g_str_has_prefix (*l, "Rss:")) {
      if (counting)
        kb += g_ascii_strtoull (*l + 4, NULL, 10);
      continue;
    }
    /* a mapping's header: "start-end perms offset dev inode [path]" */
    if (!g_ascii_isxdigit ((*l)[0]) || !strchr (*l, '-') || !strchr (*l, ' ')
        || strchr (*l, '-') > strchr (*l, ' '))
      continue;
    path = strchr (*l, '/');
    counting = path && g_str_has_suffix (path, ".so")
        && !g_str_has_prefix (strrchr (path, '/') + 1, "lib");
    if (counting)
      g_hash_table_add (paths, path);
  }
  n = g_hash_table_size (paths);
  g_hash_table_destroy (paths);
  g_strfreev (lines);
  g_free (text);
  *rss_mb = kb / 1024.0;
  return n;
}

static gdouble
elapsed_s (void)
{
  return (g_get_monotonic_time () - t0) / 1e6;
}

static gint
pick (gint n)
{
  return g_rand_int_range (rng, 0, n);
}

static gboolean
chance (gdouble p)
{
  return g_rand_double (rng) < p;
}

/* FNV-1a, 64 bits */
static guint64
hash64 (const gchar * s)
{
  guint64 h = 14695981039346656037ull;

  for (; *s; s++)
    h = (h ^ (guchar) * s) * 1099511628211ull;
  return h;
}

static gchar *
settings_text (const Settings * s)
{
  return g_strdup_printf ("%s %s %d %s %s %d %g %g %g %g %s", formats[s->format],
      s->kernel < 0 ? s->matrix : kernel_nicks[s->kernel], s->size, border_nicks[s->border],
      method_nicks[s->method], s->autotune, s->angle, s->sigma, s->divisor, s->bias, s->planes);
}

static void
remember_settings (const Settings * s)
{
  gchar *text = settings_text (s);
  guint64 h = hash64 (text);

  if (!g_hash_table_contains (seen, &h))
    g_hash_table_add (seen, g_memdup2 (&h, sizeof (h)));
  g_free (text);
}

/* ------------------------------------------------------------------ random settings */

static void
draw_planes (Settings * s)
{
  const GstVideoFormatInfo *info =
      gst_video_format_get_info (gst_video_format_from_string (formats[s->format]));
  const gchar *names;
  GString *str;
  guint mask;
  gint n;

  if (chance (0.8) || !info) {
    strcpy (s->planes, "auto");
    return;
  }
  if (GST_VIDEO_FORMAT_INFO_IS_RGB (info))
    names = GST_VIDEO_FORMAT_INFO_HAS_ALPHA (info) ? "rgba" : "rgb";
  else if (GST_VIDEO_FORMAT_INFO_IS_GRAY (info))
    names = "y";
  else
    names = "yuv";
  n = strlen (names);
  mask = g_rand_int_range (rng, 1, 1 << n);
  str = g_string_new (NULL);
  for (gint i = 0; i < n; i++)
    if (mask & (1u << i))
      g_string_append_printf (str, "%s%c", str->len ? "+" : "", names[i]);
  g_strlcpy (s->planes, str->str, sizeof (s->planes));
  g_string_free (str, TRUE);
}

static gint
draw_size (void)
{
  return chance (0.85) ? 1 + 2 * pick (8) : 17 + 2 * pick (8);
}

/* A custom matrix of side 3..9, small integers */
static void
draw_matrix (Settings * s)
{
  gint n = 3 + 2 * pick (4);
  GString *str = g_string_new (NULL);

  for (gint y = 0; y < n; y++)
    for (gint x = 0; x < n; x++)
      g_string_append_printf (str, "%d%s", g_rand_int_range (rng, -3, 6),
          x < n - 1 ? "," : y < n - 1 ? "; " : "");
  g_free (s->matrix);
  s->matrix = g_string_free (str, FALSE);
  s->kernel = -1;
  s->size = n;
}

static void
draw_kernel (Settings * s)
{
  if (chance (0.1)) {
    draw_matrix (s);
    return;
  }
  s->kernel = pick (N_OF (kernel_nicks));
  g_clear_pointer (&s->matrix, g_free);
  if (chance (0.5))
    s->size = draw_size ();
}

/* Changes one to three settings of s at random */
static void
draw_change (Settings * s)
{
  gint n = 1 + pick (3);

  for (gint i = 0; i < n; i++) {
    switch (pick (10)) {
      case 0:
        draw_kernel (s);
        break;
      case 1:
        if (s->kernel < 0)      /* a custom matrix fixes the size: back to a preset */
          draw_kernel (s);
        s->size = draw_size ();
        break;
      case 2:
        s->border = pick (N_OF (border_nicks));
        break;
      case 3:
        s->method = pick (N_OF (method_nicks));
        break;
      case 4:
        s->autotune = chance (0.5);
        break;
      case 5:
        s->angle = 15 * g_rand_int_range (rng, -12, 13);
        break;
      case 6:
        s->sigma = sigmas[pick (N_OF (sigmas))];
        break;
      case 7:
        s->divisor = chance (0.8) ? 0 : divisors[pick (N_OF (divisors))];
        break;
      case 8:
        s->bias = chance (0.6) ? 0 : biases[pick (N_OF (biases))];
        break;
      case 9:
        draw_planes (s);
        break;
    }
  }
}

/* Sets the properties that differ between the element's settings o and s */
static void
apply_settings (GstElement * c, const Settings * o, const Settings * s)
{
  GObject *obj = G_OBJECT (c);

  if (s->kernel < 0) {
    if (o->kernel >= 0 || strcmp (o->matrix, s->matrix))
      g_object_set (c, "matrix", s->matrix, NULL);
  } else {
    if (o->kernel != s->kernel)
      gst_util_set_object_arg (obj, "kernel", kernel_nicks[s->kernel]);
    if (o->size != s->size)
      g_object_set (c, "size", s->size, NULL);
  }
  if (o->border != s->border)
    gst_util_set_object_arg (obj, "border", border_nicks[s->border]);
  if (o->method != s->method)
    gst_util_set_object_arg (obj, "method", method_nicks[s->method]);
  if (o->autotune != s->autotune)
    g_object_set (c, "autotune", s->autotune, NULL);
  if (o->angle != s->angle)
    g_object_set (c, "angle", s->angle, NULL);
  if (o->sigma != s->sigma)
    g_object_set (c, "sigma", s->sigma, NULL);
  if (o->divisor != s->divisor)
    g_object_set (c, "divisor", s->divisor, NULL);
  if (o->bias != s->bias)
    g_object_set (c, "bias", s->bias, NULL);
  if (strcmp (o->planes, s->planes))
    gst_util_set_object_arg (obj, "planes", s->planes);
}

static void
set_format (Soak * k, gint format)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, formats[format],
      "width", G_TYPE_INT, opt.width, "height", G_TYPE_INT, opt.height,
      "framerate", GST_TYPE_FRACTION, 30, 1, NULL);

  g_object_set (k->capsfilter, "caps", caps, NULL);
  gst_caps_unref (caps);
  k->s.format = format;
  strcpy (k->s.planes, "auto"); /* a selection was for the old format */
}

/* ------------------------------------------------------------------ stats and reports */

typedef struct
{
  guint held, built, loaded, tunings, tunings_loaded;
  guint64 frames;
  gchar *variant;               /* of the first pipeline */
  gchar *format;                /* the first pipeline's negotiated format */
} Counts;

/* The context's counts are shared by every element on the device: the largest is the latest. */
static void
read_counts (Counts * c)
{
  memset (c, 0, sizeof (*c));
  for (gint i = 0; i < opt.pipelines; i++) {
    GstStructure *st = NULL;
    guint held = 0, built = 0, loaded = 0, tunings = 0, tunings_loaded = 0;
    guint64 frames = 0;

    g_object_get (soaks[i].conv, "stats", &st, NULL);
    if (!st)
      continue;
    /* one by one: an older element lacks programs-held (0 then) */
    gst_structure_get_uint (st, "programs-held", &held);
    gst_structure_get_uint (st, "programs-built", &built);
    gst_structure_get_uint (st, "programs-from-cache", &loaded);
    gst_structure_get_uint (st, "tunings", &tunings);
    gst_structure_get_uint (st, "tunings-from-cache", &tunings_loaded);
    gst_structure_get_uint64 (st, "frames", &frames);
    if (i == 0) {
      GstPad *pad = gst_element_get_static_pad (soaks[i].conv, "src");
      GstCaps *caps = gst_pad_get_current_caps (pad);

      c->variant = g_strdup (gst_structure_get_string (st, "variant"));
      if (caps)
        c->format = g_strdup (gst_structure_get_string (gst_caps_get_structure (caps, 0),
                "format"));
      gst_clear_caps (&caps);
      gst_object_unref (pad);
    }
    c->held = MAX (c->held, held);
    c->built = MAX (c->built, built);
    c->loaded = MAX (c->loaded, loaded);
    c->tunings += tunings;
    c->tunings_loaded += tunings_loaded;
    c->frames += frames;
    gst_structure_free (st);
  }
  held_max = MAX (held_max, c->held);
}

static void
report (void)
{
  Counts c;
  Sample smp;
  gdouble fps, heap_used, heap_kept;

  read_counts (&c);
  smp.t = elapsed_s ();
  smp.held = c.held;
  smp.built = c.built + c.loaded;
#ifdef __GLIBC__
  if (opt.malloc_trim)          /* memory freed but kept by malloc is not a leak */
    malloc_trim (0);
#endif
  read_memory (&smp.rss_mb, &smp.hwm_mb, &smp.anon_mb);
  read_heap (&heap_used, &heap_kept);
  smp.kernel_libs = read_kernel_libs (&smp.kernel_libs_mb);
  g_array_append_val (samples, smp);
  fps = smp.t > last_t ? (c.frames - last_frames) / (smp.t - last_t) : 0;
  last_t = smp.t;
  last_frames = c.frames;

  g_print ("t %6.1f s  RSS %7.1f MB (anon %6.1f)  HWM %7.1f MB  heap %6.1f + %5.1f free  "
      "held %3u  built %4u  cache %4u  klibs %4u  tunes %3u  frames %8" G_GUINT64_FORMAT
      "  %6.1f fps  "
      "changes %6" G_GUINT64_FORMAT "  distinct %6u  %s%s%s\n", smp.t, smp.rss_mb, smp.anon_mb,
      smp.hwm_mb, heap_used, heap_kept, c.held, c.built, c.loaded, smp.kernel_libs, c.tunings,
      c.frames, fps,
      changes, g_hash_table_size (seen), c.variant ? c.variant : "-",
      n_formats > 1 && c.format ? "  " : "", n_formats > 1 && c.format ? c.format : "");
  if (out) {
    fprintf (out, "{\"kind\":\"soak\",\"t\":%.3f,\"rss_mb\":%.2f,\"rss_anon_mb\":%.2f,"
        "\"hwm_mb\":%.2f,\"heap_used_mb\":%.2f,\"heap_free_mb\":%.2f,\"programs_held\":%u,"
        "\"programs_built\":%u,\"programs_from_cache\":%u,\"kernel_libs\":%u,"
        "\"kernel_libs_mb\":%.2f,"
        "\"tunings\":%u,\"tunings_from_cache\":%u,\"frames\":%" G_GUINT64_FORMAT
        ",\"fps\":%.2f,\"changes\":%" G_GUINT64_FORMAT ",\"distinct\":%u,"
        "\"max_set_ms\":%.2f,\"variant\":\"%s\",\"format\":\"%s\"}\n", smp.t,
        smp.rss_mb, smp.anon_mb, smp.hwm_mb, heap_used, heap_kept, c.held, c.built, c.loaded,
        smp.kernel_libs, smp.kernel_libs_mb, c.tunings, c.tunings_loaded, c.frames, fps, changes,
        g_hash_table_size (seen), max_set_ms,
        c.variant ? c.variant : "", c.format ? c.format : "");
    fflush (out);
  }
  fflush (stdout);
  g_free (c.variant);
  g_free (c.format);
}

/* Least-squares slope of RSS in MB per minute over samples from index i0 on */
static gdouble
rss_slope (guint i0)
{
  gdouble st = 0, sr = 0, stt = 0, str = 0;
  guint n = samples->len - i0;

  if (n < 2)
    return NAN;
  for (guint i = i0; i < samples->len; i++) {
    Sample *s = &g_array_index (samples, Sample, i);
    st += s->t;
    sr += s->rss_mb;
    stt += s->t * s->t;
    str += s->t * s->rss_mb;
  }
  return 60.0 * (n * str - st * sr) / (n * stt - st * st);
}

static void
summary (void)
{
  Counts c;
  guint i0 = 0;
  gdouble rss_max = 0, rss_min = G_MAXDOUBLE, growth, pct, slope;
  Sample *base, *last;

  if (samples->len == 0)
    return;
  while (i0 < samples->len && g_array_index (samples, Sample, i0).t < opt.warmup)
    i0++;
  if (i0 == samples->len)       /* a run shorter than the warm-up: from the first report */
    i0 = MIN (1, samples->len - 1);
  base = &g_array_index (samples, Sample, i0);
  last = &g_array_index (samples, Sample, samples->len - 1);
  for (guint i = i0; i < samples->len; i++) {
    rss_max = MAX (rss_max, g_array_index (samples, Sample, i).rss_mb);
    rss_min = MIN (rss_min, g_array_index (samples, Sample, i).rss_mb);
  }
  growth = MAX (rss_max, last->rss_mb) - base->rss_mb;
  pct = 100.0 * growth / base->rss_mb;
  slope = rss_slope (i0);
  read_counts (&c);
  g_clear_pointer (&c.variant, g_free);
  g_clear_pointer (&c.format, g_free);

  g_print ("\nsummary: %.0f s, %d pipeline(s), %dx%d %s, seed %u, a change every %d ms%s%s%s\n",
      last->t, opt.pipelines, opt.width, opt.height, opt.formats ? opt.formats : formats[0],
      opt.seed, opt.change_ms, pool ? ", between --pool settings" : "",
      opt.no_disk_cache ? ", no disk caches" : "", opt.malloc_trim ? ", malloc_trim" : "");
  g_print ("  RSS after warm-up (t=%.0f s%s): %.1f MB; from then on min %.1f MB, max %.1f MB, "
      "last %.1f MB, slope %+.2f MB/min; VmHWM %.1f MB\n", base->t,
      base->t < opt.warmup ? ", run shorter than the warm-up" : "", base->rss_mb, rss_min,
      rss_max, last->rss_mb, slope, last->hwm_mb);
  g_print ("  anonymous RSS (less library code) after warm-up: %.1f MB, last %.1f MB (%+.1f %%)\n",
      base->anon_mb, last->anon_mb, 100.0 * (last->anon_mb - base->anon_mb) / base->anon_mb);
  if (last->built > base->built)
    g_print ("  %u programs built or loaded after warm-up: %.2f MB of RSS growth per program\n",
        last->built - base->built, (last->rss_mb - base->rss_mb) / (last->built - base->built));
  if (last->kernel_libs > base->kernel_libs)
    g_print ("  kernel libraries mapped (PoCL keeps them until exit): %u after warm-up, %u last; "
        "their RSS %.1f -> %.1f MB; RSS less them %+.1f MB (%+.1f %%)\n", base->kernel_libs,
        last->kernel_libs, base->kernel_libs_mb, last->kernel_libs_mb,
        (last->rss_mb - last->kernel_libs_mb) - (base->rss_mb - base->kernel_libs_mb),
        100.0 * ((last->rss_mb - last->kernel_libs_mb) / (base->rss_mb - base->kernel_libs_mb) -
            1.0));
  g_print ("  changes %" G_GUINT64_FORMAT ", distinct settings %u, longest change %.1f ms; "
      "frames %" G_GUINT64_FORMAT "; programs built %u, from cache %u, held max %u; "
      "tunings %u, from cache %u; warnings %u\n", changes, g_hash_table_size (seen),
      max_set_ms, c.frames, c.built, c.loaded, held_max, c.tunings, c.tunings_loaded,
      warnings);
  /* the idle programs filling up is expected growth: RSS from then on as well */
  for (guint i = 1; i + 1 < samples->len; i++) {
    Sample *f = &g_array_index (samples, Sample, i);
    gdouble fmax = 0;

    if (f->held < idle_max)
      continue;
    for (guint j = i; j < samples->len; j++)
      fmax = MAX (fmax, g_array_index (samples, Sample, j).rss_mb);
    g_print ("  since the idle programs filled (t=%.0f s, held %u): RSS %.1f MB, max %.1f MB, "
        "last %.1f MB, slope %+.2f MB/min\n", f->t, f->held, f->rss_mb, fmax, last->rss_mb,
        rss_slope (i));
    break;
  }
  if (exit_code)
    g_print ("flat: not measured, a pipeline failed after %.0f s\n", last->t);
  else
    g_print ("flat: RSS grew %.1f MB (%.1f %%) after warm-up; programs-held max %u "
        "(bound: in use + idle = %u)%s\n", growth, pct, held_max, held_bound,
        held_max > held_bound ? "  OVER THE BOUND" : "");
  if (out) {
    fprintf (out, "{\"kind\":\"soak-summary\",\"seconds\":%.3f,\"pipelines\":%d,"
        "\"width\":%d,\"height\":%d,\"formats\":\"%s\",\"seed\":%u,\"change_ms\":%d,"
        "\"pool\":%d,\"disk_cache\":%s,\"malloc_trim\":%s,\"warmup_t\":%.3f,\"rss_warmup_mb\":%.2f,"
        "\"rss_min_mb\":%.2f,\"rss_max_mb\":%.2f,\"rss_last_mb\":%.2f,"
        "\"rss_growth_mb\":%.2f,\"rss_growth_pct\":%.2f,"
        "\"rss_slope_mb_per_min\":%.3f,\"hwm_mb\":%.2f,\"changes\":%" G_GUINT64_FORMAT
        ",\"distinct\":%u,\"max_set_ms\":%.2f,\"frames\":%" G_GUINT64_FORMAT
        ",\"programs_built\":%u,\"programs_from_cache\":%u,\"programs_held_max\":%u,"
        "\"programs_held_bound\":%u,\"warnings\":%u,\"failed\":%s}\n", last->t,
        opt.pipelines, opt.width, opt.height, opt.formats ? opt.formats : formats[0],
        opt.seed, opt.change_ms, opt.pool, opt.no_disk_cache ? "false" : "true",
        opt.malloc_trim ? "true" : "false", base->t,
        base->rss_mb, rss_min, rss_max, last->rss_mb, growth, pct, isnan (slope) ? 0.0 : slope,
        last->hwm_mb, changes, g_hash_table_size (seen), max_set_ms, c.frames, c.built,
        c.loaded, held_max, held_bound, warnings, exit_code ? "true" : "false");
    fflush (out);
  }
}

/* ------------------------------------------------------------------ main loop callbacks */

static gboolean
on_change (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  gboolean rotate;
  Counts c;

  /* sample programs-held between reports too: it peaks right after a build */
  read_counts (&c);
  g_free (c.variant);
  g_free (c.format);

  rotate = n_formats > 1 && now >= next_format_us;
  if (rotate)
    next_format_us += (gint64) (opt.format_period * 1e6);
  for (gint i = 0; i < opt.pipelines; i++) {
    Soak *k = &soaks[i];
    Settings before = k->s;
    gint64 t;

    before.matrix = g_strdup (k->s.matrix);
    if (rotate)
      set_format (k, (k->s.format + 1) % n_formats);
    if (pool) {
      const Settings *p = &pool[pick (opt.pool)];
      gint format = k->s.format;

      g_free (k->s.matrix);
      k->s = *p;
      k->s.matrix = g_strdup (p->matrix);
      k->s.format = format;
    } else {
      draw_change (&k->s);
    }
    t = g_get_monotonic_time ();
    apply_settings (k->conv, &before, &k->s);
    g_free (before.matrix);
    max_set_ms = MAX (max_set_ms, (g_get_monotonic_time () - t) / 1e3);
    remember_settings (&k->s);
    changes++;
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_tick (gpointer data)
{
  gint64 now = g_get_monotonic_time ();

  if (now - t0 >= (gint64) (opt.seconds * 1e6)) {
    report ();
    g_main_loop_quit (loop);
    return G_SOURCE_REMOVE;
  }
  if (now >= next_report_us) {
    report ();
    next_report_us += (gint64) (opt.interval * 1e6);
  }
  return G_SOURCE_CONTINUE;
}

static void
fail (gchar * why)
{
  if (!failure)
    failure = why;
  else
    g_free (why);
  exit_code = 1;
  g_main_loop_quit (loop);
}

static gboolean
on_bus (GstBus * bus, GstMessage * msg, gpointer data)
{
  Soak *k = data;
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      fail (g_strdup_printf ("pipeline %d: error from %s: %s\n%s", (gint) (k - soaks),
              GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message, dbg ? dbg : ""));
      g_error_free (err);
      g_free (dbg);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("soak: pipeline %d: warning from %s: %s\n", (gint) (k - soaks),
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
      warnings++;
      g_error_free (err);
      g_free (dbg);
      break;
    case GST_MESSAGE_EOS:
      fail (g_strdup_printf ("pipeline %d: unexpected end of stream", (gint) (k - soaks)));
      break;
    case GST_MESSAGE_STATE_CHANGED:
      if (GST_MESSAGE_SRC (msg) == GST_OBJECT (k->pipeline)) {
        GstState state;
        gboolean all = TRUE;

        gst_message_parse_state_changed (msg, NULL, &state, NULL);
        if (state != GST_STATE_PLAYING || k->playing)
          break;
        k->playing = TRUE;
        for (gint i = 0; i < opt.pipelines; i++)
          all = all && soaks[i].playing;
        if (all) {              /* changes start once every pipeline plays */
          g_print ("playing after %.1f s\n", elapsed_s ());
          next_format_us = g_get_monotonic_time () + (gint64) (opt.format_period * 1e6);
          g_timeout_add (opt.change_ms, on_change, NULL);
        }
      }
      break;
    default:
      break;
  }
  return TRUE;
}

/* ------------------------------------------------------------------ main */

int
main (int argc, char **argv)
{
  GError *err = NULL;
  GOptionEntry entries[] = {
    {"seconds", 't', 0, G_OPTION_ARG_DOUBLE, &opt.seconds,
        "Length of the run in seconds (default 600)", "S"},
    {"interval", 'i', 0, G_OPTION_ARG_DOUBLE, &opt.interval,
        "Seconds between reports (default 10)", "S"},
    {"warmup", 'w', 0, G_OPTION_ARG_DOUBLE, &opt.warmup,
        "RSS is compared with the first report from this time on (default 60)", "S"},
    {"change-ms", 'c', 0, G_OPTION_ARG_INT, &opt.change_ms,
        "Milliseconds between live changes (default 200)", "MS"},
    {"seed", 0, 0, G_OPTION_ARG_INT, &opt.seed, "Seed of the random changes (default 1)", "N"},
    {"pipelines", 'n', 0, G_OPTION_ARG_INT, &opt.pipelines,
        "Parallel pipelines, each changed independently (default 1)", "N"},
    {"format", 'f', 0, G_OPTION_ARG_STRING, &opt.format, "Video format (default RGBA)", "F"},
    {"formats", 0, 0, G_OPTION_ARG_STRING, &opt.formats,
        "Comma list of formats to rotate through while playing (overrides --format)", "F,..."},
    {"format-period", 0, 0, G_OPTION_ARG_DOUBLE, &opt.format_period,
        "Seconds between format switches with --formats (default 30)", "S"},
    {"res", 'r', 0, G_OPTION_ARG_STRING, &opt.res, "Frame size (default 320x240)", "WxH"},
    {"out", 'o', 0, G_OPTION_ARG_FILENAME, &opt.out, "Write JSON lines to this file", "FILE"},
    {"pool", 0, 0, G_OPTION_ARG_INT, &opt.pool,
        "Change between N settings drawn at the start instead of new ones each time", "N"},
    {"malloc-trim", 0, 0, G_OPTION_ARG_NONE, &opt.malloc_trim,
        "Call malloc_trim (0) before reading RSS (tells freed heap kept by malloc from leaks)",
        NULL},
    {"no-disk-cache", 0, 0, G_OPTION_ARG_NONE, &opt.no_disk_cache,
        "Turn off the element's program and tuning caches on disk "
        "(GST_CLCONVOLVE_CACHE_DIR= GST_CLCONVOLVE_TUNE_DIR=); PoCL's own cache stays", NULL},
    {NULL}
  };
  GOptionContext *octx =
      g_option_context_new ("- clconvolve soak: RSS and programs under random live changes");
  const gchar *env;
  guint idle = IDLE_PROGRAMS_DEFAULT;
  gint shapes = 1;

  opt.seconds = 600;
  opt.interval = 10;
  opt.warmup = 60;
  opt.change_ms = 200;
  opt.seed = 1;
  opt.pipelines = 1;
  opt.format_period = 30;
  g_option_context_add_main_entries (octx, entries, NULL);
  if (!g_option_context_parse (octx, &argc, &argv, &err)) {
    g_printerr ("soak: %s\n", err->message);
    return 2;
  }
  g_option_context_free (octx);
  if (sscanf (opt.res ? opt.res : "320x240", "%dx%d", &opt.width, &opt.height) != 2
      || opt.width < 1 || opt.height < 1 || opt.seconds <= 0 || opt.interval <= 0
      || opt.change_ms < 1 || opt.pipelines < 1 || opt.format_period <= 0) {
    g_printerr ("soak: bad option value (see --help)\n");
    return 2;
  }

  /* the element reads these when its device context is created */
  if (opt.no_disk_cache) {
    g_setenv ("GST_CLCONVOLVE_CACHE_DIR", "", TRUE);
    g_setenv ("GST_CLCONVOLVE_TUNE_DIR", "", TRUE);
  }
  gst_init (&argc, &argv);

  if ((env = g_getenv ("GST_CLCONVOLVE_IDLE_PROGRAMS")) && *env)
    idle = (guint) g_ascii_strtoull (env, NULL, 10);
  idle_max = idle;

  formats = g_strsplit (opt.formats ? opt.formats : opt.format ? opt.format : "RGBA", ",", -1);
  n_formats = g_strv_length (formats);
  for (gint i = 0; i < n_formats; i++) {
    GstVideoFormat f = gst_video_format_from_string (formats[i]);

    if (f == GST_VIDEO_FORMAT_UNKNOWN) {
      g_printerr ("soak: unknown format '%s'\n", formats[i]);
      return 2;
    }
    /* packed and gray formats: one shape; planar ones: luma and chroma */
    shapes = MAX (shapes, MIN (GST_VIDEO_FORMAT_INFO_N_PLANES (gst_video_format_get_info (f)),
            MAX_SHAPES));
  }
  held_bound = idle + opt.pipelines * (IN_USE_PER_SHAPE * shapes + 1) + 1;
  if (opt.out && !(out = fopen (opt.out, "w"))) {
    g_printerr ("soak: cannot write %s\n", opt.out);
    return 2;
  }

  rng = g_rand_new_with_seed (opt.seed);
  seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  loop = g_main_loop_new (NULL, FALSE);
  soaks = g_new0 (Soak, opt.pipelines);

  for (gint i = 0; i < opt.pipelines; i++) {
    Soak *k = &soaks[i];
    gchar *desc = g_strdup_printf ("videotestsrc is-live=false pattern=ball "
        "! capsfilter name=cf caps=video/x-raw,format=%s,width=%d,height=%d,framerate=30/1 "
        "! clconvolve name=c ! video/x-raw ! fakesink sync=false", formats[0], opt.width, opt.height);
    GstBus *bus;

    k->pipeline = gst_parse_launch (desc, &err);
    g_free (desc);
    if (!k->pipeline) {
      g_printerr ("soak: %s\n", err->message);
      return 1;
    }
    k->conv = gst_bin_get_by_name (GST_BIN (k->pipeline), "c");
    k->capsfilter = gst_bin_get_by_name (GST_BIN (k->pipeline), "cf");
    /* the element's defaults */
    k->s = (Settings) { 2, 5, 0, 0, TRUE, 45, 0, 0, 0, "auto", NULL, 0 };
    remember_settings (&k->s);
    /* --pool: the walk's first N steps from the defaults */
    if (opt.pool > 0 && !pool) {
      Settings w = k->s;

      pool = g_new0 (Settings, opt.pool);
      for (gint j = 0; j < opt.pool; j++) {
        draw_change (&w);
        pool[j] = w;
        pool[j].matrix = g_strdup (w.matrix);
      }
      g_free (w.matrix);
    }
    bus = gst_element_get_bus (k->pipeline);
    gst_bus_add_watch (bus, on_bus, k);
    gst_object_unref (bus);
  }

  if (pool)
    g_print ("clconvolve-soak: the changes go between %d settings drawn at the start\n",
        opt.pool);
  g_print ("clconvolve-soak: %d pipeline(s) %dx%d %s, %.0f s, report every %.0f s, "
      "a change every %d ms%s, seed %u, disk caches %s, idle programs %u%s\n", opt.pipelines,
      opt.width, opt.height, opt.formats ? opt.formats : formats[0], opt.seconds,
      opt.interval, opt.change_ms, pool ? " (--pool)" : "", opt.seed,
      opt.no_disk_cache ? "off" : "on", idle,
      opt.malloc_trim ? ", malloc_trim before each report" : "");
  t0 = g_get_monotonic_time ();
  next_report_us = t0 + (gint64) (opt.interval * 1e6);
  last_t = 0;
  for (gint i = 0; i < opt.pipelines; i++)
    if (gst_element_set_state (soaks[i].pipeline,
            GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
      failure = g_strdup_printf ("pipeline %d: could not start", i);
      exit_code = 1;
    }
  report ();                    /* t = 0 */
  g_timeout_add (100, on_tick, NULL);
  if (!exit_code)
    g_main_loop_run (loop);

  summary ();
  if (failure)
    g_printerr ("soak: FAILED: %s\n", failure);

  for (gint i = 0; i < opt.pipelines; i++) {
    gst_element_set_state (soaks[i].pipeline, GST_STATE_NULL);
    gst_object_unref (soaks[i].conv);
    gst_object_unref (soaks[i].capsfilter);
    gst_object_unref (soaks[i].pipeline);
    g_free (soaks[i].s.matrix);
  }
  for (gint j = 0; pool && j < opt.pool; j++)
    g_free (pool[j].matrix);
  g_free (pool);
  if (out)
    fclose (out);
  g_free (failure);
  return exit_code;
}
