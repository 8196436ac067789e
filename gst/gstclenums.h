/* clconvolve: convolve video frames on an OpenCL device
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* The element's enumerations and flags (kernel, border, method, combine, planes) as registered
 * GTypes: their values are what the settings, the layout and the variant rules work with, so
 * they live here rather than in the element's header. */

#ifndef __GST_CL_ENUMS_H__
#define __GST_CL_ENUMS_H__

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  GST_CL_CONVOLVE_BORDER_CLAMP,
  GST_CL_CONVOLVE_BORDER_MIRROR,
  GST_CL_CONVOLVE_BORDER_WRAP,
  GST_CL_CONVOLVE_BORDER_CONSTANT
} GstClConvolveBorder;

typedef enum
{
  GST_CL_CONVOLVE_METHOD_AUTO,
  GST_CL_CONVOLVE_METHOD_TILED,
  GST_CL_CONVOLVE_METHOD_FLOAT4,
  GST_CL_CONVOLVE_METHOD_SEPARABLE,
  GST_CL_CONVOLVE_METHOD_VECTOR,
  GST_CL_CONVOLVE_METHOD_SPARSE
} GstClConvolveMethod;

/* What is stored from the sums (property "combine"): the first matrix's sum as it is, or a
 * combination of it and the second matrix's (matrix-y, or the first's transpose), both taken
 * in one pass. */
typedef enum
{
  GST_CL_CONVOLVE_COMBINE_NONE,
  GST_CL_CONVOLVE_COMBINE_MAGNITUDE,
  GST_CL_CONVOLVE_COMBINE_ABS,
  GST_CL_CONVOLVE_COMBINE_MAX
} GstClConvolveCombine;

/* Which planes or components are convolved (property "planes"). The colour bits follow the
 * component order of GstVideoFormatInfo for RGB formats (R, G, B, A). */
typedef enum
{
  GST_CL_CONVOLVE_PLANES_AUTO = 0,
  GST_CL_CONVOLVE_PLANES_Y = 1 << 0,
  GST_CL_CONVOLVE_PLANES_U = 1 << 1,
  GST_CL_CONVOLVE_PLANES_V = 1 << 2,
  GST_CL_CONVOLVE_PLANES_R = 1 << 3,
  GST_CL_CONVOLVE_PLANES_G = 1 << 4,
  GST_CL_CONVOLVE_PLANES_B = 1 << 5,
  GST_CL_CONVOLVE_PLANES_A = 1 << 6
} GstClConvolvePlanes;

#define GST_CL_CONVOLVE_PLANES_RGB \
  (GST_CL_CONVOLVE_PLANES_R | GST_CL_CONVOLVE_PLANES_G | GST_CL_CONVOLVE_PLANES_B)

#define GST_TYPE_CL_CONVOLVE_KERNEL (gst_cl_convolve_kernel_get_type ())
GType gst_cl_convolve_kernel_get_type (void);
#define GST_TYPE_CL_CONVOLVE_BORDER (gst_cl_convolve_border_get_type ())
GType gst_cl_convolve_border_get_type (void);
#define GST_TYPE_CL_CONVOLVE_METHOD (gst_cl_convolve_method_get_type ())
GType gst_cl_convolve_method_get_type (void);
#define GST_TYPE_CL_CONVOLVE_COMBINE (gst_cl_convolve_combine_get_type ())
GType gst_cl_convolve_combine_get_type (void);
#define GST_TYPE_CL_CONVOLVE_PLANES (gst_cl_convolve_planes_get_type ())
GType gst_cl_convolve_planes_get_type (void);

/* The nick of value in the enumeration type ("?" if none). */
const gchar *gst_cl_enum_nick (GType type, gint value);
/* Marks every type above as plugin API (gst-inspect documents them with the element). */
void gst_cl_enums_mark_plugin_api (void);

G_END_DECLS

#endif /* __GST_CL_ENUMS_H__ */
