/* clconvolve: on-disk cache of built OpenCL program binaries
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One file per program, <key>.bin:
 *   8 bytes  "CLCVPRG1"
 *   64 bytes the key (hex), so a file renamed or copied under another key is refused
 *   8 bytes  payload length, little-endian
 *   32 bytes SHA-256 of the payload
 *   payload  the driver's binary (clGetProgramInfo CL_PROGRAM_BINARIES)
 * Anything else (truncated, foreign, corrupt) is refused and rebuilt from source. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclprogramcache.h"

#include <string.h>

#define MAGIC "CLCVPRG1"
#define MAGIC_LEN 8
#define KEY_LEN 64
#define DIGEST_LEN 32
#define HEADER_LEN (MAGIC_LEN + KEY_LEN + 8 + DIGEST_LEN)

gchar *
gst_cl_program_cache_dir (void)
{
  const gchar *env = g_getenv (GST_CL_PROGRAM_CACHE_ENV);

  if (env)
    return *env ? g_strdup (env) : NULL;
  return g_build_filename (g_get_user_cache_dir (), "clconvolve", "programs", NULL);
}

gchar *
gst_cl_program_cache_key (const gchar * identity, const gchar * options, const gchar * source)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gchar *key;

  /* NUL separators: "a" + "bc" and "ab" + "c" are different keys */
  g_checksum_update (sum, (const guchar *) identity, strlen (identity) + 1);
  g_checksum_update (sum, (const guchar *) options, strlen (options) + 1);
  g_checksum_update (sum, (const guchar *) source, strlen (source));
  key = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);
  return key;
}

static void
digest (const guint8 * data, gsize size, guint8 out[DIGEST_LEN])
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = DIGEST_LEN;

  g_checksum_update (sum, data, size);
  g_checksum_get_digest (sum, out, &len);
  g_checksum_free (sum);
}

gchar *
gst_cl_program_cache_file (const gchar * dir, const gchar * key)
{
  gchar *name = g_strconcat (key, ".bin", NULL);
  gchar *path = g_build_filename (dir, name, NULL);

  g_free (name);
  return path;
}

guint8 *
gst_cl_program_cache_load (const gchar * dir, const gchar * key, gsize * size,
    const gchar ** why)
{
  gchar *path = gst_cl_program_cache_file (dir, key), *contents = NULL;
  gsize len = 0;
  guint64 payload;
  guint8 check[DIGEST_LEN];
  guint8 *binary = NULL;

  *why = "no file";
  if (strlen (key) != KEY_LEN || !g_file_get_contents (path, &contents, &len, NULL))
    goto done;
  *why = "not a clconvolve program file";
  if (len < HEADER_LEN || memcmp (contents, MAGIC, MAGIC_LEN))
    goto done;
  *why = "stored under another key";
  if (memcmp (contents + MAGIC_LEN, key, KEY_LEN))
    goto done;
  memcpy (&payload, contents + MAGIC_LEN + KEY_LEN, 8);
  payload = GUINT64_FROM_LE (payload);
  *why = "truncated or padded";
  if (payload != len - HEADER_LEN || payload == 0)
    goto done;
  *why = "checksum mismatch";
  digest ((const guint8 *) contents + HEADER_LEN, payload, check);
  if (memcmp (check, contents + MAGIC_LEN + KEY_LEN + 8, DIGEST_LEN))
    goto done;
  *why = NULL;
  *size = payload;
  binary = g_memdup2 (contents + HEADER_LEN, payload);

done:
  g_free (contents);
  g_free (path);
  return binary;
}

gboolean
gst_cl_program_cache_store (const gchar * dir, const gchar * key, const guint8 * binary,
    gsize size, GError ** error)
{
  gchar *path, *contents;
  guint64 payload = GUINT64_TO_LE ((guint64) size);
  gboolean ok;

  g_return_val_if_fail (strlen (key) == KEY_LEN && size > 0, FALSE);
  if (g_mkdir_with_parents (dir, 0700) != 0) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot create %s", dir);
    return FALSE;
  }
  contents = g_malloc (HEADER_LEN + size);
  memcpy (contents, MAGIC, MAGIC_LEN);
  memcpy (contents + MAGIC_LEN, key, KEY_LEN);
  memcpy (contents + MAGIC_LEN + KEY_LEN, &payload, 8);
  digest (binary, size, (guint8 *) contents + MAGIC_LEN + KEY_LEN + 8);
  memcpy (contents + HEADER_LEN, binary, size);
  path = gst_cl_program_cache_file (dir, key);
  ok = g_file_set_contents (path, contents, HEADER_LEN + size, error);
  g_free (path);
  g_free (contents);
  return ok;
}
