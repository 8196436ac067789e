/* clconvolve: the OpenCL program sources and their digest
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstclsources.h"

#include <string.h>

/* One program source per variant, kernels/common.cl followed by the variant's file, joined and
 * embedded at build time (kernels/embed.py), and the SHA-256 of them all. */
extern const char gst_cl_source_direct[], gst_cl_source_vector[], gst_cl_source_vsplit[],
    gst_cl_source_tiled[], gst_cl_source_separable[], gst_cl_source_vsep[],
    gst_cl_source_sparse[], gst_cl_source_box[],
    gst_cl_source_lsep[], gst_cl_source_csep[], gst_cl_source_tsep[];
extern const char gst_cl_sources_digest[];
/* not a variant: the regions' rectangle copies (clframes.c) */
extern const char gst_cl_source_regions[];

static const gchar *const embedded_sources[CL_N_SOURCES] = {
  gst_cl_source_direct, gst_cl_source_vector, gst_cl_source_vsplit, gst_cl_source_tiled,
  gst_cl_source_separable, gst_cl_source_vsep, gst_cl_source_sparse, gst_cl_source_box,
  gst_cl_source_lsep, gst_cl_source_csep, gst_cl_source_tsep
};

const gchar *const *
gst_cl_embedded_sources (void)
{
  return embedded_sources;
}

const gchar *
gst_cl_regions_source (void)
{
  return gst_cl_source_regions;
}

const gchar *
gst_cl_embedded_digest (void)
{
  return gst_cl_sources_digest;
}

/* Each program's variant file (ClKernelSource's order, which is kernels/meson.build's): what
 * GST_CLCONVOLVE_KERNEL_SOURCE reads instead of the embedded sources. */
static const gchar *const kernel_files[CL_N_SOURCES] = {
  "direct.cl", "vector.cl", "vsplit.cl", "tiled.cl", "separable.cl", "vsep.cl", "sparse.cl",
  "box.cl", "lsep.cl", "csep.cl", "tsep.cl"
};

#define COMMON_SOURCE "common.cl"

/* A part of a program source read from dir: a #line directive naming the file, then its text,
 * as kernels/embed.py joins them. NULL with error set when it cannot be read. */
static gchar *
read_source_part (const gchar * dir, const gchar * file, GError ** error)
{
  gchar *path = g_build_filename (dir, file, NULL), *text = NULL, *part = NULL;
  gsize len;

  if (g_file_get_contents (path, &text, &len, error))
    part = g_strdup_printf ("#line 1 \"%s\"\n%s%s", file, text,
        len && text[len - 1] != '\n' ? "\n" : "");
  g_free (text);
  g_free (path);
  return part;
}

gboolean
gst_cl_sources_load (ClSources * s, const gchar * path, GError ** error)
{
  GChecksum *sum;

  for (gint i = 0; i < CL_N_SOURCES; i++)
    s->text[i] = gst_cl_embedded_sources ()[i];
  s->digest = gst_cl_embedded_digest ();
  if (!path || !*path)
    return TRUE;
  if (g_file_test (path, G_FILE_TEST_IS_DIR)) {
    gchar *common = read_source_part (path, COMMON_SOURCE, error);

    for (gint i = 0; i < CL_N_SOURCES && common; i++) {
      gchar *variant = read_source_part (path, kernel_files[i], error);

      if (!variant)
        g_clear_pointer (&common, g_free);
      else
        s->override[i] = g_strconcat (common, variant, NULL);
      g_free (variant);
    }
    if (!common)
      return FALSE;
    g_free (common);
  } else if (!g_file_get_contents (path, &s->override[0], NULL, error)) {
    return FALSE;
  }
  /* as kernels/embed.py digests the embedded sources: each with its terminating NUL */
  sum = g_checksum_new (G_CHECKSUM_SHA256);
  for (gint i = 0; i < CL_N_SOURCES; i++) {
    s->text[i] = s->override[i] ? s->override[i] :
        s->override[0];
    g_checksum_update (sum, (const guchar *) s->text[i], strlen (s->text[i]) + 1);
  }
  s->override_digest = g_strdup (g_checksum_get_string (sum));
  s->digest = s->override_digest;
  g_checksum_free (sum);
  return TRUE;
}

gboolean
gst_cl_sources_overridden (const ClSources * s)
{
  return s->override_digest != NULL;
}

void
gst_cl_sources_clear (ClSources * s)
{
  for (gint i = 0; i < CL_N_SOURCES; i++)
    g_clear_pointer (&s->override[i], g_free);
  g_clear_pointer (&s->override_digest, g_free);
}
