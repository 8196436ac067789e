/* clconvolve: convolve video frames on an OpenCL device
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

#include "gstclenums.h"
#include "convkernel.h"

#include <gst/gst.h>

GType
gst_cl_convolve_kernel_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {CONV_PRESET_IDENTITY, "Identity: 1 at the centre", "identity"},
    {CONV_PRESET_BOX, "Box: mean over size x size", "box"},
    {CONV_PRESET_GAUSSIAN, "Gaussian with the sigma property, normalised to 1", "gaussian"},
    {CONV_PRESET_SHARPEN, "Sharpen: centre 5, centre row and column -1/radius", "sharpen"},
    {CONV_PRESET_EMBOSS, "Emboss: diagonal gradient plus the centre", "emboss"},
    {CONV_PRESET_EDGE, "Edge: centre 8, every other cell -8/(size^2-1)", "edge"},
    {CONV_PRESET_SOBEL_X, "Sobel x: binomial smoothing x binomial derivative", "sobel-x"},
    {CONV_PRESET_SOBEL_Y, "Sobel y: the transpose of sobel-x", "sobel-y"},
    {CONV_PRESET_MOTIONBLUR, "Motion blur: anti-aliased line of length size at the angle "
          "property, normalised to 1", "motionblur"},
    {CONV_PRESET_CUSTOM, "Custom: the matrix property", "custom"},
    {CONV_PRESET_UNSHARP, "Unsharp mask: the input plus amount times the input minus its "
          "gaussian blur of size and sigma (one matrix, sum 1)", "unsharp"},
    {CONV_PRESET_SCHARR_X, "Scharr x: [3 10 3] smoothing (binomially widened) x sobel's "
          "derivative", "scharr-x"},
    {CONV_PRESET_SCHARR_Y, "Scharr y: the transpose of scharr-x", "scharr-y"},
    {CONV_PRESET_PREWITT_X, "Prewitt x: flat smoothing x a linear ramp derivative",
        "prewitt-x"},
    {CONV_PRESET_PREWITT_Y, "Prewitt y: the transpose of prewitt-x", "prewitt-y"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClConvolveKernel", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_convolve_border_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_CONVOLVE_BORDER_CLAMP, "Repeat the edge pixel (aaa|abcd|ddd)", "clamp"},
    {GST_CL_CONVOLVE_BORDER_MIRROR, "Reflect without repeating the edge (dcb|abcd|cba)",
        "mirror"},
    {GST_CL_CONVOLVE_BORDER_WRAP, "Wrap around (bcd|abcd|abc)", "wrap"},
    {GST_CL_CONVOLVE_BORDER_CONSTANT, "Zeros outside the frame", "constant"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClConvolveBorder", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_convolve_method_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_CONVOLVE_METHOD_AUTO, "The fastest variant for the device, format, size and "
          "matrix, timed once and remembered (see autotune)", "auto"},
    {GST_CL_CONVOLVE_METHOD_TILED, "Tiles staged in local memory, several pixels per "
          "work-item (for GPUs)", "tiled"},
    {GST_CL_CONVOLVE_METHOD_FLOAT4, "One work-item per pixel from global memory, vector loads, "
          "__constant coefficients", "float4"},
    {GST_CL_CONVOLVE_METHOD_SEPARABLE, "Row and column passes of the matrix split into at "
          "most 4 vector pairs, else the dense kernels", "separable"},
    {GST_CL_CONVOLVE_METHOD_VECTOR, "Runs of pixels on a few rows per work-item as float8 "
          "vectors of samples (for CPUs)", "vector"},
    {GST_CL_CONVOLVE_METHOD_SPARSE, "Loops over the non-zero coefficients only (motion blur "
          "lines, sparse custom matrices)", "sparse"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClConvolveMethod", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_convolve_combine_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_CL_CONVOLVE_COMBINE_NONE, "The matrix's weighted sum", "none"},
    {GST_CL_CONVOLVE_COMBINE_MAGNITUDE, "Gradient magnitude sqrt (gx^2 + gy^2) of the "
          "matrix's sum gx and matrix-y's sum gy", "magnitude"},
    {GST_CL_CONVOLVE_COMBINE_ABS, "|gx|: the absolute value of the matrix's sum (both signs "
          "of an edge)", "abs"},
    {GST_CL_CONVOLVE_COMBINE_MAX, "max (|gx|, |gy|), gy as for magnitude", "max"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstClConvolveCombine", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

GType
gst_cl_convolve_planes_get_type (void)
{
  static GType type = 0;
  static const GFlagsValue values[] = {
    {GST_CL_CONVOLVE_PLANES_AUTO, "The format's default: luma of YUV and gray, R, G and B of "
          "RGB", "auto"},
    {GST_CL_CONVOLVE_PLANES_Y, "Luma (Y), or the gray plane", "y"},
    {GST_CL_CONVOLVE_PLANES_U, "Chroma U (Cb)", "u"},
    {GST_CL_CONVOLVE_PLANES_V, "Chroma V (Cr)", "v"},
    {GST_CL_CONVOLVE_PLANES_R, "Red", "r"},
    {GST_CL_CONVOLVE_PLANES_G, "Green", "g"},
    {GST_CL_CONVOLVE_PLANES_B, "Blue", "b"},
    {GST_CL_CONVOLVE_PLANES_A, "Alpha", "a"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_flags_register_static ("GstClConvolvePlanes", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

const gchar *
gst_cl_enum_nick (GType type, gint value)
{
  GEnumClass *klass = g_type_class_ref (type);
  GEnumValue *v = g_enum_get_value (klass, value);
  const gchar *nick = v ? v->value_nick : "?";

  g_type_class_unref (klass);
  return nick;
}

void
gst_cl_enums_mark_plugin_api (void)
{
  gst_type_mark_as_plugin_api (GST_TYPE_CL_CONVOLVE_KERNEL, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_CONVOLVE_BORDER, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_CONVOLVE_METHOD, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_CONVOLVE_COMBINE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CL_CONVOLVE_PLANES, 0);
}
