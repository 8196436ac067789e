/* clconvolve: the convolution settings, their validation and their coefficients
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CL_SETTINGS_H__
#define __CL_SETTINGS_H__

#include "convkernel.h"
#include "framelayout.h"
#include "variants.h"

G_BEGIN_DECLS

/* What the element's convolution properties say, as plain data: the element keeps one under
 * its object lock (changed by the setters below, which refuse what would give unusable
 * coefficients) and a snapshot the streaming thread works from. No GStreamer objects and no
 * OpenCL: tests/test_settings.c checks it alone. */

#define CL_NCOEF (CONV_MAX_SIZE * CONV_MAX_SIZE)

typedef struct
{
  ConvPreset kernel;
  gint size;
  gint custom_size;             /* side of the custom matrix, 0 when none was set */
  gdouble custom[CL_NCOEF];
  gdouble divisor, bias, angle, sigma, amount;
  GstClConvolveCombine combine;
  gint custom_y_size;           /* side of matrix-y, 0 when none was set */
  gdouble custom_y[CL_NCOEF];
  GstClConvolveBorder border;
  GstClConvolveMethod method;
  guint planes;                 /* GstClConvolvePlanes */
  gboolean autotune;
  /* plane-matrices: per component (Y U V A or R G B A) its own matrix's side, 0: the kernel's */
  gint plane_size[CL_MAX_MATRICES];
  gdouble plane_m[CL_MAX_MATRICES][CL_NCOEF];
} ClSettings;

/* The property defaults. */
#define CL_SETTINGS_DEFAULT_KERNEL CONV_PRESET_GAUSSIAN
#define CL_SETTINGS_DEFAULT_SIZE 5
#define CL_SETTINGS_DEFAULT_DIVISOR 0.0
#define CL_SETTINGS_DEFAULT_BIAS 0.0
#define CL_SETTINGS_DEFAULT_BORDER GST_CL_CONVOLVE_BORDER_CLAMP
#define CL_SETTINGS_DEFAULT_METHOD GST_CL_CONVOLVE_METHOD_AUTO
#define CL_SETTINGS_DEFAULT_ANGLE 45.0
#define CL_SETTINGS_DEFAULT_SIGMA 0.0
#define CL_SETTINGS_DEFAULT_AMOUNT 1.0
#define CL_SETTINGS_DEFAULT_COMBINE GST_CL_CONVOLVE_COMBINE_NONE
#define CL_SETTINGS_DEFAULT_PLANES GST_CL_CONVOLVE_PLANES_AUTO
#define CL_SETTINGS_DEFAULT_AUTOTUNE TRUE

/* A new ClSettings of the defaults (on the heap: it holds six matrices of doubles). */
ClSettings *cl_settings_new (void);

/* Whether the settings run a second matrix beside the first (combine magnitude or max). */
gboolean cl_settings_paired (const ClSettings * s);
/* The side of the matrices the settings run (the largest of them; the others centred). */
gint cl_settings_matrix_size (const ClSettings * s);
/* Whether the device coefficients are usable; err gets the reason when they are not. */
gboolean cl_settings_usable (const ClSettings * s, gchar * err, gsize errlen);
/* Whether s leaves every sample as it is: the identity matrix and no bias. */
gboolean cl_settings_identity (const ClSettings * s);
/* Whether components a and b run the same matrix (plane-matrices). */
gboolean cl_settings_same_matrix (const ClSettings * s, gint a, gint b);
/* How many matrices the device gets: one per component with plane-matrices, else one. */
gint cl_settings_n_matrices (const ClSettings * s);

/* The setters: each changes s and returns TRUE, or leaves s as it was and returns FALSE with
 * the reason in err (a property's warning says it). Where a text is kept for the property's
 * getter, *formatted gets it (free with g_free; NULL for an empty value). */
gboolean cl_settings_set_kernel (ClSettings * s, ConvPreset kernel, gboolean * size_changed,
    gchar * err, gsize errlen);
gboolean cl_settings_set_size (ClSettings * s, gint size, gchar * err, gsize errlen);
/* field: one of s's doubles (divisor, bias, angle, sigma, amount) */
gboolean cl_settings_set_double (ClSettings * s, gdouble * field, gdouble v, gchar * err,
    gsize errlen);
gboolean cl_settings_set_combine (ClSettings * s, GstClConvolveCombine combine, gchar * err,
    gsize errlen);
/* Switches to kernel=custom, size the matrix's longer side. */
gboolean cl_settings_set_matrix (ClSettings * s, const gchar * text, gchar ** formatted,
    gchar * err, gsize errlen);
/* NULL or empty: the first matrix's transpose again. */
gboolean cl_settings_set_matrix_y (ClSettings * s, const gchar * text, gchar ** formatted,
    gchar * err, gsize errlen);
/* Entries separated by '|', an empty one the kernel's matrix; refused as a whole. */
gboolean cl_settings_set_plane_matrices (ClSettings * s, const gchar * text,
    gchar ** formatted, gchar * err, gsize errlen);

/* The device's coefficients of one matrix (component comp's, or the kernel's), already divided
 * by the divisor, as floats: the dense matrix (paired: the second after it), its split into
 * vector pairs (and a centre term) and its non-zero taps. */
typedef struct
{
  gint n;                       /* the side: cl_settings_matrix_size */
  gfloat coef[2 * CL_NCOEF];
  gfloat sep[2 * CL_MAX_RANK * CONV_MAX_SIZE];  /* [pair][vertical n, horizontal n] */
  gint rank;                    /* pairs in all, -1 where they would pass CL_MAX_RANK */
  gint rank_a;                  /* ... of them the first matrix's (paired: the second's follow) */
  gfloat centre;                /* non-zero: the matrix is this at the centre plus the pairs,
                                 * also stored after them in sep (never paired) */
  ConvTap taps[CL_MAX_TAPS];
  gint ntaps;                   /* 0 where there are more than CL_MAX_TAPS */
  gboolean box;                 /* every coefficient equal (conv_is_box), not paired */
  gboolean unit;                /* one pair, each vector of one sign, the product of their
                                 * absolute sums at most 1 (ClKernelRequest.unit), not paired */
} ClCoefficients;

void cl_settings_coefficients (const ClSettings * s, gint comp, ClCoefficients * c);

G_END_DECLS

#endif /* __CL_SETTINGS_H__ */
