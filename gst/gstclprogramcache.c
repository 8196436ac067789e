/* clconvolve: on-disk cache of built OpenCL program binaries
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* One file per program, <key>.bin:
 *   8 bytes  "CLCVPRG2"
 *   64 bytes the key (hex), so a file renamed or copied under another key is refused
 *   8 bytes  payload length, little-endian
 *   32 bytes SHA-256 of the magic, key, length and payload (everything but itself), so that a
 *            valid file whose header key was rewritten is refused too
 *   payload  the driver's binary (clGetProgramInfo CL_PROGRAM_BINARIES)
 * Anything else (truncated, foreign, corrupt, "CLCVPRG1" files whose checksum covered only the
 * payload) is refused and rebuilt from source. Only regular files are read, opened without
 * blocking and at most GST_CL_PROGRAM_CACHE_MAX_FILE bytes long, so that a FIFO or a device
 * in the directory cannot hang or flood the element. */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclprogramcache.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

#define MAGIC "CLCVPRG2"
#define MAGIC_LEN 8
#define KEY_LEN 64
#define DIGEST_LEN 32
#define SUMMED_LEN (MAGIC_LEN + KEY_LEN + 8)    /* the header before the checksum */
#define HEADER_LEN (SUMMED_LEN + DIGEST_LEN)

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

/* The checksum of a file: its header up to the checksum (magic, key, length), then the
 * payload. */
static void
digest (const guint8 * header, const guint8 * payload, gsize size, guint8 out[DIGEST_LEN])
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize len = DIGEST_LEN;

  g_checksum_update (sum, header, SUMMED_LEN);
  g_checksum_update (sum, payload, size);
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

/* The whole of the regular file at path into *contents (*len bytes), or the reason why not.
 * stat keeps devices from being opened at all (opening one may have effects); the open does
 * not block (a FIFO has no writer to wait for) and fstat, like stat, sees what a symbolic link
 * points to, and sees what was opened even if the path changed in between: only a regular
 * file is ever read, and only when it fits the cap. */
static const gchar *
read_regular (const gchar * path, guint8 ** contents, gsize * len)
{
  struct stat st;
  const gchar *why = NULL;
  guint8 *buf = NULL, extra;
  gsize size, got = 0;
  gssize n;
  gint fd, flags;

  if (stat (path, &st) == 0 && !S_ISREG (st.st_mode))
    return "not a regular file";
  fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT || errno == ENOTDIR ? "no file" : "cannot be opened";
  if (fstat (fd, &st) != 0) {
    why = "cannot be opened";
    goto done;
  }
  if (!S_ISREG (st.st_mode)) {
    why = "not a regular file";
    goto done;
  }
  if (st.st_size > GST_CL_PROGRAM_CACHE_MAX_FILE) {
    why = "larger than the " G_STRINGIFY (GST_CL_PROGRAM_CACHE_MAX_MIB) " MiB cap";
    goto done;
  }
  /* a regular file: ordinary reads from here on */
  flags = fcntl (fd, F_GETFL);
  if (flags < 0 || fcntl (fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
    why = "cannot be opened";
    goto done;
  }
  size = (gsize) st.st_size;
  buf = g_malloc (size ? size : 1);
  while (got < size) {
    n = read (fd, buf + got, size - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      why = "read error";
      goto done;
    }
    if (n == 0)
      break;
    got += n;
  }
  /* exactly the size fstat gave: no less, and nothing after it */
  do
    n = read (fd, &extra, 1);
  while (n < 0 && errno == EINTR);
  if (got != size || n != 0) {
    why = n < 0 ? "read error" : "changed size while being read";
    goto done;
  }
  *contents = buf;
  *len = size;
  buf = NULL;

done:
  g_free (buf);
  close (fd);
  return why;
}

guint8 *
gst_cl_program_cache_load (const gchar * dir, const gchar * key, gsize * size,
    const gchar ** why)
{
  gchar *path = gst_cl_program_cache_file (dir, key);
  guint8 *contents = NULL;
  gsize len = 0;
  guint64 payload;
  guint8 check[DIGEST_LEN];
  guint8 *binary = NULL;

  *why = "no file";
  if (strlen (key) != KEY_LEN || (*why = read_regular (path, &contents, &len)))
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
  digest (contents, contents + HEADER_LEN, payload, check);
  if (memcmp (check, contents + SUMMED_LEN, DIGEST_LEN))
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
  gchar *path;
  guint8 *contents;
  guint64 payload = GUINT64_TO_LE ((guint64) size);
  gboolean ok;

  g_return_val_if_fail (strlen (key) == KEY_LEN && size > 0, FALSE);
  /* a file load would refuse is not written at all */
  if (size > (guint64) GST_CL_PROGRAM_CACHE_MAX_FILE - HEADER_LEN) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "a binary of %" G_GSIZE_FORMAT
        " bytes exceeds the cache's " G_STRINGIFY (GST_CL_PROGRAM_CACHE_MAX_MIB) " MiB cap",
        size);
    return FALSE;
  }
  if (g_mkdir_with_parents (dir, 0700) != 0) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot create %s", dir);
    return FALSE;
  }
  contents = g_malloc (HEADER_LEN + size);
  memcpy (contents, MAGIC, MAGIC_LEN);
  memcpy (contents + MAGIC_LEN, key, KEY_LEN);
  memcpy (contents + MAGIC_LEN + KEY_LEN, &payload, 8);
  digest (contents, binary, size, contents + SUMMED_LEN);
  memcpy (contents + HEADER_LEN, binary, size);
  path = gst_cl_program_cache_file (dir, key);
  /* a new file renamed over path: an existing path (a FIFO, a link) is replaced, not opened */
  ok = g_file_set_contents (path, (const gchar *) contents, HEADER_LEN + size, error);
  g_free (path);
  g_free (contents);
  return ok;
}
