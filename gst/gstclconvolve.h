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

#include "gstclbasefilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CL_CONVOLVE (gst_cl_convolve_get_type ())
G_DECLARE_FINAL_TYPE (GstClConvolve, gst_cl_convolve, GST, CL_CONVOLVE, GstClBaseFilter);

GST_ELEMENT_REGISTER_DECLARE (clconvolve);

G_END_DECLS

#endif /* __GST_CL_CONVOLVE_H__ */
