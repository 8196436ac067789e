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
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
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

/* What the device require_device () found tells OpenCL about itself (not what the element
 * says): whether its local memory is on-chip (CL_LOCAL), its size, its largest work-group. */
typedef struct
{
  gboolean local_mem_dedicated;
  guint64 local_mem_size;
  gsize max_work_group_size;
  guint native_float_width;     /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT (16: AVX-512 CPU) */
} DeviceFacts;

/* Fills facts for the suite's device; FALSE before require_device () or when OpenCL does not
 * know the device by the element's label. */
gboolean suite_device_facts (DeviceFacts * facts);

/* Whether the suites run method=tiled at every shape they check: yes on a device with on-chip
 * local memory (a GPU, whose method=auto runs it); on a CPU, where PoCL builds each tiled
 * program slowly and method=auto never picks it, each suite checks it on a few shapes, named
 * where it picks them. */
gboolean suite_tiled_everywhere (void);

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

/* k (n x n) as a matrix property value: each row's coefficients separated by spaces, rows
 * ended by row_end ("; " fits a gst-launch line, ";\n" a multi-line value). Free with g_free. */
gchar *matrix_string (const gdouble * k, gint n, const gchar * row_end);
/* The same for w x h coefficients (a row_end with a semicolon makes one row read as a row). */
gchar *matrix_string_rect (const gdouble * k, gint w, gint h, const gchar * row_end);

/* ---------------------------------------------------------------- comparing with the reference
 *
 * The element computes in float, the reference in double: a sample may be off by TOLERANCE
 * (1 LSB), and a rounding can only flip near a .5 tie. So besides that bound, the samples whose
 * exact value lies more than TIE_MARGIN (in LSB) from a tie (the reference with the bias moved
 * by -TIE_MARGIN and +TIE_MARGIN rounds alike) must match exactly, but for
 * MAX_OFF_BY_ONE_FRACTION of them plus 2: that catches truncation, half-pixel shifts and other
 * systematic errors. */
#define TOLERANCE 1
#define TIE_MARGIN 0.01
#define MAX_OFF_BY_ONE_FRACTION 0.005

/* Whether off samples (of n compared) that differ although they are away from a rounding tie
 * are few enough for the rule above. */
gboolean off_away_from_ties_allowed (guint off, gsize n);

/* ------------------------------------------------------------------------ paths and pipelines */

/* The developer override the element reads when it starts: "1" takes the discrete path (device
 * buffers, DMA, bands) even on a device that shares memory with the host. */
#define DISCRETE_ENV "GST_CLCONVOLVE_DISCRETE"

/* gst_harness_new_with_element (e, "sink", "src") with DISCRETE_ENV set for the element's start
 * when discrete is TRUE (unset otherwise), and unset again afterwards. */
GstHarness *harness_on_path (GstElement * e, gboolean discrete);

/* The application's own OpenCL context on the first GPU, else on the first device of any
 * type (the element's default device); the caller releases it. */
cl_context app_context (cl_device_id * device);

/* The same on the first device (GPUs first) whose new context accept takes (NULL: any); NULL
 * when none does. */
cl_context app_context_where (cl_device_id * device, gboolean (*accept) (cl_context cl,
        cl_device_id device));

/* A gst.cl.context holding the application's handles. */
GstContext *app_gst_context (cl_context cl, cl_device_id device);

/* From here on, start_pipeline () and harness_on_path () set context (a gst.cl.context, not
 * taken; NULL: none) on what they start, before it starts. */
void use_app_context (GstContext * context);

/* Fills all of buf with a byte pattern that must never reach an output (padding checks). */
void fill_garbage (GstBuffer * buf);

/* Parses desc and sets it PLAYING (DISCRETE_ENV as in harness_on_path), failing the check if
 * either fails. The pipeline is tracked until stop_pipeline (), so that
 * stop_leftover_pipelines () can stop it if a check fails first. */
GstElement *start_pipeline (const gchar * desc, gboolean discrete);

/* start_pipeline () in two steps, for a caller that sets up the elements in between: desc
 * parsed (failing the check if that fails), then the pipeline parsed from desc started. */
GstElement *parse_pipeline (const gchar * desc);
GstElement *start_parsed (GstElement * pipe, const gchar * desc, gboolean discrete);

/* Tracks pipe (its reference becomes the tracking's) as start_parsed () does, without
 * starting it, for a caller that starts it another way (from other threads). */
void track_pipeline (GstElement * pipe);

/* Sets a pipeline of start_pipeline () to NULL (a check: that must succeed) and unrefs it. */
void stop_pipeline (GstElement * pipe);

/* The checked teardown of every test case that starts pipelines: a failed check leaves its
 * test at once (CK_FORK=no), so this stops and unrefs what it left playing (otherwise the next
 * test's end, which waits for every streaming thread, would wait for these forever) and unsets
 * DISCRETE_ENV. */
void stop_leftover_pipelines (void);

/* Fails the check with the first error on pipe's bus, if there is one; what names the run. */
void check_no_error (GstElement * pipe, const gchar * what);

/* The next buffer out of the harness h, waiting up to seconds for it (frames in flight leave from
 * the element's own thread, after the push has returned); NULL if none came. */
GstBuffer *pull_within (GstHarness * h, gdouble seconds);

/* Called by pull_samples () for the index'th sample (the sample stays the caller's). */
typedef void (*SampleFunc) (GstSample * sample, guint index, gpointer user_data);

/* Pulls every sample from pipe's appsink named "sink" until EOS (60 s at the most for each),
 * handing each to func; fails the check on more than max samples, a bus error or no EOS.
 * Returns how many samples it pulled. */
guint pull_samples (GstElement * pipe, guint max, const gchar * what, SampleFunc func,
    gpointer user_data);

/* The element named name in pipe (a check: it exists), without a reference of its own: the
 * pipeline keeps it alive. */
GstElement *element_by_name (GstElement * pipe, const gchar * name);

/* An element suite's main (): one process (CK_FORK=no, so OpenCL is never initialised in a
 * parent that then forks and the tests share the device's programs), gst_check_init, then
 * require_device (host_unified) (without a device every test would fail on its own: say once
 * what is missing and return 1), then the suite make_suite () builds, run as name (file: the
 * suite's source, for check's output). */
int run_device_suite (int argc, char **argv, Suite * (*make_suite) (void), const gchar * name,
    const gchar * file, gboolean * host_unified);

#endif
