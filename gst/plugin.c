/* clconvolve: plugin registration
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

#include "gstclconvolve.h"
#include "gstclworker.h"
#include "gstclcontext.h"
#include "gstcltuner.h"
#include "gstclmemory.h"
#include "gstclbufferpool.h"
#include "clkernels.h"
#include "clpusher.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  /* the helper is looked for from here */
  gst_cl_worker_set_plugin_file (gst_plugin_get_filename (plugin));
  /* every debug category of the plugin, so that --gst-debug-help lists them */
  cl_kernels_init_debug ();   /* clconvolve, shared with the element */
  gst_cl_worker_init_debug ();
  gst_cl_context_init_debug ();
  cl_pusher_init_debug ();
  gst_cl_tuner_init ();
  g_type_class_unref (g_type_class_ref (GST_TYPE_CL_ALLOCATOR));
  g_type_class_unref (g_type_class_ref (GST_TYPE_CL_BUFFER_POOL));
  return GST_ELEMENT_REGISTER (clconvolve, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, clconvolve,
    "Video convolution on OpenCL devices", plugin_init, VERSION, "LGPL", GST_PACKAGE_NAME,
    GST_PACKAGE_ORIGIN)
