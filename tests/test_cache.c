/* clconvolve: the on-disk program cache, seen from pipelines
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* What the program cache must keep true, for an RGBA configuration (one program) and an NV12
 * one with planes=y+u+v (a luma and a chroma program):
 *   - cold (empty cache directory): the element builds its programs (stats programs-built),
 *     loads none (programs-from-cache) and leaves one valid <key>.bin per program built, and
 *     nothing else, in a directory it creates;
 *   - warm (a new context, i.e. every pipeline, buffer and element of the cold run gone):
 *     builds none, loads every one, and the frames are byte-identical to the cold run's, which
 *     match the plain-C reference (tests/reference.c; 1 LSB plus the rounding-tie rule of
 *     common.h), so a cache that handed back a wrong program would show;
 *   - a damaged file (truncated, a flipped byte, garbage, empty, another program's file, a
 *     valid file of a junk binary that the driver refuses) is rebuilt from source: the same
 *     frames, exactly one program built, no bus error, and a valid file left behind that the
 *     next run loads;
 *   - a FIFO, or a symbolic link to /dev/zero, in place of every program file is neither
 *     waited on nor read: the run builds every program, gets the same frames, stops, and
 *     leaves valid files in their places (a watchdog releases a run blocked on a FIFO and
 *     fails the test, and the bytes the process read during the run are counted);
 *   - GST_CLCONVOLVE_CACHE_DIR="" writes nothing anywhere and loads nothing;
 *   - a directory that cannot be created (under or at a regular file) costs only the cache;
 *   - without the variable the files go to <XDG cache>/clconvolve/programs (meson points
 *     XDG_CACHE_HOME into the build directory for this suite; run by hand without that, the
 *     test is skipped so that the suite never touches a real cache).
 *
 * The element's context reads the variable when it is created, and there is one context per
 * device per process, alive while any element, allocator or buffer of it is: every run below
 * stops and unrefs its pipeline and keeps no buffer, so each run gets a new context. The
 * meson environment sets GST_CLCONVOLVE_CACHE_DIR="" so that main's device check writes
 * nothing; each test sets its own directory and puts the variable back at its end. */

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "convkernel.h"
#include "gstclprogramcache.h"
#include "testfs.h"
#include "reference.h"

#define WIDTH 64
#define HEIGHT 48
#define N_FRAMES 2
#define HEADER 112              /* magic, key, length, checksum: see gstclprogramcache.c */

/* ------------------------------------------------------------------------ configurations */

typedef struct
{
  const gchar *format, *pattern;
  gint size;                    /* gaussian of this size, sigma and divisor automatic */
  const gchar *border;
  const gchar *planes;          /* the planes property */
  guint min_programs;           /* programs a cold run must at least build */
  gint n_planes;
  gint xsub[2], ysub[2];        /* each plane's subsampling */
  gint channels[2];             /* samples per pixel of each plane */
  guint passmask[2];            /* samples of a pixel that come out unchanged */
} Config;

static const Config configs[] = {
  {"RGBA", "pinwheel", 5, "clamp", "auto", 1, 1, {1}, {1}, {4}, {0x8}},
  {"NV12", "colors", 7, "mirror", "y+u+v", 2, 2, {1, 2}, {1, 2}, {1, 2}, {0, 0}},
};

static gint
plane_width (const Config * c, gint p)
{
  return (WIDTH + c->xsub[p] - 1) / c->xsub[p];
}

static gint
plane_height (const Config * c, gint p)
{
  return (HEIGHT + c->ysub[p] - 1) / c->ysub[p];
}

static gsize
plane_row (const Config * c, gint p)
{
  return (gsize) plane_width (c, p) * c->channels[p];
}

static gsize
plane_bytes (const Config * c, gint p)
{
  return plane_row (c, p) * plane_height (c, p);
}

static gsize
frame_bytes (const Config * c)
{
  gsize n = 0;

  for (gint p = 0; p < c->n_planes; p++)
    n += plane_bytes (c, p);
  return n;
}

static gchar *
source_desc (const Config * c)
{
  return g_strdup_printf ("videotestsrc num-buffers=%d pattern=%s "
      "! video/x-raw,format=%s,width=%d,height=%d,framerate=30/1", N_FRAMES, c->pattern,
      c->format, WIDTH, HEIGHT);
}

static gchar *
pipeline_desc (const Config * c, gboolean convolve)
{
  gchar *src = source_desc (c);
  gchar *d = convolve ?
      /* autotune=false: the programs of the fixed rules' choice only (timing auto's candidates
       * would build every one of them, cold, which is the tune suite's business) */
      g_strdup_printf ("%s ! clconvolve name=c kernel=gaussian size=%d border=%s planes=%s "
      "autotune=false ! appsink name=sink sync=false", src, c->size, c->border, c->planes) :
      g_strdup_printf ("%s ! appsink name=sink sync=false", src);

  g_free (src);
  return d;
}

/* -------------------------------------------------------------------------------- runs */

typedef struct
{
  guint built, loaded;          /* stats programs-built, programs-from-cache */
  guint8 *frames;               /* N_FRAMES tight frames, plane after plane */
} Run;

typedef struct
{
  const Config *c;
  guint8 *frames;
  const gchar *what;
} Capture;

static void
capture_frame (GstSample * sample, guint index, gpointer data)
{
  Capture *cap = data;
  const Config *c = cap->c;
  GstVideoInfo info;
  GstVideoFrame frame;
  guint8 *dst = cap->frames + index * frame_bytes (c);

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless (!strcmp (GST_VIDEO_INFO_NAME (&info), c->format) &&
      GST_VIDEO_INFO_WIDTH (&info) == WIDTH && GST_VIDEO_INFO_HEIGHT (&info) == HEIGHT,
      "%s: the sink got %s %dx%d", cap->what, GST_VIDEO_INFO_NAME (&info),
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info));
  fail_unless_equals_int (GST_VIDEO_INFO_N_PLANES (&info), c->n_planes);
  fail_unless (gst_video_frame_map (&frame, &info, gst_sample_get_buffer (sample),
          GST_MAP_READ));
  for (gint p = 0; p < c->n_planes; p++) {
    const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);

    for (gint y = 0; y < plane_height (c, p); y++)
      memcpy (dst + (gsize) y * plane_row (c, p), src + (gsize) y * stride, plane_row (c, p));
    dst += plane_bytes (c, p);
  }
  gst_video_frame_unmap (&frame);
}

/* Fails the check on a warning on pipe's bus (the element is to post none about its cache). */
static void
check_no_warning (GstElement * pipe, const gchar * what)
{
  GstMessage *msg = gst_bus_pop_filtered (GST_ELEMENT_BUS (pipe), GST_MESSAGE_WARNING);

  if (msg) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_warning (msg, &err, &debug);
    fail ("%s: warning: %s (%s)", what, err->message, debug);
  }
}

/* Runs c (with clconvolve or, to get the input frames, without) to EOS and stops it: the
 * pipeline is unreffed and no buffer is kept, so the device's context is gone afterwards. */
static void
run_config (const Config * c, gboolean convolve, const gchar * label, Run * r)
{
  gchar *desc = pipeline_desc (c, convolve);
  gchar *what = g_strdup_printf ("%s run: %s", label, desc);
  Capture cap = { c, g_malloc0 (N_FRAMES * frame_bytes (c)), what };
  GstElement *pipe = start_pipeline (desc, FALSE);
  GstStructure *st = NULL;
  GWeakRef ctx_ref;
  GObject *ctx = NULL;

  memset (r, 0, sizeof (*r));
  fail_unless_equals_int (pull_samples (pipe, N_FRAMES, what, capture_frame, &cap), N_FRAMES);
  check_no_warning (pipe, what);
  if (convolve) {
    g_object_get (element_by_name (pipe, "c"), "context", &ctx, NULL);
    fail_unless (ctx != NULL, "%s: no context", what);
    g_object_get (element_by_name (pipe, "c"), "stats", &st, NULL);
    fail_unless (st != NULL, "%s: no stats", what);
    fail_unless (gst_structure_get_uint (st, "programs-built", &r->built) &&
        gst_structure_get_uint (st, "programs-from-cache", &r->loaded),
        "%s: no program counts in %s", what, struct_text (st));
    GST_INFO ("%s: programs built %u, from the cache %u", what, r->built, r->loaded);
    gst_structure_free (st);
  }
  stop_pipeline (pipe);
  /* the next run's counts are those of a new context (GST_CLCONVOLVE_KEEP_CONTEXT=0) only once
   * this one is gone: a reference may outlive the pipeline for a moment */
  g_weak_ref_init (&ctx_ref, ctx);
  g_clear_object (&ctx);
  for (gint i = 0; !g_strcmp0 (g_getenv ("GST_CLCONVOLVE_KEEP_CONTEXT"), "0") && i < 1000; i++) {
    ctx = g_weak_ref_get (&ctx_ref);
    if (!ctx)
      break;
    g_clear_object (&ctx);
    g_usleep (10 * 1000);
  }
  ctx = g_weak_ref_get (&ctx_ref);
  g_weak_ref_clear (&ctx_ref);
  fail_unless (ctx == NULL || g_strcmp0 (g_getenv ("GST_CLCONVOLVE_KEEP_CONTEXT"), "0"),
      "%s: the context is still alive 10 s after the pipeline", what);
  g_clear_object (&ctx);
  r->frames = cap.frames;
  g_free (what);
  g_free (desc);
}

static void
run_clear (Run * r)
{
  g_clear_pointer (&r->frames, g_free);
}

/* Fails unless out's frames are in's convolved as c says, by the reference: 1 LSB, the
 * rounding-tie rule, passed samples bit-exact, and the filter changes enough samples of every
 * plane for a wrong program to show. */
static void
check_reference (const Config * c, const Run * in, const Run * out, const gchar * what)
{
  gdouble k[CONV_MAX_SIZE * CONV_MAX_SIZE], divisor;
  gsize fb = frame_bytes (c);

  conv_preset_generate (CONV_PRESET_GAUSSIAN, c->size, 0.0, 45.0, k);
  divisor = conv_auto_divisor (k, c->size);
  for (gint p = 0, offset = 0; p < c->n_planes; offset += plane_bytes (c, p), p++) {
    gsize bytes = plane_bytes (c, p), changed = 0, samples = 0;
    guint8 *expect = g_malloc (bytes), *lo = g_malloc (bytes), *hi = g_malloc (bytes);
    gint w = plane_width (c, p), h = plane_height (c, p), ch = c->channels[p];
    gint row = (gint) plane_row (c, p);
    RefBorder border = border_from_nick (c->border);

    for (guint f = 0; f < N_FRAMES; f++) {
      const guint8 *src = in->frames + f * fb + offset, *got = out->frames + f * fb + offset;
      guint off = 0;
      gsize compared = 0;

      ref_convolve_u8 (src, row, expect, row, w, h, ch, c->passmask[p], k, c->size, divisor,
          0.0, border);
      ref_convolve_u8 (src, row, lo, row, w, h, ch, c->passmask[p], k, c->size, divisor,
          -TIE_MARGIN, border);
      ref_convolve_u8 (src, row, hi, row, w, h, ch, c->passmask[p], k, c->size, divisor,
          TIE_MARGIN, border);
      for (gsize i = 0; i < bytes; i++) {
        gint s = (gint) (i % ch), d = abs ((gint) got[i] - (gint) expect[i]);

        /* (no check macro per sample: each one records its location, which is slow) */
        if (c->passmask[p] & (1u << s)) {
          if (got[i] != src[i])
            fail ("%s: frame %u plane %d pixel (%d,%d) sample %d should pass unchanged: %u, "
                "input %u", what, f, p, (gint) (i % row) / ch, (gint) (i / row), s, got[i],
                src[i]);
          continue;
        }
        if (d > TOLERANCE)
          fail ("%s: frame %u plane %d pixel (%d,%d) sample %d: got %u, reference %u", what,
              f, p, (gint) (i % row) / ch, (gint) (i / row), s, got[i], expect[i]);
        off += d != 0 && lo[i] == hi[i];
        changed += expect[i] != src[i];
        compared++;
      }
      samples += compared;
      fail_unless (off_away_from_ties_allowed (off, compared), "%s: frame %u plane %d: %u of "
          "%" G_GSIZE_FORMAT " samples away from rounding ties off by 1 (a systematic error)",
          what, f, p, off, compared);
    }
    fail_unless (changed > samples / 20, "%s: the filter changes only %" G_GSIZE_FORMAT
        " of %" G_GSIZE_FORMAT " samples of plane %d: the test content is too flat", what,
        changed, samples, p);
    g_free (hi);
    g_free (lo);
    g_free (expect);
  }
}

static void
check_same_frames (const Config * c, const Run * a, const Run * b, const gchar * what)
{
  gsize fb = frame_bytes (c);

  if (memcmp (a->frames, b->frames, N_FRAMES * fb) == 0)
    return;
  for (gsize i = 0; i < N_FRAMES * fb; i++)
    if (a->frames[i] != b->frames[i])
      fail ("%s: frame %" G_GSIZE_FORMAT " byte %" G_GSIZE_FORMAT " is %u, was %u in the first "
          "run", what, i / fb, i % fb, b->frames[i], a->frames[i]);
}

/* ------------------------------------------------------------------- files and directories */

/* g_ptr_array_sort hands over pointers to the elements. */
static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

static gboolean
is_program_file_name (const gchar * name)
{
  if (strlen (name) != 64 + 4 || !g_str_has_suffix (name, ".bin"))
    return FALSE;
  for (gint i = 0; i < 64; i++)
    if (!g_ascii_isxdigit (name[i]) || g_ascii_isupper (name[i]))
      return FALSE;
  return TRUE;
}

/* The keys of the program files in dir, sorted; fails the check on anything else there (a
 * temporary file left behind, a directory). */
static gchar **
program_keys (const gchar * dir, const gchar * what)
{
  GPtrArray *a = g_ptr_array_new ();
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d))) {
    gchar *full = g_build_filename (dir, name, NULL);

    fail_unless (is_program_file_name (name) && g_file_test (full, G_FILE_TEST_IS_REGULAR),
        "%s: %s in the cache directory %s is not a program file", what, name, dir);
    g_ptr_array_add (a, g_strndup (name, 64));
    g_free (full);
  }
  if (d)
    g_dir_close (d);
  g_ptr_array_sort (a, compare_names);
  g_ptr_array_add (a, NULL);
  return (gchar **) g_ptr_array_free (a, FALSE);
}


/* Fails unless key's file in dir is one the loader accepts. */
static void
check_valid_file (const gchar * dir, const gchar * key, const gchar * what)
{
  const gchar *why = NULL;
  gsize size = 0;
  guint8 *b = gst_cl_program_cache_load (dir, key, &size, &why);

  fail_unless (b != NULL, "%s: %s.bin is not valid: %s", what, key, why);
  g_free (b);
}

/* ------------------------------------------------------------------------------- fixture */

/* The test's own directory; GST_CLCONVOLVE_CACHE_DIR points to programs in it, not created:
 * the element must. */
static TestEnvDir cache;

static void
setup (void)
{
  test_env_dir_begin (&cache, GST_CL_PROGRAM_CACHE_ENV, "clconvolve-cache-XXXXXX", "programs");
}

static void
teardown (void)
{
  stop_leftover_pipelines ();
  test_watchdog_stop ();
  test_env_dir_end (&cache);
}

/* The input frames, and a cold run into the empty cache.dir checked against the reference:
 * one valid file per program built, nothing loaded. Returns the keys. */
static gchar **
cold_run (const Config * c, Run * input, Run * cold)
{
  gchar **keys;

  fail_if (g_file_test (cache.dir, G_FILE_TEST_EXISTS));
  run_config (c, FALSE, "input", input);
  run_config (c, TRUE, "cold", cold);
  fail_unless (cold->built >= c->min_programs && cold->loaded == 0, "%s cold: built %u, "
      "loaded %u; expected at least %u built, none loaded (a context from an earlier run "
      "still alive?)", c->format, cold->built, cold->loaded, c->min_programs);
  check_reference (c, input, cold, "cold");
  keys = program_keys (cache.dir, "cold");
  fail_unless_equals_int (g_strv_length (keys), cold->built);
  for (guint i = 0; keys[i]; i++)
    check_valid_file (cache.dir, keys[i], "cold");
  return keys;
}

/* A run that must load all n programs from the cache and give the frames of first. */
static void
warm_run (const Config * c, const Run * first, guint n, const gchar * label)
{
  Run r;

  run_config (c, TRUE, label, &r);
  fail_unless (r.built == 0 && r.loaded == n, "%s %s: built %u, loaded %u; expected all %u "
      "from the cache", c->format, label, r.built, r.loaded, n);
  check_same_frames (c, first, &r, label);
  run_clear (&r);
}

/* ---------------------------------------------------------------------------------- tests */

/* a. cold, then warm: the same frames, every program from the cache, the files untouched */
GST_START_TEST (test_cold_warm)
{
  const Config *c = &configs[__i__];
  Run input, cold;
  gchar **keys = cold_run (c, &input, &cold), **after;
  gchar **contents = g_new0 (gchar *, g_strv_length (keys) + 1);
  gsize *lens = g_new0 (gsize, g_strv_length (keys) + 1);

  for (guint i = 0; keys[i]; i++) {
    gchar *path = gst_cl_program_cache_file (cache.dir, keys[i]);
    contents[i] = test_read_file (path, &lens[i]);
    g_free (path);
  }

  warm_run (c, &cold, cold.built, "warm");
  warm_run (c, &cold, cold.built, "second warm");

  /* loading does not rewrite: the same files, byte for byte */
  after = program_keys (cache.dir, "warm");
  fail_unless (g_strv_equal ((const gchar * const *) keys, (const gchar * const *) after),
      "the warm runs changed the set of program files");
  for (guint i = 0; keys[i]; i++) {
    gchar *path = gst_cl_program_cache_file (cache.dir, keys[i]);
    gsize len = 0;
    gchar *now = test_read_file (path, &len);

    fail_unless (len == lens[i] && !memcmp (now, contents[i], len), "%s.bin changed in a "
        "warm run", keys[i]);
    g_free (now);
    g_free (path);
  }

  g_strfreev (after);
  g_strfreev (contents);
  g_free (lens);
  g_strfreev (keys);
  run_clear (&cold);
  run_clear (&input);
}

GST_END_TEST;

typedef enum
{
  DAMAGE_TRUNCATE,              /* the first half of the file */
  DAMAGE_FLIP_PAYLOAD,          /* one bit of the binary */
  DAMAGE_GARBAGE,               /* random bytes of the same length */
  DAMAGE_EMPTY,
  DAMAGE_OTHER_FILE,            /* another program's file copied over it */
  DAMAGE_JUNK_BINARY,           /* a valid file (key, length, checksum) of a junk binary */
  N_DAMAGES
} Damage;

/* Not here: a valid file (key, length, checksum) of a truncated real binary. The loader passes
 * it on (nothing in the file is wrong) and PoCL 3.1 aborts or crashes in
 * clCreateProgramWithBinary (pocl_binary_deserialize: "buffer <= end_of_buffer"), so only a
 * driver that checks its binaries survives it; damage after the file was written is caught by
 * the checksum before the driver sees it. */

static const gchar *const damage_names[N_DAMAGES] = {
  "truncated to half", "a payload bit flipped", "garbage", "empty",
  "another program's file", "a valid file of a junk binary"
};

/* Damages key's file in cache.dir; other is a different key's file (in cache.dir, or
 * elsewhere when there is one program). */
static void
damage_file (const gchar * key, const gchar * other_path, Damage d, GRand * rand)
{
  gchar *path = gst_cl_program_cache_file (cache.dir, key);
  gsize len = 0;
  gchar *c = test_read_file (path, &len);
  GError *err = NULL;

  fail_unless (len > HEADER + 16);
  switch (d) {
    case DAMAGE_TRUNCATE:
      test_write_file (path, c, len / 2);
      break;
    case DAMAGE_FLIP_PAYLOAD:
      c[HEADER + (len - HEADER) / 3] ^= 0x04;
      test_write_file (path, c, len);
      break;
    case DAMAGE_GARBAGE:
      for (gsize i = 0; i < len; i++)
        c[i] = (gchar) g_rand_int_range (rand, 0, 256);
      test_write_file (path, c, len);
      break;
    case DAMAGE_EMPTY:
      test_write_file (path, "", 0);
      break;
    case DAMAGE_OTHER_FILE:{
      gsize olen = 0;
      gchar *o = test_read_file (other_path, &olen);

      test_write_file (path, o, olen);
      g_free (o);
      break;
    }
    case DAMAGE_JUNK_BINARY:{
      gsize n = len - HEADER;
      guint8 *junk = g_malloc (n);

      for (gsize i = 0; i < n; i++)
        junk[i] = (guint8) g_rand_int_range (rand, 0, 256);
      fail_unless (gst_cl_program_cache_store (cache.dir, key, junk, n, &err), "%s",
          err ? err->message : "?");
      g_free (junk);
      break;
    }
    case N_DAMAGES:
      g_assert_not_reached ();
  }
  g_free (c);
  g_free (path);
}

/* b. each file in turn, damaged each way: rebuilt (only that one), the same frames, no error,
 * a valid file again, and the run after loads everything again */
GST_START_TEST (test_damaged_files)
{
  const Config *c = &configs[__i__];
  GRand *rand = g_rand_new_with_seed (4242 + __i__);
  Run input, cold;
  gchar **keys = cold_run (c, &input, &cold);
  guint n = g_strv_length (keys);
  gchar *spare_dir = g_build_filename (cache.tmp_dir, "spare", NULL);

  warm_run (c, &cold, n, "warm");
  for (guint f = 0; f < n; f++) {
    gchar *other_path;

    if (n > 1) {
      other_path = gst_cl_program_cache_file (cache.dir, keys[(f + 1) % n]);
    } else {
      /* one program: a valid file of another key, holding this very binary */
      gchar *path = gst_cl_program_cache_file (cache.dir, keys[f]), *other_key;
      gsize len = 0;
      gchar *bin = test_read_file (path, &len);
      GError *err = NULL;

      other_key = gst_cl_program_cache_key ("another device", "", "");
      fail_unless (gst_cl_program_cache_store (spare_dir, other_key,
              (const guint8 *) bin + HEADER, len - HEADER, &err), "%s",
          err ? err->message : "?");
      other_path = gst_cl_program_cache_file (spare_dir, other_key);
      g_free (other_key);
      g_free (bin);
      g_free (path);
    }

    for (gint d = 0; d < N_DAMAGES; d++) {
      gchar *label = g_strdup_printf ("%s.bin (%u of %u) %s", keys[f], f + 1, n,
          damage_names[d]);
      gchar *again = g_strdup_printf ("%s, the run after", label);
      gchar **now;
      Run r;

      damage_file (keys[f], other_path, (Damage) d, rand);
      run_config (c, TRUE, label, &r);
      fail_unless (r.built == 1 && r.loaded == n - 1, "%s: built %u, loaded %u; expected "
          "1 built, %u loaded", label, r.built, r.loaded, n - 1);
      check_same_frames (c, &cold, &r, label);
      now = program_keys (cache.dir, label);
      fail_unless (g_strv_equal ((const gchar * const *) keys, (const gchar * const *) now),
          "%s: the set of program files changed", label);
      for (guint i = 0; keys[i]; i++)
        check_valid_file (cache.dir, keys[i], label);
      warm_run (c, &cold, n, again);
      g_strfreev (now);
      run_clear (&r);
      g_free (again);
      g_free (label);
    }
    g_free (other_path);
  }

  g_free (spare_dir);
  g_strfreev (keys);
  run_clear (&cold);
  run_clear (&input);
  g_rand_free (rand);
}

GST_END_TEST;

/* b2. every program file replaced by a FIFO or a link to /dev/zero, for each configuration
 * (loop index: configuration * TEST_N_SPECIALS + special): the run neither waits on them nor reads
 * them, builds every program, gives the same frames, stops, and stores valid files in their
 * places (the link replaced, not written through), which the run after loads */
GST_START_TEST (test_special_files)
{
  const Config *c = &configs[__i__ / TEST_N_SPECIALS];
  TestSpecial s = (TestSpecial) (__i__ % TEST_N_SPECIALS);
  Run input, cold, r;
  gchar **keys = cold_run (c, &input, &cold), **now;
  guint n = g_strv_length (keys);
  GPtrArray *fifos = g_ptr_array_new_with_free_func (g_free);
  gchar *what = g_strdup_printf ("%s: every program file %s", c->format, test_special_names[s]);
  gchar *again = g_strdup_printf ("%s, the run after", what);
  gint64 before, after;
  gboolean blocked;

  for (guint i = 0; keys[i]; i++) {
    gchar *path = gst_cl_program_cache_file (cache.dir, keys[i]);

    fail_unless (g_remove (path) == 0);
    if (s == TEST_SPECIAL_FIFO) {
      fail_unless (mkfifo (path, 0600) == 0, "mkfifo %s failed", path);
      g_ptr_array_add (fifos, g_strdup (path));
    } else {
      fail_unless (symlink ("/dev/zero", path) == 0, "symlink %s failed", path);
    }
    g_free (path);
  }
  g_ptr_array_add (fifos, NULL);

  test_watchdog_start ((gchar **) fifos->pdata, what);
  before = test_bytes_read ();
  run_config (c, TRUE, what, &r);
  after = test_bytes_read ();
  blocked = test_watchdog_stop ();
  fail_if (blocked, "%s: the run waited on a FIFO for %d s", what, TEST_WATCHDOG_UNBLOCK_S);
  GST_INFO ("%s: the process read %" G_GINT64_FORMAT " bytes", what, after - before);
  fail_unless (before < 0 || after - before < TEST_WATCHDOG_READ_LIMIT, "%s: the process read %"
      G_GINT64_FORMAT " bytes during the run", what, after - before);
  fail_unless (r.built == n && r.loaded == 0, "%s: built %u, loaded %u; expected all %u "
      "built", what, r.built, r.loaded, n);
  check_reference (c, &input, &r, what);
  check_same_frames (c, &cold, &r, what);
  run_clear (&r);

  /* regular files again (program_keys fails on anything else), valid, loaded next time */
  now = program_keys (cache.dir, what);
  fail_unless (g_strv_equal ((const gchar * const *) keys, (const gchar * const *) now),
      "%s: the set of program files changed", what);
  for (guint i = 0; keys[i]; i++) {
    gchar *path = gst_cl_program_cache_file (cache.dir, keys[i]);
    GStatBuf st;

    fail_unless (g_lstat (path, &st) == 0 && S_ISREG (st.st_mode), "%s: %s is no regular "
        "file", what, path);
    check_valid_file (cache.dir, keys[i], what);
    g_free (path);
  }
  warm_run (c, &cold, n, again);

  g_strfreev (now);
  g_free (again);
  g_free (what);
  g_ptr_array_unref (fifos);
  g_strfreev (keys);
  run_clear (&cold);
  run_clear (&input);
}

GST_END_TEST;

/* c. GST_CLCONVOLVE_CACHE_DIR="": nothing loaded, nothing written, not even to the default
 * directory, twice in a row */
GST_START_TEST (test_disabled)
{
  const Config *c = &configs[__i__];
  gchar *default_dir = g_build_filename (g_get_user_cache_dir (), "clconvolve", NULL);
  gchar *default_before = tree_text (default_dir), *tmp_before, *tmp_after, *default_after;
  Run input, r;

  run_config (c, FALSE, "input", &input);
  tmp_before = tree_text (cache.tmp_dir);
  test_env_set (GST_CL_PROGRAM_CACHE_ENV, "");
  for (gint i = 0; i < 2; i++) {
    run_config (c, TRUE, i ? "second disabled" : "disabled", &r);
    fail_unless (r.built >= c->min_programs && r.loaded == 0, "%s disabled: built %u, "
        "loaded %u", c->format, r.built, r.loaded);
    check_reference (c, &input, &r, "disabled");
    run_clear (&r);
  }
  tmp_after = tree_text (cache.tmp_dir);
  default_after = tree_text (default_dir);
  fail_unless (!strcmp (tmp_before, "") && !strcmp (tmp_after, ""),
      "disabled: files appeared in %s:\n%s", cache.tmp_dir, tmp_after);
  fail_unless (!strcmp (default_before, default_after), "disabled: %s changed from\n%s to\n%s",
      default_dir, default_before, default_after);

  g_free (default_after);
  g_free (tmp_after);
  g_free (tmp_before);
  g_free (default_before);
  g_free (default_dir);
  run_clear (&input);
}

GST_END_TEST;

/* d. a cache directory that cannot be created (loop index bit 0: under a regular file, or
 * the regular file itself; bit 1: the configuration): the element works as without a cache */
GST_START_TEST (test_unwritable)
{
  const Config *c = &configs[__i__ >> 1];
  gchar *file = g_build_filename (cache.tmp_dir, "a-file", NULL);
  gchar *dir = (__i__ & 1) ? g_strdup (file) : g_build_filename (file, "programs", NULL);
  gchar *tree, *contents;
  gsize len = 0;
  Run input, r;

  run_config (c, FALSE, "input", &input);
  test_write_file (file, "not a directory", 15);
  test_env_set (GST_CL_PROGRAM_CACHE_ENV, dir);
  for (gint i = 0; i < 2; i++) {
    gchar *what = g_strdup_printf ("cache in %s%s", dir, i ? ", again" : "");

    run_config (c, TRUE, what, &r);
    fail_unless (r.built >= c->min_programs && r.loaded == 0, "%s: built %u, loaded %u", what,
        r.built, r.loaded);
    check_reference (c, &input, &r, what);
    run_clear (&r);
    g_free (what);
  }
  tree = tree_text (cache.tmp_dir);
  fail_unless (!strcmp (tree, "a-file\n"), "%s holds\n%s", cache.tmp_dir, tree);
  contents = test_read_file (file, &len);
  fail_unless (len == 15 && !memcmp (contents, "not a directory", 15), "%s was changed", file);

  g_free (contents);
  g_free (tree);
  g_free (dir);
  g_free (file);
  run_clear (&input);
}

GST_END_TEST;

/* e. without the variable: <XDG cache>/clconvolve/programs, the same keys as in any other
 * directory (their files there are removed first), loaded from there by the next run. Only
 * where meson points XDG_CACHE_HOME (TEST_CACHE_HOME, in the build directory): run by hand
 * the test is skipped, so that the suite never touches a real cache. */
GST_START_TEST (test_default_dir)
{
  const Config *c = &configs[__i__];
  gchar *default_dir;
  gchar **keys;
  Run input, cold, r;

  if (g_strcmp0 (g_getenv ("XDG_CACHE_HOME"), TEST_CACHE_HOME) ||
      g_strcmp0 (g_get_user_cache_dir (), TEST_CACHE_HOME)) {
    g_printerr ("default_dir: skipped: the XDG cache is %s, not this suite's %s (meson test "
        "sets XDG_CACHE_HOME)\n", g_get_user_cache_dir (), TEST_CACHE_HOME);
    return;
  }
  default_dir = g_build_filename (TEST_CACHE_HOME, "clconvolve", "programs", NULL);
  keys = cold_run (c, &input, &cold);
  for (guint i = 0; keys[i]; i++) {
    gchar *path = gst_cl_program_cache_file (default_dir, keys[i]);
    g_remove (path);
    g_free (path);
  }

  test_env_set (GST_CL_PROGRAM_CACHE_ENV, NULL);
  run_config (c, TRUE, "default directory", &r);
  fail_unless (r.built == cold.built && r.loaded == 0, "default directory: built %u, loaded "
      "%u; expected %u built", r.built, r.loaded, cold.built);
  check_same_frames (c, &cold, &r, "default directory");
  run_clear (&r);
  for (guint i = 0; keys[i]; i++)
    check_valid_file (default_dir, keys[i], "default directory");
  warm_run (c, &cold, cold.built, "default directory, again");

  g_strfreev (keys);
  g_free (default_dir);
  run_clear (&cold);
  run_clear (&input);
}

GST_END_TEST;

static Suite *
cache_suite (void)
{
  Suite *s = suite_create ("cache");
  TCase *tc = tcase_create ("cache");
  gint n = G_N_ELEMENTS (configs);

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_loop_test (tc, test_cold_warm, 0, n);
  tcase_add_loop_test (tc, test_damaged_files, 0, n);
  tcase_add_loop_test (tc, test_special_files, 0, TEST_N_SPECIALS * n);
  tcase_add_loop_test (tc, test_disabled, 0, n);
  tcase_add_loop_test (tc, test_unwritable, 0, 2 * n);
  tcase_add_loop_test (tc, test_default_dir, 0, n);
  return s;
}

int
main (int argc, char **argv)
{
  return run_device_suite (argc, argv, cache_suite, "cache", __FILE__, NULL);
}
