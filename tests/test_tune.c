/* clconvolve: method=auto's measured choices and their on-disk cache
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What auto-tuning must keep true, on RGBA (one pixel shape, so one tuning key per frame size,
 * matrix size, border and split rank) 96x64 frames:
 *   - first run on a fresh GST_CLCONVOLVE_TUNE_DIR: stats tunings 1, tunings-from-cache 0,
 *     one valid file <key>.bin (the program cache's format) whose payload names the variant the
 *     stats report; another size on the same element is another key (and file), another
 *     border too on a GPU (not on a CPU, where the border is only a kernel argument), and a
 *     key seen before is not timed again;
 *   - a second element on the same directory: tunings 0, tunings-from-cache 1, the same
 *     variant, the file untouched;
 *   - a damaged file (truncated, a payload byte flipped, garbage, empty, another key's valid
 *     file, a directory in its place) is ignored: timed again and, where it can be, rewritten
 *     so that it loads again;
 *   - a FIFO, or a symbolic link to /dev/zero, in place of the file is neither waited on nor
 *     read: timed again, and a regular file stored in its place (a watchdog releases a run
 *     blocked on the FIFO and fails the test, and the bytes the process read are counted);
 *   - a valid file (key, length, checksum) whose payload names no candidate of this request
 *     (another format version, bx 99, tiled on a CPU, separable for a matrix that does not
 *     split, split planes on float4, with a flag of 2, at a blocking never offered or on a
 *     device that does not split, text that does not parse) is ignored, timed again and
 *     rewritten;
 *   - a valid file naming any candidate is obeyed: the stats report that variant and nothing
 *     is timed (each candidate in turn, so the cache is really what decides);
 *   - autotune=false times nothing, reads nothing and writes nothing (fixed rules), and turning
 *     it on while playing tunes from the next frame;
 *   - GST_CLCONVOLVE_TUNE_DIR="" tunes in memory only: no file here, none in the XDG cache;
 *   - a directory that cannot be created (a regular file, or under one) costs only the cache;
 *   - without the variable: <XDG cache>/clconvolve/tuning (meson points XDG_CACHE_HOME into the
 *     build directory; run by hand without that the test is skipped).
 * Every output frame of every run is compared with the plain-C reference (tests/reference.c;
 * 1 LSB plus the rounding-tie rule of common.h, alpha bit-exact), so a wrong variant, or a
 * variant whose kernel is wrong at these sizes, cannot pass unnoticed.
 *
 * The element reads the variable when it starts: each run below sets it, then creates its
 * harness (which starts the element). The meson environment sets GST_CLCONVOLVE_TUNE_DIR="";
 * each test sets its own directory and puts the variable back at its end. */

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "convkernel.h"
#include "gstclenums.h"
#include "gstclprogramcache.h"
#include "reference.h"
#include "testfs.h"

#define TUNE_ENV "GST_CLCONVOLVE_TUNE_DIR"
#define SYNC_ENV "GST_CLCONVOLVE_SYNC_BUILDS"
#define BLOCK_ENV "GST_CLCONVOLVE_BLOCK"
#define WIDTH 96
#define HEIGHT 64
#define CHANNELS 4
#define PASSMASK 0x8            /* RGBA: alpha passes unchanged */
#define N_FRAMES 2
#define KEY_LEN 64
#define HEADER 112              /* magic, key, length, checksum: see gstclprogramcache.c */

/* ---------------------------------------------------------------------------- variants
 *
 * The file format's method numbers (payload "clconvolve-tune 2 method M bx X by Y split S"):
 * written here as numbers, since files on disk outlive a renumbering of the enum. */
enum
{
  M_TILED = 1,
  M_FLOAT4 = 2,
  M_SEPARABLE = 3,
  M_VECTOR = 4
};

G_STATIC_ASSERT ((gint) M_TILED == (gint) GST_CL_CONVOLVE_METHOD_TILED);
G_STATIC_ASSERT ((gint) M_FLOAT4 == (gint) GST_CL_CONVOLVE_METHOD_FLOAT4);
G_STATIC_ASSERT ((gint) M_SEPARABLE == (gint) GST_CL_CONVOLVE_METHOD_SEPARABLE);
G_STATIC_ASSERT ((gint) M_VECTOR == (gint) GST_CL_CONVOLVE_METHOD_VECTOR);

typedef struct
{
  gint method, bx, by;
  gint split;                   /* vector: the split colour planes (16 bx pixels per row);
                                 * separable: 1 lsep (bx outputs a work-item, tiles of by
                                 * rows), 3 csep (bx pixels on by rows) */
} Choice;

#define MAX_CHOICES 12

/* The stats' text of a choice ("float4 block=8", "vector nv=3 my=2", "vector split nx=1 my=3",
 * "tiled 2x4",
 * "separable" (two passes), "separable nv=2 strip=32" (one pass), "separable local mx=2
 * ty=8", "separable columns w=256 my=8"). */
static gchar *
choice_text (const Choice * c)
{
  switch (c->method) {
    case M_TILED:
      return g_strdup_printf ("tiled %dx%d", c->bx, c->by);
    case M_FLOAT4:
      return g_strdup_printf ("float4 block=%d", c->bx);
    case M_SEPARABLE:
      if (c->split == 1)
        return g_strdup_printf ("separable local mx=%d ty=%d", c->bx, c->by);
      if (c->split == 3)
        return g_strdup_printf ("separable columns w=%d my=%d", c->bx, c->by);
      return c->bx ? g_strdup_printf ("separable nv=%d strip=%d", c->bx, c->by) :
          g_strdup ("separable");
    case M_VECTOR:
      return c->split ? g_strdup_printf ("vector split nx=%d my=%d", c->bx, c->by) :
          g_strdup_printf ("vector nv=%d my=%d", c->bx, c->by);
    default:
      return g_strdup_printf ("method %d", c->method);
  }
}

/* The file payload of a choice. */
static gchar *
choice_payload (const Choice * c)
{
  return g_strdup_printf ("clconvolve-tune 2 method %d bx %d by %d split %d\n", c->method, c->bx,
      c->by, c->split);
}

/* Pixels per work-item of float4 as the element picks them: GST_CLCONVOLVE_BLOCK if set (read
 * as the element does), else 8 on a device without on-chip local memory and 1 with. */
static gint
float4_block (const DeviceFacts * d)
{
  const gchar *env = g_getenv (BLOCK_ENV);
  gint override = env ? CLAMP (atoi (env), 0, 16) : 0;

  return override > 0 ? override : d->local_mem_dedicated ? 1 : 8;
}

/* Whether the element gives method=vector its wider blockings on the device: 4-channel views
 * on a CPU whose native float vector is 16 wide (AVX-512); this suite runs RGBA only. */
static gboolean
wide_vector (const DeviceFacts * d)
{
  return !d->local_mem_dedicated && d->native_float_width >= 16;
}

/* GST_CLCONVOLVE_SPLIT read as the element reads it: 1, 0, or -1 when unset or no integer. */
static gint
split_env (void)
{
  const gchar *env = g_getenv ("GST_CLCONVOLVE_SPLIT");
  gchar *end = NULL;
  gint64 v = env ? g_ascii_strtoll (env, &end, 10) : 0;

  return !env || end == env || *end ? -1 : v != 0;
}

/* Whether the tuner times the split colour planes of this suite's RGBA views (alpha copied):
 * as GST_CLCONVOLVE_SPLIT says, else on the devices of wide_vector (a fixed rule only with the
 * variable at 1); and the choice for a size: 16 pixels on 3 rows there up to size 7, else on 2
 * rows. */
static gboolean
split_planes (const DeviceFacts * d, gint size, Choice * c)
{
  gint env = split_env ();

  *c = (Choice) { M_VECTOR, 1, wide_vector (d) && size <= 7 ? 3 : 2, 1 };
  return env < 0 ? wide_vector (d) : env;
}

/* The variants method=auto may choose for a 4-channel 8-bit view, size x size (keep in step
 * with tune_candidates in gst/gstclconvolve.c and docs/kernels.md). Everywhere the split planes
 * where split_planes says so. Without on-chip local
 * memory (a CPU): float4, vector 3x2 and 4x1 (4x3 on an AVX-512 CPU, whose native float vector
 * is 16 wide), and where the matrix splits separable with the vertical pass first (csep), in
 * two passes and, up to size 31, in one pass (4 vectors down 64 rows). With it:
 * the tiled blockings whose tile fits and lsep's tallest tile that fits (tiled 2x4, 1x4, 1x1,
 * lsep tiles of 8, 4 or 2 rows: which fit is the element's reckoning of local memory, so *maybe
 * (if not NULL) gets those as candidates that may or may not be offered), float4, vector 1x1
 * and 3x2,
 * two-pass separable. Returns how many are certain. */
static gint
expected_choices (gint size, gboolean splits, Choice * out, gint * n_maybe, Choice * maybe)
{
  DeviceFacts d;
  Choice split;
  gint n = 0, m = 0;

  fail_unless (suite_device_facts (&d), "OpenCL does not know the suite's device");
  if (d.local_mem_dedicated) {
    const gint tiled[][2] = { {2, 4}, {1, 4}, {1, 1} };

    for (guint i = 0; i < G_N_ELEMENTS (tiled) && maybe; i++)
      maybe[m++] = (Choice) { M_TILED, tiled[i][0], tiled[i][1] };
    out[n++] = (Choice) { M_FLOAT4, float4_block (&d), 1 };
    out[n++] = (Choice) { M_VECTOR, 1, 1 };
    out[n++] = (Choice) { M_VECTOR, 3, 2 };
    if (split_planes (&d, size, &split))
      out[n++] = split;
    /* lsep: the tallest tile that fits the device */
    for (gint ty = 8; ty >= 2 && splits && maybe; ty /= 2)
      maybe[m++] = (Choice) { M_SEPARABLE, 2, ty, 1 };
    if (splits)
      out[n++] = (Choice) { M_SEPARABLE, 0, 0 };
  } else {
    out[n++] = (Choice) { M_FLOAT4, float4_block (&d), 1 };
    out[n++] = (Choice) { M_VECTOR, 3, 2 };
    out[n++] = wide_vector (&d) ? (Choice) { M_VECTOR, 4, 3 } :
        (Choice) { M_VECTOR, 4, 1 };
    if (split_planes (&d, size, &split))
      out[n++] = split;
    if (splits) {
      out[n++] = (Choice) { M_SEPARABLE, 256, 8, 3 };
      out[n++] = (Choice) { M_SEPARABLE, 0, 0 };
      if (size <= 31) {
        out[n++] = (Choice) { M_SEPARABLE, 4, 64 };
      }
    }
  }
  if (n_maybe)
    *n_maybe = m;
  return n;
}

/* All the choices the element may make for the request (the certain ones, then the maybes). */
static gint
all_choices (gint size, gboolean splits, Choice * out)
{
  Choice maybe[MAX_CHOICES];
  gint m = 0, n = expected_choices (size, splits, out, &m, maybe);

  for (gint i = 0; i < m; i++)
    out[n++] = maybe[i];
  return n;
}

/* Whether text is what auto runs with autotune=false for size (< 7, so never separable) on
 * an RGBA view: on a CPU-like device the split planes with GST_CLCONVOLVE_SPLIT=1, else vector
 * 3x2 (4x3 on an AVX-512 CPU); with on-chip local memory the first tiled blocking that fits,
 * else float4. */
static gboolean
is_fixed_rule (const gchar * text, gint size)
{
  DeviceFacts d;
  Choice split;
  gchar *float4;
  gboolean ok;

  fail_unless (suite_device_facts (&d));
  if (!d.local_mem_dedicated) {
    gchar *expect = split_planes (&d, size, &split) && split_env () == 1 ? choice_text (&split) :
        g_strdup (wide_vector (&d) ? "vector nv=4 my=3" : "vector nv=3 my=2");

    ok = !strcmp (text, expect);
    g_free (expect);
    return ok;
  }
  float4 = g_strdup_printf ("float4 block=%d", float4_block (&d));
  ok = g_str_has_prefix (text, "tiled ") || !strcmp (text, float4);
  g_free (float4);
  return ok;
}

/* ------------------------------------------------------------------------------ filters */

/* 5x5 with no structure: needs 5 vector pairs (more than the element's 4), so it never
 * splits; a transposed or shifted window changes the result */
static const gdouble dense5[25] = {
  1.0, -2.0, 3.0, 0.5, 4.0,
  -1.0, 6.0, -3.0, 2.0, -0.25,
  7.0, 1.5, 9.0, -4.0, 2.5,
  0.75, -5.0, 3.5, 8.0, -6.0,
  2.25, -1.25, 5.0, -7.0, 10.0,
};

typedef struct
{
  const gchar *name;
  const gchar *kernel;          /* preset nick, or NULL for dense5 */
  gint size;
  gdouble divisor, bias;        /* divisor 0: automatic */
  gboolean splits;              /* separable is a candidate */
} Filter;

static const Filter f_gauss = { "gaussian 5x5", "gaussian", 5, 0.0, 0.0, TRUE };
static const Filter f_dense = { "dense 5x5", NULL, 5, 50.0, 100.0, FALSE };
/* one pair and a centre term (RANK_CENTRE), where each separable candidate adds the centre */
static const Filter f_unsharp = { "unsharp 5x5", "unsharp", 5, 0.0, 0.0, TRUE };

static void
apply_filter (GstElement * e, const Filter * f)
{
  if (f->kernel) {
    gst_util_set_object_arg (G_OBJECT (e), "kernel", f->kernel);
    g_object_set (e, "size", f->size, NULL);
  } else {
    gchar *m = matrix_string (dense5, 5, "; ");

    g_object_set (e, "matrix", m, NULL);
    g_free (m);
  }
  g_object_set (e, "divisor", f->divisor, "bias", f->bias, "sigma", 0.0, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "method", "auto");
}

/* ---------------------------------------------------------------------------------- runs */

typedef struct
{
  GstHarness *h;
  const Filter *f;
  const gchar *border;
  gint width, height;
  guint32 seed;
  gchar *what;
} Session;

typedef struct
{
  guint tunings, from_cache;
  gchar *variant;
} Outcome;

static void
outcome_clear (Outcome * o)
{
  g_clear_pointer (&o->variant, g_free);
}

static void
set_caps (Session * s, gint w, gint h)
{
  gchar *caps = g_strdup_printf ("video/x-raw,format=RGBA,width=%d,height=%d,framerate=30/1",
      w, h);

  s->width = w;
  s->height = h;
  gst_harness_set_src_caps_str (s->h, caps);
  gst_harness_set_sink_caps_str (s->h, caps);
  g_free (caps);
}

/* A new element (started now: it reads GST_CLCONVOLVE_TUNE_DIR as it is) on WIDTH x HEIGHT. */
static void
session_start (Session * s, const Filter * f, gboolean autotune, const gchar * what)
{
  GstElement *e = gst_element_factory_make ("clconvolve", NULL);

  fail_unless (e != NULL);
  memset (s, 0, sizeof (*s));
  s->f = f;
  s->border = "mirror";
  s->what = g_strdup_printf ("%s (%s, %s, dir %s)", what, f->name,
      autotune ? "autotune" : "autotune=false", g_getenv (TUNE_ENV) ? g_getenv (TUNE_ENV) :
      "(unset)");
  apply_filter (e, f);
  g_object_set (e, "autotune", autotune, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "border", s->border);
  s->h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  set_caps (s, WIDTH, HEIGHT);
}

static void
session_border (Session * s, const gchar * border)
{
  s->border = border;
  gst_util_set_object_arg (G_OBJECT (s->h->element), "border", border);
}

/* Pushes n random frames of the session's size and checks each against the reference. */
static void
session_frames (Session * s, guint n)
{
  gint row = s->width * CHANNELS;
  gsize bytes = (gsize) row * s->height;
  gdouble k[CONV_MAX_SIZE * CONV_MAX_SIZE], divisor;
  RefBorder border = border_from_nick (s->border);

  if (s->f->kernel && !strcmp (s->f->kernel, "unsharp"))
    conv_unsharp_generate (s->f->size, 0.0, 1.0, k);    /* the element's default amount */
  else if (s->f->kernel)
    conv_preset_generate (preset_from_nick (s->f->kernel), s->f->size, 0.0, 45.0, k);
  else
    memcpy (k, dense5, sizeof (dense5));
  divisor = s->f->divisor != 0.0 ? s->f->divisor : conv_auto_divisor (k, s->f->size);

  for (guint i = 0; i < n; i++) {
    GRand *rand = g_rand_new_with_seed (s->seed++);
    guint8 *in = g_malloc (bytes), *expect = g_malloc (bytes), *lo = g_malloc (bytes),
        *hi = g_malloc (bytes);
    GstBuffer *buf = gst_buffer_new_allocate (NULL, bytes, NULL), *out;
    GstMapInfo map;
    guint off = 0;
    gsize changed = 0, compared = 0;

    for (gsize j = 0; j < bytes; j++)
      in[j] = g_rand_int_range (rand, 0, 256);
    g_rand_free (rand);
    gst_buffer_fill (buf, 0, in, bytes);
    out = gst_harness_push_and_pull (s->h, buf);
    fail_unless (out != NULL, "%s: no output", s->what);

    ref_convolve_u8 (in, row, expect, row, s->width, s->height, CHANNELS, PASSMASK, k,
        s->f->size, divisor, s->f->bias, border);
    ref_convolve_u8 (in, row, lo, row, s->width, s->height, CHANNELS, PASSMASK, k,
        s->f->size, divisor, s->f->bias - TIE_MARGIN, border);
    ref_convolve_u8 (in, row, hi, row, s->width, s->height, CHANNELS, PASSMASK, k,
        s->f->size, divisor, s->f->bias + TIE_MARGIN, border);
    /* RGBA rows are tight in GStreamer's default layout (4-byte aligned already) */
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    fail_unless (map.size >= bytes);
    for (gsize j = 0; j < bytes; j++) {
      gint c = (gint) (j % CHANNELS), d = abs ((gint) map.data[j] - (gint) expect[j]);

      /* (no check macro per sample: each one records its location, which is slow) */
      if (PASSMASK & (1u << c)) {
        if (map.data[j] != in[j])
          fail ("%s: %dx%d border %s frame %u pixel (%d,%d) alpha should pass unchanged: %u, "
              "input %u", s->what, s->width, s->height, s->border, i,
              (gint) (j % row) / CHANNELS, (gint) (j / row), map.data[j], in[j]);
        continue;
      }
      if (d > TOLERANCE)
        fail ("%s: %dx%d border %s frame %u pixel (%d,%d) sample %d: got %u, reference %u",
            s->what, s->width, s->height, s->border, i, (gint) (j % row) / CHANNELS,
            (gint) (j / row), c, map.data[j], expect[j]);
      off += d != 0 && lo[j] == hi[j];
      changed += expect[j] != in[j];
      compared++;
    }
    gst_buffer_unmap (out, &map);
    fail_unless (off_away_from_ties_allowed (off, compared), "%s: %dx%d frame %u: %u of %"
        G_GSIZE_FORMAT " samples away from rounding ties off by 1 (a systematic error)",
        s->what, s->width, s->height, i, off, compared);
    fail_unless (changed > compared / 2, "%s: the filter changes only %" G_GSIZE_FORMAT " of %"
        G_GSIZE_FORMAT " samples: a wrong kernel could pass", s->what, changed, compared);
    gst_buffer_unref (out);
    g_free (in);
    g_free (expect);
    g_free (lo);
    g_free (hi);
  }
}

/* The element's tuning counts and variant now. */
static void
session_outcome (Session * s, Outcome * o)
{
  GstStructure *st = NULL;
  const gchar *variant;

  memset (o, 0, sizeof (*o));
  g_object_get (s->h->element, "stats", &st, NULL);
  fail_unless (st != NULL, "%s: no stats", s->what);
  variant = gst_structure_get_string (st, "variant");
  fail_unless (gst_structure_get_uint (st, "tunings", &o->tunings) &&
      gst_structure_get_uint (st, "tunings-from-cache", &o->from_cache) && variant != NULL,
      "%s: no tuning stats in %s", s->what, struct_text (st));
  o->variant = g_strdup (variant);
  GST_INFO ("%s: %s", s->what, struct_text (st));
  gst_structure_free (st);
}

static void
session_end (Session * s)
{
  gst_harness_teardown (s->h);
  g_free (s->what);
  memset (s, 0, sizeof (*s));
}

/* A whole run: a new element, N_FRAMES checked frames, its outcome. */
static void
run (const Filter * f, gboolean autotune, const gchar * what, Outcome * o)
{
  Session s;

  session_start (&s, f, autotune, what);
  session_frames (&s, N_FRAMES);
  session_outcome (&s, o);
  session_end (&s);
}

#define check_counts(o, t, c, what) \
  fail_unless ((o)->tunings == (t) && (o)->from_cache == (c), "%s: tunings %u, " \
      "tunings-from-cache %u (variant %s); expected %u and %u", what, (o)->tunings, \
      (o)->from_cache, (o)->variant, (guint) (t), (guint) (c))

/* Fails unless text is the stats text of one of choices (n); returns its index. */
static gint
find_choice (const Choice * choices, gint n, const gchar * text, const gchar * what)
{
  for (gint i = 0; i < n; i++) {
    gchar *t = choice_text (&choices[i]);
    gboolean same = !g_strcmp0 (t, text);

    g_free (t);
    if (same)
      return i;
  }
  fail ("%s: variant '%s' is none of the %d candidates", what, text, n);
  return -1;
}

/* ------------------------------------------------------------------- files and directories */

/* g_ptr_array_sort hands over pointers to the elements */
static gint
name_cmp (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* The names in dir, sorted, one per line; "" when dir is missing. */
static gchar *
dir_text (const gchar * dir)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  GString *s = g_string_new (NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d)))
    g_ptr_array_add (a, g_strdup (name));
  if (d)
    g_dir_close (d);
  g_ptr_array_sort (a, name_cmp);
  for (guint i = 0; i < a->len; i++)
    g_string_append_printf (s, "%s\n", (const gchar *) g_ptr_array_index (a, i));
  g_ptr_array_unref (a);
  return g_string_free (s, FALSE);
}

static gboolean
is_tune_file_name (const gchar * name)
{
  if (strlen (name) != KEY_LEN + 4 || !g_str_has_suffix (name, ".bin"))
    return FALSE;
  for (gint i = 0; i < KEY_LEN; i++)
    if (!g_ascii_isxdigit (name[i]) || g_ascii_isupper (name[i]))
      return FALSE;
  return TRUE;
}

/* The keys of the files in dir, sorted; fails on anything else there (a temporary file left
 * behind, a directory). */
static gchar **
tune_keys (const gchar * dir, const gchar * what)
{
  gchar *names = dir_text (dir);
  gchar **lines = g_strsplit (names, "\n", -1);
  GPtrArray *a = g_ptr_array_new ();

  for (gchar ** l = lines; *l && **l; l++) {
    gchar *full = g_build_filename (dir, *l, NULL);

    fail_unless (is_tune_file_name (*l) && g_file_test (full, G_FILE_TEST_IS_REGULAR),
        "%s: %s in the tuning directory %s is not a tuning file", what, *l, dir);
    g_ptr_array_add (a, g_strndup (*l, KEY_LEN));
    g_free (full);
  }
  g_ptr_array_add (a, NULL);
  g_strfreev (lines);
  g_free (names);
  return (gchar **) g_ptr_array_free (a, FALSE);
}

/* The payload of key's file in dir, which must load. */
static gchar *
load_payload (const gchar * dir, const gchar * key, const gchar * what)
{
  const gchar *why = NULL;
  gsize size = 0;
  guint8 *b = gst_cl_program_cache_load (dir, key, &size, &why);
  gchar *text;

  fail_unless (b != NULL, "%s: %s.bin does not load: %s", what, key, why);
  text = g_strndup ((const gchar *) b, size);
  g_free (b);
  return text;
}

/* Fails unless key's file in dir loads and names variant (the stats text). */
static void
check_file_names (const gchar * dir, const gchar * key, const Choice * choices, gint n,
    const gchar * variant, const gchar * what)
{
  gchar *payload = load_payload (dir, key, what);
  gchar *expect = choice_payload (&choices[find_choice (choices, n, variant, what)]);

  fail_unless (!strcmp (payload, expect), "%s: the file says '%s', the element runs '%s' "
      "('%s')", what, payload, variant, expect);
  g_free (expect);
  g_free (payload);
}

static void
store_payload (const gchar * dir, const gchar * key, const gchar * payload)
{
  GError *err = NULL;

  fail_unless (gst_cl_program_cache_store (dir, key, (const guint8 *) payload,
          strlen (payload), &err), "%s", err ? err->message : "?");
}

/* ------------------------------------------------------------------------ the element's log */

/* The element's warnings about its tuning cache (they go to the debug log, not the bus; the
 * tuner's category "cltuner" or the element's). */
static GString *tune_warnings;
/* whether this suite raised the element's or the tuner's category to WARNING (then the
 * default log function is off and everything but those warnings is handed to it) */
static gboolean raised;

/* the element's category and its tuner's */
static gboolean
is_ours (GstDebugCategory * category)
{
  const gchar *name = gst_debug_category_get_name (category);

  return !strcmp (name, "clconvolve") || !strcmp (name, "cltuner");
}

static void
capture_warnings (GstDebugCategory * category, GstDebugLevel level, const gchar * file,
    const gchar * function, gint line, GObject * object, GstDebugMessage * message,
    gpointer data)
{
  gboolean ours = is_ours (category);

  if (ours && level == GST_LEVEL_WARNING &&
      strstr (gst_debug_message_get (message), "tuning"))
    g_string_append_printf (tune_warnings, "%s\n", gst_debug_message_get (message));
  if (raised && !(ours && level == GST_LEVEL_WARNING))
    gst_debug_log_default (category, level, file, function, line, object, message, NULL);
}

/* At least WARNING for the element's and the tuner's categories while a test runs, so that
 * their warnings reach capture_warnings (on: TRUE; off: their thresholds back). */
static void
log_element_warnings (gboolean on)
{
  static GstDebugLevel before[2];
  static gboolean raised_one[2];
  GSList *all = gst_debug_get_all_categories ();

  if (on)
    raised = FALSE;
  for (GSList * l = all; l; l = l->next) {
    /* 0: the element's, 1: the tuner's */
    guint i = !strcmp (gst_debug_category_get_name (l->data), "cltuner");

    if (!is_ours (l->data))
      continue;
    if (on) {
      before[i] = gst_debug_category_get_threshold (l->data);
      raised_one[i] = before[i] < GST_LEVEL_WARNING;
      raised |= raised_one[i];
      if (raised_one[i])
        gst_debug_category_set_threshold (l->data, GST_LEVEL_WARNING);
    } else if (raised_one[i]) {
      gst_debug_category_set_threshold (l->data, before[i]);
    }
  }
  g_slist_free (all);
}

#define check_warned(needle, what) \
  fail_unless (strstr (tune_warnings->str, needle) != NULL, "%s: no warning with '%s' in the " \
      "element's log; it said:\n%s", what, needle, tune_warnings->str)

/* ------------------------------------------------------------------------------- fixture */

/* The test's own directory; GST_CLCONVOLVE_TUNE_DIR points to tuning in it, not created: the
 * element must. */
static TestEnvDir tune;

static void
setup (void)
{
  test_env_dir_begin (&tune, TUNE_ENV, "clconvolve-tune-XXXXXX", "tuning");
  tune_warnings = g_string_new (NULL);
  log_element_warnings (TRUE);
  if (raised)
    gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (capture_warnings, NULL, NULL);
}

static void
teardown (void)
{
  test_watchdog_stop ();
  gst_debug_remove_log_function (capture_warnings);
  if (raised)
    gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
  log_element_warnings (FALSE);
  g_string_free (tune_warnings, TRUE);
  tune_warnings = NULL;
  test_env_dir_end (&tune);
}

/* A first run of f into the empty tune.dir: one tuning, nothing from the disk, exactly one
 * valid file naming the variant run. Returns the key; the candidates in choices (n in *n),
 * the outcome in o. */
static gchar *
first_run (const Filter * f, Choice * choices, gint * n, Outcome * o)
{
  gchar **keys, *key;

  *n = all_choices (f->size, f->splits, choices);
  fail_unless (*n > 1, "only one candidate: nothing to tune");
  fail_if (g_file_test (tune.dir, G_FILE_TEST_EXISTS));
  run (f, TRUE, "first run", o);
  check_counts (o, 1, 0, "first run");
  keys = tune_keys (tune.dir, "first run");
  fail_unless (g_strv_length (keys) == 1, "first run: %u files in %s, expected 1",
      g_strv_length (keys), tune.dir);
  check_file_names (tune.dir, keys[0], choices, *n, o->variant, "first run");
  key = g_strdup (keys[0]);
  g_strfreev (keys);
  return key;
}

/* ---------------------------------------------------------------------------------- tests */

/* 1. a fresh directory: one tuning, one file; another size is another key (timed and stored),
 * another border too where the device compiles the border in (GPUs; on CPUs one program and
 * one choice serve every border), a key met before is not timed again */
GST_START_TEST (test_first_run)
{
  Choice choices[MAX_CHOICES];
  gint n = all_choices (f_gauss.size, TRUE, choices);
  DeviceFacts d;
  guint gpu = suite_device_facts (&d) && d.local_mem_dedicated;
  const struct
  {
    gint w, h;
    const gchar *border;
    guint tunings;              /* expected after the step */
  } steps[] = {
    {WIDTH, HEIGHT, "mirror", 1}, {64, 48, "mirror", 2}, {WIDTH, HEIGHT, "mirror", 2},
    {WIDTH, HEIGHT, "wrap", 2 + gpu}, {64, 48, "mirror", 2 + gpu}, {64, 48, "wrap", 2 + 2 * gpu},
  };
  Session s;

  fail_if (g_file_test (tune.dir, G_FILE_TEST_EXISTS));
  session_start (&s, &f_gauss, TRUE, "first run");
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++) {
    gchar *what = g_strdup_printf ("first run, step %u (%dx%d %s)", i, steps[i].w, steps[i].h,
        steps[i].border);
    gchar **keys;
    Outcome o;

    if (steps[i].w != s.width || steps[i].h != s.height)
      set_caps (&s, steps[i].w, steps[i].h);
    if (strcmp (steps[i].border, s.border))
      session_border (&s, steps[i].border);
    session_frames (&s, N_FRAMES);
    session_outcome (&s, &o);
    check_counts (&o, steps[i].tunings, 0, what);
    find_choice (choices, n, o.variant, what);
    keys = tune_keys (tune.dir, what);
    fail_unless_equals_int (g_strv_length (keys), steps[i].tunings);
    for (guint k = 0; keys[k]; k++)
      g_free (load_payload (tune.dir, keys[k], what));
    if (i == 0)
      check_file_names (tune.dir, keys[0], choices, n, o.variant, what);
    g_strfreev (keys);
    outcome_clear (&o);
    g_free (what);
  }
  session_end (&s);
}

GST_END_TEST;

/* 2. a second element on the same directory reads the choice: nothing timed, the same variant,
 * the file untouched (twice, and for a matrix that does not split) */
GST_START_TEST (test_second_run)
{
  const Filter *f = __i__ ? &f_dense : &f_gauss;
  Choice choices[MAX_CHOICES];
  gint n;
  Outcome first, o;
  gchar *key = first_run (f, choices, &n, &first);
  gchar *path = gst_cl_program_cache_file (tune.dir, key);
  gsize len = 0, len2 = 0;
  gchar *before = test_read_file (path, &len), *after, **keys;

  for (gint i = 0; i < 2; i++) {
    const gchar *what = i ? "third run" : "second run";

    run (f, TRUE, what, &o);
    check_counts (&o, 0, 1, what);
    fail_unless (!g_strcmp0 (o.variant, first.variant), "%s: variant %s, the first run's was "
        "%s", what, o.variant, first.variant);
    outcome_clear (&o);
  }
  keys = tune_keys (tune.dir, "second run");
  fail_unless (g_strv_length (keys) == 1 && !strcmp (keys[0], key), "the second run changed "
      "the set of files");
  after = test_read_file (path, &len2);
  fail_unless (len == len2 && !memcmp (before, after, len), "reading the choice rewrote %s",
      path);

  g_strfreev (keys);
  g_free (after);
  g_free (before);
  g_free (path);
  g_free (key);
  outcome_clear (&first);
}

GST_END_TEST;

typedef enum
{
  DAMAGE_TRUNCATE,              /* the first half of the file */
  DAMAGE_FLIP_PAYLOAD,          /* one bit of the payload (a digit of the method) */
  DAMAGE_GARBAGE,               /* random bytes of the same length */
  DAMAGE_EMPTY,
  DAMAGE_OTHER_KEY,             /* a valid file of another key, naming a candidate */
  DAMAGE_DIRECTORY,             /* a directory where the file should be */
  N_DAMAGES
} Damage;

static const gchar *const damage_names[N_DAMAGES] = {
  "truncated to half", "a payload bit flipped", "garbage", "empty", "another key's file",
  "a directory in its place"
};

static void
damage_file (const gchar * key, Damage d, const Choice * other, GRand * rand)
{
  gchar *path = gst_cl_program_cache_file (tune.dir, key);
  gsize len = 0;
  gchar *c = test_read_file (path, &len);

  fail_unless (len > HEADER + 16);
  switch (d) {
    case DAMAGE_TRUNCATE:
      test_write_file (path, c, len / 2);
      break;
    case DAMAGE_FLIP_PAYLOAD:{
      gchar *m = g_strstr_len (c + HEADER, len - HEADER, "method ");

      fail_unless (m != NULL);
      m[7] ^= 0x04;             /* '1'..'4' -> another digit */
      test_write_file (path, c, len);
      break;
    }
    case DAMAGE_GARBAGE:
      for (gsize i = 0; i < len; i++)
        c[i] = (gchar) g_rand_int_range (rand, 0, 256);
      test_write_file (path, c, len);
      break;
    case DAMAGE_EMPTY:
      test_write_file (path, "", 0);
      break;
    case DAMAGE_OTHER_KEY:{
      /* a file that is valid under its own key, copied over this one */
      gchar *spare = g_build_filename (tune.tmp_dir, "spare", NULL);
      gchar *other_key = gst_cl_program_cache_key ("another device", "", "");
      gchar *payload = choice_payload (other), *other_path;
      gsize olen = 0;
      gchar *o;

      store_payload (spare, other_key, payload);
      other_path = gst_cl_program_cache_file (spare, other_key);
      o = test_read_file (other_path, &olen);
      test_write_file (path, o, olen);
      g_free (o);
      g_free (other_path);
      g_free (payload);
      g_free (other_key);
      g_free (spare);
      break;
    }
    case DAMAGE_DIRECTORY:
      fail_unless (g_unlink (path) == 0);
      fail_unless (g_mkdir (path, 0700) == 0);
      break;
    case N_DAMAGES:
      g_assert_not_reached ();
  }
  g_free (c);
  g_free (path);
}

/* 3. each damage in turn: the output right, the key timed again, the file rewritten so that
 * it loads (a directory in its place stays, untouched: the element removes nothing), and the
 * run after reads it */
GST_START_TEST (test_damaged_file)
{
  Damage d = (Damage) __i__;
  GRand *rand = g_rand_new_with_seed (7000 + __i__);
  Choice choices[MAX_CHOICES];
  gint n;
  Outcome first, o;
  gchar *key = first_run (&f_gauss, choices, &n, &first);
  gchar *path = gst_cl_program_cache_file (tune.dir, key);
  gchar *what = g_strdup_printf ("file %s", damage_names[d]);
  gchar *again = g_strdup_printf ("%s, the run after", what);

  /* another key's file names a candidate other than the one chosen: obeying it would show */
  damage_file (key, d, &choices[(find_choice (choices, n, first.variant, "first run") + 1) % n],
      rand);
  run (&f_gauss, TRUE, what, &o);
  check_counts (&o, 1, 0, what);
  find_choice (choices, n, o.variant, what);
  if (d == DAMAGE_DIRECTORY) {
    gchar *inside = dir_text (path), *names = dir_text (tune.dir), *expect;

    fail_unless (g_file_test (path, G_FILE_TEST_IS_DIR), "%s: the directory is gone", what);
    fail_unless (!strcmp (inside, ""), "%s: files appeared in it:\n%s", what, inside);
    expect = g_strdup_printf ("%s.bin\n", key);
    fail_unless (!strcmp (names, expect), "%s: %s holds\n%s", what, tune.dir, names);
    check_warned ("could not write the tuning cache", what);
    g_free (expect);
    g_free (names);
    g_free (inside);
    /* once the directory is gone the key is stored again */
    fail_unless (g_rmdir (path) == 0);
    outcome_clear (&o);
    run (&f_gauss, TRUE, what, &o);
    check_counts (&o, 1, 0, what);
  }
  check_file_names (tune.dir, key, choices, n, o.variant, what);
  outcome_clear (&o);
  run (&f_gauss, TRUE, again, &o);
  check_counts (&o, 0, 1, again);

  outcome_clear (&o);
  outcome_clear (&first);
  g_free (again);
  g_free (what);
  g_free (path);
  g_free (key);
  g_rand_free (rand);
}

GST_END_TEST;

/* 3b. the file replaced by a FIFO or a link to /dev/zero (loop index): the run neither waits
 * on it nor reads it, times again with the output right, warns of nothing, and stores a
 * regular file in its place (the link replaced, not written through), which the run after
 * reads */
GST_START_TEST (test_special_file)
{
  TestSpecial sp = (TestSpecial) __i__;
  Choice choices[MAX_CHOICES];
  gint n;
  Outcome first, o;
  gchar *key = first_run (&f_gauss, choices, &n, &first);
  gchar *path = gst_cl_program_cache_file (tune.dir, key);
  gchar *what = g_strdup_printf ("the tuning file %s", test_special_names[sp]);
  gchar *again = g_strdup_printf ("%s, the run after", what);
  gchar *fifos[2] = { NULL, NULL }, **keys;
  gint64 before, after;
  GStatBuf st;

  fail_unless (g_remove (path) == 0);
  if (sp == TEST_SPECIAL_FIFO) {
    fail_unless (mkfifo (path, 0600) == 0, "mkfifo %s failed", path);
    fifos[0] = path;
  } else {
    fail_unless (symlink ("/dev/zero", path) == 0, "symlink %s failed", path);
  }

  g_string_truncate (tune_warnings, 0);
  test_watchdog_start (fifos, what);
  before = test_bytes_read ();
  run (&f_gauss, TRUE, what, &o);
  after = test_bytes_read ();
  fail_if (test_watchdog_stop (), "%s: the run waited on the FIFO for %d s", what, TEST_WATCHDOG_UNBLOCK_S);
  GST_INFO ("%s: the process read %" G_GINT64_FORMAT " bytes", what, after - before);
  fail_unless (before < 0 || after - before < TEST_WATCHDOG_READ_LIMIT, "%s: the process read %"
      G_GINT64_FORMAT " bytes during the run", what, after - before);
  check_counts (&o, 1, 0, what);
  find_choice (choices, n, o.variant, what);
  fail_unless (tune_warnings->len == 0, "%s: the element warned:\n%s", what,
      tune_warnings->str);

  /* a regular file again (tune_keys fails on anything else), naming the variant run */
  fail_unless (g_lstat (path, &st) == 0 && S_ISREG (st.st_mode), "%s: %s is no regular file",
      what, path);
  keys = tune_keys (tune.dir, what);
  fail_unless (g_strv_length (keys) == 1 && !strcmp (keys[0], key), "%s: the set of files "
      "changed", what);
  check_file_names (tune.dir, key, choices, n, o.variant, what);
  outcome_clear (&o);
  run (&f_gauss, TRUE, again, &o);
  check_counts (&o, 0, 1, again);

  outcome_clear (&o);
  outcome_clear (&first);
  g_strfreev (keys);
  g_free (again);
  g_free (what);
  g_free (path);
  g_free (key);
}

GST_END_TEST;

/* 4. valid files (key, length, checksum) whose payload is no choice this request may have:
 * ignored with a warning, timed again, rewritten. Loop index: the filter (gaussian splits,
 * the dense matrix does not, so separable is foreign to it). */
GST_START_TEST (test_foreign_choice)
{
  const Filter *f = __i__ ? &f_dense : &f_gauss;
  DeviceFacts facts;
  Choice choices[MAX_CHOICES];
  gint n;
  Outcome first;
  gchar *key = first_run (f, choices, &n, &first);
  GPtrArray *payloads = g_ptr_array_new_with_free_func (g_free);
  Choice split;
  gint block;

  fail_unless (suite_device_facts (&facts));
  block = float4_block (&facts);
  /* the current format version, naming no candidate */
#define V "clconvolve-tune 2 "
  g_ptr_array_add (payloads, g_strdup_printf (V "method 2 bx 99 by 1 split 0\n"));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 2 bx %d by 2 split 0\n", block));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 4 bx 5 by 5 split 0\n"));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 4 bx 0 by 0 split 0\n"));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 0 bx 1 by 1 split 0\n"));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 9 bx 1 by 1 split 0\n"));
  g_ptr_array_add (payloads, g_strdup_printf (V "method -1 bx 1 by 1 split 0\n"));
  /* the split planes: on a method that has none, a flag that is not 0 or 1, blockings never
   * offered, and both offered ones where the element does not split this device's planes */
  g_ptr_array_add (payloads, g_strdup_printf (V "method 2 bx %d by 1 split 1\n", block));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 4 bx 3 by 2 split 1\n"));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 4 bx 1 by 3 split 2\n"));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 4 bx 1 by 4 split 1\n"));
  if (!split_planes (&facts, f->size, &split)) {
    g_ptr_array_add (payloads, g_strdup_printf (V "method 4 bx 1 by 3 split 1\n"));
    g_ptr_array_add (payloads, g_strdup_printf (V "method 4 bx 1 by 2 split 1\n"));
  }
  /* other format versions, text that does not parse */
  g_ptr_array_add (payloads, g_strdup_printf ("clconvolve-tune 1 method 2 bx %d by 1\n",
          block));
  g_ptr_array_add (payloads, g_strdup_printf ("clconvolve-tune 3 method 2 bx %d by 1 split 0\n",
          block));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 2 bx %d by 1\n", block));
  g_ptr_array_add (payloads, g_strdup_printf (V "method 2 bx %d\n", block));
  g_ptr_array_add (payloads, g_strdup_printf ("method 2 bx %d by 1 split 0\n", block));
  g_ptr_array_add (payloads, g_strdup_printf ("not a tuning file at all"));
  /* two-pass separable as the first tuning element wrote it (bx 1 by 1, now 0 0) */
  g_ptr_array_add (payloads, g_strdup_printf (V "method 3 bx 1 by 1 split 0\n"));
  if (!f->splits)
    g_ptr_array_add (payloads, g_strdup_printf (V "method 3 bx 0 by 0 split 0\n"));
  if (!facts.local_mem_dedicated)
    g_ptr_array_add (payloads, g_strdup_printf (V "method 1 bx 1 by 1 split 0\n"));
#undef V

  for (guint i = 0; i < payloads->len; i++) {
    const gchar *payload = g_ptr_array_index (payloads, i);
    gchar *line = g_strchomp (g_strdup (payload));
    gchar *what = g_strdup_printf ("a valid file saying '%s'", line);
    Outcome o;

    store_payload (tune.dir, key, payload);
    g_string_truncate (tune_warnings, 0);
    run (f, TRUE, what, &o);
    check_counts (&o, 1, 0, what);
    check_warned ("ignoring the tuning cache file", what);
    check_file_names (tune.dir, key, choices, n, o.variant, what);
    outcome_clear (&o);
    g_free (what);
    g_free (line);
  }

  g_ptr_array_unref (payloads);
  outcome_clear (&first);
  g_free (key);
}

GST_END_TEST;

/* 5. a valid file naming a candidate is obeyed, whatever timing would choose: each candidate
 * in turn (float4 block=8 on a CPU first: the slowest there), nothing timed, the output
 * right, the file untouched; for a gaussian, a dense matrix and unsharp (the separable
 * candidates with a centre term) */
GST_START_TEST (test_choice_obeyed)
{
  const Filter *f = __i__ == 2 ? &f_unsharp : __i__ ? &f_dense : &f_gauss;
  Choice choices[MAX_CHOICES];
  gint n;
  Outcome first;
  gchar *key = first_run (f, choices, &n, &first);
  gchar *path = gst_cl_program_cache_file (tune.dir, key);

  /* the choices certainly offered on this device (tiled ones depend on the element's sums) */
  n = expected_choices (f->size, f->splits, choices, NULL, NULL);
  for (gint i = 0; i < n; i++) {
    gchar *payload = choice_payload (&choices[i]), *text = choice_text (&choices[i]);
    gchar *what = g_strdup_printf ("a valid file choosing %s", text);
    gchar *before, *after;
    gsize len = 0, len2 = 0;
    Outcome o;

    store_payload (tune.dir, key, payload);
    before = test_read_file (path, &len);
    run (f, TRUE, what, &o);
    check_counts (&o, 0, 1, what);
    fail_unless (!strcmp (o.variant, text), "%s: the element runs %s", what, o.variant);
    after = test_read_file (path, &len2);
    fail_unless (len == len2 && !memcmp (before, after, len), "%s: the file was rewritten",
        what);
    outcome_clear (&o);
    g_free (after);
    g_free (before);
    g_free (what);
    g_free (text);
    g_free (payload);
  }

  g_free (path);
  outcome_clear (&first);
  g_free (key);
}

GST_END_TEST;

/* 6. autotune=false: nothing timed, nothing read (a stored choice other than the fixed rule's
 * is not obeyed), nothing written; turned on while playing, the next frame tunes and stores */
GST_START_TEST (test_autotune_off)
{
  Choice choices[MAX_CHOICES];
  /* the certain choices come first among all */
  gint certain = expected_choices (f_gauss.size, TRUE, choices, NULL, NULL);
  gint n = all_choices (f_gauss.size, TRUE, choices);
  gchar **keys, *other = NULL, *path, *before, *after;
  gsize len = 0, len2 = 0;
  Outcome o;
  Session s;

  /* a fresh directory stays uncreated */
  run (&f_gauss, FALSE, "autotune=false", &o);
  check_counts (&o, 0, 0, "autotune=false");
  fail_unless (is_fixed_rule (o.variant, f_gauss.size), "autotune=false runs %s, not the "
      "fixed rule's variant", o.variant);
  fail_if (g_file_test (tune.dir, G_FILE_TEST_EXISTS), "autotune=false created %s", tune.dir);
  outcome_clear (&o);

  /* turned on while playing: the next frame tunes and stores */
  session_start (&s, &f_gauss, FALSE, "autotune turned on");
  session_frames (&s, 1);
  g_object_set (s.h->element, "autotune", TRUE, NULL);
  session_frames (&s, 1);
  session_outcome (&s, &o);
  session_end (&s);
  check_counts (&o, 1, 0, "autotune turned on while playing");
  keys = tune_keys (tune.dir, "autotune turned on");
  fail_unless_equals_int (g_strv_length (keys), 1);
  check_file_names (tune.dir, keys[0], choices, n, o.variant, "autotune turned on");
  outcome_clear (&o);

  /* a stored choice that is not the fixed rule's: autotune=false does not read it */
  for (gint i = 0; i < certain && !other; i++) {
    gchar *t = choice_text (&choices[i]);

    if (!is_fixed_rule (t, f_gauss.size)) {
      gchar *payload = choice_payload (&choices[i]);

      store_payload (tune.dir, keys[0], payload);
      g_free (payload);
      other = t;
    } else {
      g_free (t);
    }
  }
  fail_unless (other != NULL);
  path = gst_cl_program_cache_file (tune.dir, keys[0]);
  before = test_read_file (path, &len);
  run (&f_gauss, FALSE, "autotune=false with a stored choice", &o);
  check_counts (&o, 0, 0, "autotune=false with a stored choice");
  fail_unless (is_fixed_rule (o.variant, f_gauss.size), "autotune=false with %s stored runs "
      "%s, not the fixed rule's variant", other, o.variant);
  after = test_read_file (path, &len2);
  fail_unless (len == len2 && !memcmp (before, after, len), "autotune=false rewrote %s", path);
  outcome_clear (&o);

  g_free (after);
  g_free (before);
  g_free (path);
  g_free (other);
  g_strfreev (keys);
}

GST_END_TEST;

/* 7. GST_CLCONVOLVE_TUNE_DIR="": timed in memory only, every time; no file here, and none in
 * the default directory (the XDG cache, the build directory's under meson) */
GST_START_TEST (test_disabled)
{
  gchar *xdg = g_build_filename (g_get_user_cache_dir (), "clconvolve", NULL);
  gchar *xdg_before = tree_text (xdg), *xdg_after, *tmp_after;

  test_env_set (TUNE_ENV, "");
  for (gint i = 0; i < 2; i++) {
    const gchar *what = i ? "TUNE_DIR=\"\", again" : "TUNE_DIR=\"\"";
    Outcome o;

    run (&f_gauss, TRUE, what, &o);
    check_counts (&o, 1, 0, what);
    outcome_clear (&o);
  }
  tmp_after = tree_text (tune.tmp_dir);
  xdg_after = tree_text (xdg);
  fail_unless (!strcmp (tmp_after, ""), "TUNE_DIR=\"\": files appeared in %s:\n%s", tune.tmp_dir,
      tmp_after);
  fail_unless (!strcmp (xdg_before, xdg_after), "TUNE_DIR=\"\": %s changed from\n%s to\n%s",
      xdg, xdg_before, xdg_after);

  g_free (tmp_after);
  g_free (xdg_after);
  g_free (xdg_before);
  g_free (xdg);
}

GST_END_TEST;

/* 8. a tuning directory that cannot be created (loop index 0: a regular file; 1: under one):
 * a warning in the log, the output right, the file untouched, timed again next time */
GST_START_TEST (test_unwritable)
{
  gchar *file = g_build_filename (tune.tmp_dir, "a-file", NULL);
  gchar *dir = __i__ ? g_build_filename (file, "tuning", NULL) : g_strdup (file);
  gchar *tree, *contents;
  gsize len = 0;

  test_write_file (file, "not a directory", 15);
  test_env_set (TUNE_ENV, dir);
  for (gint i = 0; i < 2; i++) {
    gchar *what = g_strdup_printf ("tuning in %s%s", dir, i ? ", again" : "");
    Outcome o;

    g_string_truncate (tune_warnings, 0);
    run (&f_gauss, TRUE, what, &o);
    check_counts (&o, 1, 0, what);
    check_warned ("could not write the tuning cache", what);
    outcome_clear (&o);
    g_free (what);
  }
  tree = tree_text (tune.tmp_dir);
  fail_unless (!strcmp (tree, "a-file\n"), "%s holds\n%s", tune.tmp_dir, tree);
  contents = test_read_file (file, &len);
  fail_unless (len == 15 && !memcmp (contents, "not a directory", 15), "%s was changed", file);

  g_free (contents);
  g_free (tree);
  g_free (dir);
  g_free (file);
}

GST_END_TEST;

/* 9. without the variable: <XDG cache>/clconvolve/tuning, the same key as in any other
 * directory, read from there by the next run. Only where meson points XDG_CACHE_HOME
 * (TEST_TUNE_HOME, in the build directory): run by hand the test is skipped, so that the
 * suite never touches a real cache. */
GST_START_TEST (test_default_dir)
{
  Choice choices[MAX_CHOICES];
  gint n;
  Outcome first, o;
  gchar *key, *default_dir, *path;

  if (g_strcmp0 (g_getenv ("XDG_CACHE_HOME"), TEST_TUNE_HOME) ||
      g_strcmp0 (g_get_user_cache_dir (), TEST_TUNE_HOME)) {
    g_printerr ("default_dir: skipped: the XDG cache is %s, not this suite's %s (meson test "
        "sets XDG_CACHE_HOME)\n", g_get_user_cache_dir (), TEST_TUNE_HOME);
    return;
  }
  default_dir = g_build_filename (TEST_TUNE_HOME, "clconvolve", "tuning", NULL);
  key = first_run (&f_gauss, choices, &n, &first);
  path = gst_cl_program_cache_file (default_dir, key);
  g_remove (path);

  test_env_set (TUNE_ENV, NULL);
  run (&f_gauss, TRUE, "default directory", &o);
  check_counts (&o, 1, 0, "default directory");
  check_file_names (default_dir, key, choices, n, o.variant, "default directory");
  outcome_clear (&o);
  run (&f_gauss, TRUE, "default directory, again", &o);
  check_counts (&o, 0, 1, "default directory, again");
  outcome_clear (&o);

  g_free (path);
  g_free (default_dir);
  g_free (key);
  outcome_clear (&first);
}

GST_END_TEST;

/* 11. clconvolve-warmup: --list names the default device; a warm-up of the filter fills the
 * directory with its choice and says so in a progress line, and an element started afterwards,
 * not waiting for jobs, times nothing and runs that choice from the first frame (the program
 * loaded from the program cache; its frames checked against the reference); the helper
 * mode refuses arguments that do not make a job */
GST_START_TEST (test_warmup)
{
  gchar *size = g_strdup_printf ("%d", f_gauss.size);
  gchar *res = g_strdup_printf ("%dx%d", WIDTH, HEIGHT);
  gchar *list_argv[] = { (gchar *) WARMUP_PATH, (gchar *) "--list", NULL };
  gchar *warm_argv[] = { (gchar *) WARMUP_PATH, (gchar *) "--format", (gchar *) "RGBA",
    (gchar *) "--resolution", res, (gchar *) "--kernel", (gchar *) f_gauss.kernel,
    (gchar *) "--size", size, (gchar *) "--set", (gchar *) "border=mirror", NULL
  };
  gchar *job_argv[] = { (gchar *) WARMUP_PATH, (gchar *) "--job", (gchar *) "tune", NULL };
  gchar *out = NULL, *err = NULL, **keys, *saved_sync;
  gint status = -1;
  GError *error = NULL;
  Outcome o;
  Session s;
  GstStructure *st = NULL;
  guint64 generic = G_MAXUINT64;
  TestEnvDir programs;

  fail_unless (g_spawn_sync (NULL, list_argv, NULL, 0, NULL, NULL, &out, &err, &status,
          &error), "could not run %s: %s", WARMUP_PATH, error ? error->message : "?");
  fail_unless (g_spawn_check_wait_status (status, NULL) && strstr (out, "device=\"\"") &&
      strstr (out, "platform: "), "--list: status %d, output:\n%s%s", status, out, err);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  test_env_dir_begin (&programs, "GST_CLCONVOLVE_CACHE_DIR", "clconvolve-programs-XXXXXX",
      "programs");
  fail_if (g_file_test (tune.dir, G_FILE_TEST_EXISTS));
  fail_unless (g_spawn_sync (NULL, warm_argv, NULL, 0, NULL, NULL, &out, &err, &status,
          &error));
  fail_unless (g_spawn_check_wait_status (status, NULL), "warm-up: status %d, output:\n%s%s",
      status, out, err);
  fail_unless (strstr (out, "tune method=auto, 5x5") && strstr (out, ": done, ") &&
      strstr (out, "1 job done, 0 failed"), "warm-up: no progress line of its tuning job:\n%s",
      out);
  keys = tune_keys (tune.dir, "after the warm-up");
  fail_unless_equals_int (g_strv_length (keys), 1);
  g_strfreev (keys);
  /* an element that does not wait for its jobs (as in a live pipeline) finds the choice and
   * the program in the caches: the specialised kernel from the first frame */
  saved_sync = g_strdup (g_getenv (SYNC_ENV));
  test_env_set (SYNC_ENV, NULL);
  session_start (&s, &f_gauss, TRUE, "after the warm-up");
  session_frames (&s, N_FRAMES);
  session_outcome (&s, &o);
  g_object_get (s.h->element, "stats", &st, NULL);
  fail_unless (gst_structure_get_uint64 (st, "generic-frames", &generic) && generic == 0,
      "after the warm-up: %s", struct_text (st));
  gst_structure_free (st);
  session_end (&s);
  test_env_set (SYNC_ENV, saved_sync);
  g_free (saved_sync);
  check_counts (&o, 0, 1, "after the warm-up");
  fail_if (!strcmp (o.variant, "generic"));
  outcome_clear (&o);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  fail_unless (g_spawn_sync (NULL, job_argv, NULL, 0, NULL, NULL, &out, &err, &status,
          &error));
  fail_unless (g_spawn_check_wait_status (status, NULL) == FALSE && strstr (err, "expected: "),
      "--job with too few arguments: status %d, stderr:\n%s", status, err);
  g_free (out);
  g_free (err);
  g_free (size);
  g_free (res);
  test_env_dir_end (&programs);
}

GST_END_TEST;

static Suite *
tune_suite (void)
{
  Suite *s = suite_create ("tune");
  TCase *tc = tcase_create ("tune");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_first_run);
  tcase_add_loop_test (tc, test_second_run, 0, 2);
  tcase_add_loop_test (tc, test_damaged_file, 0, N_DAMAGES);
  tcase_add_loop_test (tc, test_special_file, 0, TEST_N_SPECIALS);
  tcase_add_loop_test (tc, test_foreign_choice, 0, 2);
  tcase_add_loop_test (tc, test_choice_obeyed, 0, 3);
  tcase_add_test (tc, test_autotune_off);
  tcase_add_test (tc, test_disabled);
  tcase_add_loop_test (tc, test_unwritable, 0, 2);
  tcase_add_test (tc, test_default_dir);
  tcase_add_test (tc, test_warmup);
  return s;
}

/* The candidates' programs go through a program cache of the process's own (unless the
 * environment names one): every test tunes from a fresh context, and without a cache each
 * tuning builds all its candidates from source again, which PoCL's own cache does not make
 * cheap (docs/kernels.md has the counts). What this suite checks is the tuning cache; the
 * program cache has its own suite. */
int
main (int argc, char **argv)
{
  const gchar *var = "GST_CLCONVOLVE_CACHE_DIR";
  const gchar *given = g_getenv (var);
  gchar *tmp = NULL, *dir = NULL;
  int rc;

  if (!given || !*given) {
    tmp = g_dir_make_tmp ("clconvolve-tune-programs-XXXXXX", NULL);
    if (tmp) {
      dir = g_build_filename (tmp, "programs", NULL);
      g_setenv (var, dir, TRUE);
    }
  }
  rc = run_device_suite (argc, argv, tune_suite, "tune", __FILE__, NULL);
  if (tmp) {
    remove_tree (tmp);
    g_free (tmp);
    g_free (dir);
  }
  return rc;
}
