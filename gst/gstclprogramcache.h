/* clconvolve: on-disk cache of built OpenCL program binaries
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_PROGRAM_CACHE_H__
#define __GST_CL_PROGRAM_CACHE_H__

#include <glib.h>

G_BEGIN_DECLS

/* Developer and user override: where the cache lives; empty = no cache. */
#define GST_CL_PROGRAM_CACHE_ENV "GST_CLCONVOLVE_CACHE_DIR"

/* The cache directory: $GST_CLCONVOLVE_CACHE_DIR if set (NULL when it is empty: disabled), else
 * <XDG cache dir>/clconvolve/programs. Free with g_free. */
gchar *gst_cl_program_cache_dir (void);

/* The key of a program: SHA-256 (hex) of the device identity (name, device, driver and platform
 * versions), the build options and the source. */
gchar *gst_cl_program_cache_key (const gchar * identity, const gchar * options,
    const gchar * source);

/* The file that holds key's program in dir ("<key>.bin"). Free with g_free. */
gchar *gst_cl_program_cache_file (const gchar * dir, const gchar * key);

/* The largest cache file load reads, header included; store refuses a binary that would not
 * fit. Far above what any driver makes of this element's small programs (CPU and GPU binaries
 * alike), so that no real binary is ever refused, yet small enough that a file which is no
 * binary (sparse, runaway) is refused before any of it is read. */
#define GST_CL_PROGRAM_CACHE_MAX_MIB 64
#define GST_CL_PROGRAM_CACHE_MAX_FILE ((gint64) GST_CL_PROGRAM_CACHE_MAX_MIB << 20)

/* The binary stored under key, or NULL when there is none or the file is not exactly what
 * store wrote (wrong magic, key, length or checksum: *why says which). Only a regular file (or
 * a symbolic link to one) of at most GST_CL_PROGRAM_CACHE_MAX_FILE bytes is read; anything
 * else (a FIFO, a device, a directory) is refused at once, without blocking. Free with
 * g_free. */
guint8 *gst_cl_program_cache_load (const gchar * dir, const gchar * key, gsize * size,
    const gchar ** why);

/* Writes the binary under key (a temporary file renamed into place, so readers never see half
 * a file; whatever was at the file's name, a FIFO or a link included, is replaced, never
 * opened). Returns FALSE, with *error set, when it could not or when the file would exceed
 * GST_CL_PROGRAM_CACHE_MAX_FILE. */
gboolean gst_cl_program_cache_store (const gchar * dir, const gchar * key,
    const guint8 * binary, gsize size, GError ** error);

G_END_DECLS

#endif /* __GST_CL_PROGRAM_CACHE_H__ */
