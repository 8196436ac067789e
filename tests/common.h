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
#include "convkernel.h"
#include "reference.h"

/* Runs "videotestsrc num-buffers=1 ! <element description> ! fakesink" to completion.
 * Returns TRUE when it reached EOS; otherwise returns FALSE and, if error is not NULL, the
 * first bus error (owned by the caller), with its debug text in *debug. */
gboolean run_one_frame_pipeline (const gchar * element_desc, GError ** error, gchar ** debug);

/* The line every suite prints when the OpenCL device is missing. */
#define NO_DEVICE_HINT \
  "clconvolve needs an OpenCL device to test: on Debian 'apt-get install pocl-opencl-icd' " \
  "(CPU) or a GPU OpenCL driver; scripts/test installs PoCL"

/* A suite's first step: runs one frame through clconvolve; without a device prints
 * NO_DEVICE_HINT with the element's error and returns FALSE (the suite then fails). Otherwise
 * prints the device and, if host_unified is not NULL, sets it to whether OpenCL reports that
 * device as sharing memory with the host (the element then works on pinned frames in place;
 * a discrete one moves them by DMA). */
gboolean require_device (gboolean * host_unified);

/* st (a stats structure, a pool config) as text for a check's message, which cannot format
 * GST_PTR_FORMAT; the text lives until the next call. */
const gchar *struct_text (const GstStructure * st);

/* The presets and borders by their property nicks, shared by the element suites. */
typedef struct
{
  const gchar *nick;
  ConvPreset preset;
} TestPreset;

#define TEST_N_PRESETS 9
#define TEST_N_BORDERS 4
extern const TestPreset preset_table[TEST_N_PRESETS];
extern const gchar *const border_names[TEST_N_BORDERS];

ConvPreset preset_from_nick (const gchar * nick);
RefBorder border_from_nick (const gchar * nick);

#endif
