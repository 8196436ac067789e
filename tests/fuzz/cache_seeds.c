/* clconvolve: writes seed inputs for fuzz_cache
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* cache_seeds OUTDIR: valid cache files made by gst_cl_program_cache_store under
 * FUZZ_CACHE_KEY (a program-binary-like payload, tuning-cache lines), named stored-*, and the
 * bare payloads, named payload-*. The fuzz run makes them afresh in the build directory, so the
 * seeds always match the current file format; tests/fuzz/corpus/cache holds a copy made with the
 * format of the time. */

#include <glib.h>
#include <glib/gstdio.h>

#include <stdio.h>
#include <string.h>

#include "gstclprogramcache.h"
#include "fuzz_cache.h"

typedef struct
{
  const char *name;
  const char *bytes;
  gsize len;
} Seed;

#define SEED(name, lit) { name, lit, sizeof (lit) - 1 }

static const Seed seeds[] = {
  /* what tune_store writes (gst/gstclconvolve.c), and near misses the element must refuse */
  SEED ("tune", "clconvolve-tune 2 method 4 bx 3 by 2 split 0\n"),
  SEED ("tune-split", "clconvolve-tune 2 method 4 bx 1 by 3 split 1\n"),
  SEED ("tune-trailing", "clconvolve-tune 2 method 1 bx 2 by 4 split 0\nx"),
  SEED ("tune-old", "clconvolve-tune 1 method 2 bx 8 by 1\n"),
  /* the start of an ELF object, as PoCL's binaries are */
  SEED ("elf", "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x01\0\x3e\0"),
  SEED ("one", "\0"),
};

int
main (int argc, char **argv)
{
  GError *error = NULL;
  gchar *tmp, *stored;

  if (argc != 2) {
    fprintf (stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  if (g_mkdir_with_parents (argv[1], 0755) != 0 ||
      !(tmp = g_dir_make_tmp ("clconvolve-cache-seeds-XXXXXX", &error))) {
    fprintf (stderr, "%s: cannot make %s or a temporary directory\n", argv[0], argv[1]);
    return 1;
  }
  stored = gst_cl_program_cache_file (tmp, FUZZ_CACHE_KEY);
  for (gsize i = 0; i < G_N_ELEMENTS (seeds); i++) {
    gchar *contents = NULL, *name, *out;
    gsize len = 0;

    if (!gst_cl_program_cache_store (tmp, FUZZ_CACHE_KEY, (const guint8 *) seeds[i].bytes,
            seeds[i].len, &error) || !g_file_get_contents (stored, &contents, &len, &error)) {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }
    name = g_strconcat ("stored-", seeds[i].name, NULL);
    out = g_build_filename (argv[1], name, NULL);
    if (!g_file_set_contents (out, contents, len, &error)) {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }
    g_free (out);
    g_free (name);
    name = g_strconcat ("payload-", seeds[i].name, NULL);
    out = g_build_filename (argv[1], name, NULL);
    if (!g_file_set_contents (out, seeds[i].bytes, seeds[i].len, &error)) {
      fprintf (stderr, "%s: %s\n", argv[0], error->message);
      return 1;
    }
    g_free (out);
    g_free (name);
    g_free (contents);
  }
  g_unlink (stored);
  g_rmdir (tmp);
  g_free (stored);
  g_free (tmp);
  return 0;
}
