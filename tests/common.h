/* clconvolve tests: shared helpers
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CLCONVOLVE_TEST_COMMON_H__
#define __CLCONVOLVE_TEST_COMMON_H__

#include <gst/gst.h>

/* Runs "videotestsrc num-buffers=1 ! <element description> ! fakesink" to completion.
 * Returns TRUE when it reached EOS; otherwise returns FALSE and, if error is not NULL, the
 * first bus error (owned by the caller), with its debug text in *debug. */
gboolean run_one_frame_pipeline (const gchar * element_desc, GError ** error, gchar ** debug);

/* The line every suite prints when the OpenCL device is missing. */
#define NO_DEVICE_HINT \
  "clconvolve needs an OpenCL device to test: on Debian 'apt-get install pocl-opencl-icd' " \
  "(CPU) or a GPU OpenCL driver; scripts/test installs PoCL"

#endif
