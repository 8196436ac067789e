/* clconvolve: libFuzzer target for the on-disk cache loader (gst/gstclprogramcache.h)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Through the public API only (the file format is not restated here, so the target outlives
 * format changes). The program cache and the tuning cache (whose payload is one line,
 * "clconvolve-tune N method ..." parsed by the element) share this loader. Each input is used
 * twice; abort on a violation, so libFuzzer keeps the input:
 *
 * 1. As a whole cache file: written as gst_cl_program_cache_file (dir, FUZZ_CACHE_KEY) and
 *    loaded. A refusal must give a reason (*why); an accepted file a non-empty payload that,
 *    stored again under the key, loads back byte for byte.
 * 2. As a payload (1..PAYLOAD_MAX bytes): stored, it must load back byte for byte; the stored
 *    file with one byte changed or cut short (where and how chosen by the input), with one
 *    byte appended or copied under another key must then be refused.
 *
 * Every file lives in one private directory made at start-up and removed at exit, on a failed
 * check and after a sanitizer's report. */

#include <glib.h>
#include <glib/gstdio.h>
#include <sanitizer/common_interface_defs.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gstclprogramcache.h"
#include "fuzz_cache.h"

/* payloads stored in step 2; far below any sane size cap, above libFuzzer's default -max_len */
#define PAYLOAD_MAX (64 * 1024)

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

static gchar *dir, *path, *other_path;

/* Empties and removes the private directory (also the temporary files a crashed store left). */
static void
remove_dir (void)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  if (d) {
    while ((name = g_dir_read_name (d))) {
      gchar *p = g_build_filename (dir, name, NULL);

      g_unlink (p);
      g_free (p);
    }
    g_dir_close (d);
  }
  g_rmdir (dir);
}

static void
fail (const char *what, gsize size)
{
  fprintf (stderr, "fuzz_cache: %s (input of %" G_GSIZE_FORMAT " bytes)\n", what, size);
  remove_dir ();
  abort ();
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  GError *error = NULL;

  dir = g_dir_make_tmp ("clconvolve-fuzz-cache-XXXXXX", &error);
  if (!dir) {
    fprintf (stderr, "fuzz_cache: no temporary directory: %s\n", error->message);
    exit (1);
  }
  path = gst_cl_program_cache_file (dir, FUZZ_CACHE_KEY);
  other_path = gst_cl_program_cache_file (dir, FUZZ_CACHE_OTHER_KEY);
  atexit (remove_dir);
  /* and after a sanitizer's report */
  __sanitizer_set_death_callback (remove_dir);
  return 0;
}

/* Writes bytes as the file at p, plainly (no temporary file: only the loader is under test). */
static void
put_file (const gchar * p, const void *bytes, gsize len)
{
  FILE *f = fopen (p, "wb");

  if (!f || (len && fwrite (bytes, 1, len, f) != len) || fclose (f) != 0) {
    fprintf (stderr, "fuzz_cache: cannot write %s\n", p);
    exit (1);
  }
}

/* Loads key; NULL with a reason, or a payload. */
static guint8 *
load (const gchar * key, gsize * len, gsize size)
{
  const gchar *why = NULL;
  guint8 *bin;

  *len = 0;
  bin = gst_cl_program_cache_load (dir, key, len, &why);
  if (!bin && (!why || !*why))
    fail ("refused without a reason", size);
  if (bin && *len == 0)
    fail ("accepted an empty payload", size);
  return bin;
}

/* Stores payload under FUZZ_CACHE_KEY and checks that it loads back unchanged. */
static void
store_and_reload (const guint8 * payload, gsize len, gsize size)
{
  GError *error = NULL;
  guint8 *back;
  gsize back_len;

  if (!gst_cl_program_cache_store (dir, FUZZ_CACHE_KEY, payload, len, &error)) {
    fprintf (stderr, "fuzz_cache: store: %s\n", error->message);
    fail ("could not store a payload", size);
  }
  back = load (FUZZ_CACHE_KEY, &back_len, size);
  if (!back)
    fail ("a stored payload did not load", size);
  if (back_len != len || memcmp (back, payload, len))
    fail ("a stored payload loaded back different", size);
  g_free (back);
}

/* The stored file at path, changed into contents[len], must be refused. */
static void
expect_refused (const gchar * p, const gchar * key, const gchar * contents, gsize len,
    const char *what, gsize size)
{
  guint8 *bin;
  gsize bin_len;

  put_file (p, contents, len);
  bin = load (key, &bin_len, size);
  if (bin)
    fail (what, size);
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  guint8 *bin;
  gsize len, flen;
  gchar *file = NULL;
  guint32 h = 2166136261u;

  /* 1. the input as a cache file */
  put_file (path, data, size);
  bin = load (FUZZ_CACHE_KEY, &len, size);
  if (bin) {
    store_and_reload (bin, len, size);
    g_free (bin);
  }

  /* 2. the input as a payload: what store writes, and what store wrote damaged */
  if (size == 0 || size > PAYLOAD_MAX)
    return 0;
  store_and_reload (data, size, size);
  if (!g_file_get_contents (path, &file, &flen, NULL) || flen <= size)
    fail ("stored file unreadable or without a header", size);

  /* which byte and how: from the input (FNV-1a), so the fuzzer reaches every position */
  for (gsize i = 0; i < size; i++)
    h = (h ^ data[i]) * 16777619u;
  {
    gsize pos = h % flen;
    guint8 flip = 1 + (h >> 24) % 255;  /* never 0: the byte always changes */
    gchar *changed = g_memdup2 (file, flen + 1);

    changed[pos] ^= flip;
    expect_refused (path, FUZZ_CACHE_KEY, changed, flen, "accepted a file with a changed byte",
        size);
    expect_refused (path, FUZZ_CACHE_KEY, file, pos, "accepted a truncated file", size);
    memcpy (changed, file, flen);
    changed[flen] = (gchar) flip;
    expect_refused (path, FUZZ_CACHE_KEY, changed, flen + 1,
        "accepted a file with a byte appended", size);
    expect_refused (other_path, FUZZ_CACHE_OTHER_KEY, file, flen,
        "accepted a file copied under another key", size);
    g_free (changed);
  }
  g_unlink (other_path);
  g_free (file);
  return 0;
}
