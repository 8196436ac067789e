/* clconvolve: the OpenCL program sources and their digest
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_SOURCES_H__
#define __GST_CL_SOURCES_H__

#include "variants.h"

G_BEGIN_DECLS

/* The program texts embedded at build time (kernels/embed.py), in ClKernelSource order, and
 * their digest (SHA-256 of them all: the tuning key, and what the helper checks a job's
 * sources by). */
const gchar *const *gst_cl_embedded_sources (void);
const gchar *gst_cl_embedded_digest (void);
/* The regions' rectangle copies (kernels/regions.cl, entry region_copy; not a variant, not
 * overridden). */
const gchar *gst_cl_regions_source (void);

/* The sources an element builds from: the embedded ones, or those of the developer override
 * GST_CLCONVOLVE_KERNEL_SOURCE. */
typedef struct
{
  const gchar *text[CL_N_SOURCES];      /* each program's source (ClKernelSource order) */
  const gchar *digest;
  gchar *override[CL_N_SOURCES];        /* the override's texts, else NULL */
  gchar *override_digest;
} ClSources;

/* Sets s to the embedded sources, or to those of path (if not NULL or empty): a directory
 * holding common.cl and every variant's file, joined as at build time (an unchanged copy of
 * kernels/ gives the embedded sources), or one file that is every program's whole source.
 * FALSE with error set when a file cannot be read. */
gboolean gst_cl_sources_load (ClSources * s, const gchar * path, GError ** error);
/* Whether s holds the override's texts. */
gboolean gst_cl_sources_overridden (const ClSources * s);
void gst_cl_sources_clear (ClSources * s);

G_END_DECLS

#endif /* __GST_CL_SOURCES_H__ */
