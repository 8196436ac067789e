/* clconvolve: convolve video frames on an OpenCL device
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_CONVOLVE_H__
#define __GST_CL_CONVOLVE_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideofilter.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_CONVOLVE (gst_cl_convolve_get_type ())
G_DECLARE_FINAL_TYPE (GstClConvolve, gst_cl_convolve, GST, CL_CONVOLVE, GstVideoFilter);

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

GST_ELEMENT_REGISTER_DECLARE (clconvolve);

G_END_DECLS

#endif /* __GST_CL_CONVOLVE_H__ */
