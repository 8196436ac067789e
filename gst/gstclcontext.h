/* clconvolve: OpenCL device, context and program cache
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_CONTEXT_H__
#define __GST_CL_CONTEXT_H__

#include <gst/gst.h>
#include <CL/cl.h>

G_BEGIN_DECLS

#define GST_TYPE_CL_CONTEXT (gst_cl_context_get_type ())
G_DECLARE_FINAL_TYPE (GstClContext, gst_cl_context, GST, CL_CONTEXT, GstObject);

/* A device's OpenCL context, a refcounted GstObject shared by every element that uses that
 * device, so that programs are built once: gst_cl_context_acquire keeps one per device in the
 * process, gst_cl_context_new_wrapped one per application context and device, and elements
 * pass it to each other in a GstContext of type GST_CL_CONTEXT_TYPE. Immutable after creation
 * except the program table, which has its own lock. Command queues and kernel objects belong
 * to each element (clSetKernelArg is not thread-safe on a shared kernel). */
/* the frame queues: kernels (and everything on a host-unified device), uploads, downloads */
#define GST_CL_CONTEXT_N_QUEUES 3

struct _GstClContext
{
  GstObject parent;

  /*< private >*/
  GMutex lock;                  /* protects programs, the clock and the counts; never held
                                 * over a build or file I/O */
  GCond built;                  /* signalled when a program being built is ready or failed */
  GHashTable *programs;         /* "hash options" -> ProgramEntry */
  guint64 clock;                /* ticks at every use: the programs' recency */
  guint max_idle;               /* programs no kernel uses that are kept (LRU) */
  gchar *cache_dir;             /* on-disk program binaries, NULL: none */
  gchar *identity;              /* device, driver and platform versions: part of the cache key */
  guint programs_built, programs_loaded;        /* from source / from the disk cache */
  GHashTable *choices;          /* tuning key -> GBytes (under lock) */
  struct _ClWorker *worker;     /* builds and tunes for the elements (gstclworker.c), made on
                                 * first use under the object lock; worker_free stops it (the
                                 * context does not link the worker: the benchmark uses it) */
  void (*worker_free) (GstClContext * ctx);
  /* called with no lock held after programs were released, so that the worker gives the freed
   * heap back soon (set with the worker, under the object lock) */
  void (*programs_released) (GstClContext * ctx);
  /* elements counted on this context (gst_cl_context_join, under the registry's lock), and
   * what is called with no lock held when the last of them left (set with the worker, under
   * the object lock): the worker ends its helper sooner */
  guint elements;
  void (*unused) (GstClContext * ctx);
  /* the frame queues the elements share (gst_cl_context_frame_queues), without and with
   * profiling; made on first use, under lock */
  cl_command_queue frame_queues[2][GST_CL_CONTEXT_N_QUEUES];
  gint frames_busy;             /* frames queued on the frame queues and not yet complete, of
                                 * every element (atomic) */

  /*< public, read-only >*/
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_device_type type;
  gchar *device_name;           /* "device name (platform name)" */
  gchar *index_spec;            /* "P:D": the device= string of its indices; "?" for an
                                 * application's device no platform lists (a sub-device) */
  gsize local_mem_size;
  gboolean local_mem_dedicated; /* CL_LOCAL: on-chip memory, worth staging tiles in */
  gsize max_work_group_size;
  guint native_float_width;     /* CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: 16 on AVX-512 CPUs */
  gint tensor_mma;              /* NVIDIA, compute capability 8.0 or later: tensor-core matrix
                                 * products through inline PTX (kernels/tsep.cl); 2: the fixed
                                 * rules take them at every size (ClDeviceFacts) */
  gint gbox_rows;               /* GST_CLCONVOLVE_GBOX_ROWS (ClDeviceFacts) */
  gboolean host_unified;        /* the device works in host RAM: it can use pinned buffers in
                                 * place (a CPU), instead of copying them to its own memory */
};

/* The device's default context, a new reference; made on first use and then held for the
 * process (GST_CLCONVOLVE_KEEP_CONTEXT=0: only while someone holds it). spec: "" (first GPU,
 * else first CPU, else any), "gpu", "cpu", "accelerator", "P:D" indices, a case-insensitive
 * substring of the device or platform name, or "auto" placement: "auto" (among the GPUs, else
 * the CPUs, else every device), "auto:gpu", "auto:cpu", "auto:accelerator" or "auto:TEXT"
 * (the devices whose name contains TEXT), which takes the device of those with the fewest
 * elements on it (gst_cl_context_join), the first listed of those that tie. On failure
 * returns NULL and sets a GST_RESOURCE_ERROR_NOT_FOUND error whose message says how to get
 * a device. */
/* Registers the debug category clcontext (at plugin load, so --gst-debug-help lists it). */
void gst_cl_context_init_debug (void);

GstClContext *gst_cl_context_acquire (const gchar * spec, GError ** error);
/* Whether spec is an "auto" placement. */
gboolean gst_cl_device_spec_is_auto (const gchar * spec);
/* FALSE, with *why set (free it), for a device spec that can never match: indices that are
 * not exactly "P:D" (e.g. "0:0:0", "1"), an auto spec of indices ("auto:0:1"). The property
 * setter refuses those. */
gboolean gst_cl_device_spec_check (const gchar * spec, gchar ** why);

/* One OpenCL device as clconvolve-warmup --list shows it. */
typedef struct
{
  gchar *index_spec;            /* "P:D" */
  gchar *name, *platform;
  const gchar *type;            /* "GPU", "CPU", "accelerator" or "other" */
  gchar **selected_by;          /* the device= strings that select it: "P:D", "" (the
                                 * default), "gpu"/"cpu"/"accelerator", its name */
  gchar **placed_by;            /* "auto", "auto:gpu", "auto:cpu", "auto:accelerator": those
                                 * that may place an element on it */
} GstClDeviceInfo;

/* Every device of every platform, in platform order (GstClDeviceInfo; unref to free). */
GPtrArray *gst_cl_device_list (void);

/* The "P:D" of every device an "auto" spec may place an element on, in list order
 * (NULL-terminated; g_strfreev); empty for any other spec. */
gchar **gst_cl_device_auto_candidates (const gchar * spec);

/* A context over the application's own OpenCL context and one of its devices (the context is
 * retained, the device's facts queried as for acquire); NULL with *error set when device is
 * not one of context's. Not in acquire's registry: elements get it through a GstContext. */
GstClContext *gst_cl_context_new_wrapped (cl_context context, cl_device_id device,
    GError ** error);

/* Another reference to a context already held (memories and allocators keep their context):
 * gst_object_ref. */
GstClContext *gst_cl_context_ref (GstClContext * ctx);
/* gst_object_unref, NULL allowed. */
void gst_cl_context_release (GstClContext * ctx);

/* The load device=auto balances: the elements working on each device, whichever context of
 * it they use. join counts one more on ctx's device (gst_cl_context_ensure_element does it for
 * the element it returns a context to), leave one less (NULL allowed). */
void gst_cl_context_join (GstClContext * ctx);
void gst_cl_context_leave (GstClContext * ctx);
/* The elements counted on every device of this process now (gst_cl_context_join). */
guint gst_cl_context_elements_running (void);
/* Whether an element is counted on ctx now (joined and not left). */
gboolean gst_cl_context_in_use (GstClContext * ctx);

/* Programs no kernel uses that a context keeps for a later request, the least recently used
 * released first; GST_CLCONVOLVE_IDLE_PROGRAMS (read when the context is created) changes it.
 * A program takes about 2 MB of host memory on PoCL. */
#define GST_CL_CONTEXT_MAX_IDLE_PROGRAMS 16
#define GST_CL_CONTEXT_IDLE_PROGRAMS_ENV "GST_CLCONVOLVE_IDLE_PROGRAMS"

/* Returns the program built from source with options, building it on first use, and counts
 * one use of it: the caller owns no reference (a kernel made from it keeps the program alive)
 * and gives the use back with gst_cl_context_unuse_program () when its kernels are gone. A
 * program in use is never released; the others are kept up to the context's idle bound. A
 * program built once is also kept on disk (gstclprogramcache.h) and loaded from there by later
 * contexts, i.e. later runs. Builds and file I/O run without the context's lock (a request for
 * the same program waits for the build in progress). On a build failure returns NULL, sets
 * *err and, if the compiler said anything, *build_log (free with g_free). Without may_build
 * it neither builds nor waits (the streaming thread's lookup): the program in memory, else the
 * one in the disk cache, else NULL with *err CL_SUCCESS (also while another thread builds it). */
cl_program gst_cl_context_get_program (GstClContext * ctx, const gchar * source,
    const gchar * options, gboolean may_build, cl_int * err, gchar ** build_log);
/* Whether the context holds the program ready in memory (no disk, no build). */
gboolean gst_cl_context_holds_program (GstClContext * ctx, const gchar * source,
    const gchar * options);

/* Between these two calls the programs this thread builds are written to the disk cache only
 * at the release: a worker holds them back while it runs them once, so that no other process
 * or element loads a program whose first launch would still generate its code (PoCL does that
 * per work-group size, and caches it). */
void gst_cl_context_hold_stores (void);
void gst_cl_context_release_stores (void);

/* Gives back one use of prog. With discard, the program is released at once if nothing else
 * uses it (auto-tuning's candidates that lost); otherwise it is kept as the most recently used
 * idle program. */
void gst_cl_context_unuse_program (GstClContext * ctx, cl_program prog, gboolean discard);

/* The context's in-order frame queues, one per stage, shared by every element on it (n: how
 * many of them, from the kernel queue), profiling ones apart: q gets new references (release
 * them). One queue per stage keeps the device's transfers in one stream per direction however
 * many elements there are (docs/design.md, "shared queues"). On failure returns the OpenCL
 * error and q is untouched. */
cl_int gst_cl_context_frame_queues (GstClContext * ctx, gboolean profiling, gint n,
    cl_command_queue * q);

/* Programs this context built from source and loaded from the disk cache so far, and the
 * programs it holds now (in use and idle). */
void gst_cl_context_program_counts (GstClContext * ctx, guint * built, guint * loaded,
    guint * held);

/* The tuner's choices, kept as long as the context: the one stored under key (a new
 * reference), NULL if none; keep_choice stores (or replaces) one. The context does not read
 * them: the tuner decides what a choice is. */
GBytes *gst_cl_context_lookup_choice (GstClContext * ctx, const gchar * key);
void gst_cl_context_keep_choice (GstClContext * ctx, const gchar * key, GBytes * choice);

/* The GstContext type elements share a context in. Its structure holds either "context", a
 * GstClContext (what the elements post and answer), or what an application that has its own
 * OpenCL context sets: "cl-context" and "cl-device", its cl_context and cl_device_id as
 * G_TYPE_POINTER. */
#define GST_CL_CONTEXT_TYPE "gst.cl.context"

/* A persistent GstContext of GST_CL_CONTEXT_TYPE holding ctx. */
GstContext *gst_cl_context_to_gst (GstClContext * ctx);

/* The context a GstContext of GST_CL_CONTEXT_TYPE holds (a new reference), or wraps (an
 * application's handles); NULL with *error set when it holds neither or the handles are not
 * valid. */
GstClContext *gst_cl_context_from_gst (GstContext * context, GError ** error);

/* Whether ctx is on the device spec selects; "" (the default) accepts any. */
gboolean gst_cl_context_matches (GstClContext * ctx, const gchar * spec);

/* For an element's set_context: keeps the context a GstContext of our type holds in *offered
 * (under the element's object lock), replacing what was there; a GstContext of our type that
 * holds nothing usable is ignored with a warning. */
void gst_cl_context_set_element_context (GstElement * element, GstContext * context,
    GstClContext ** offered);

/* For an element's query handler: answers a context query of our type with *offered (read
 * under the element's object lock). Returns whether it answered. */
gboolean gst_cl_context_handle_query (GstElement * element, GstQuery * query,
    GstClContext ** offered);

/* The context an element uses when it starts, found the GStreamer way (as gst_gl_ensure_element_data
 * and gst_cuda_ensure_element_context do): the one *offered holds (set_context), else one a
 * neighbour answers a context query with (downstream, then upstream), else one the application
 * sets in answer to a need-context message, else a new one from gst_cl_context_acquire (spec),
 * announced with a have-context message so that the pipeline hands it to the other elements.
 * A context on another device than spec selects is passed over. An "auto" spec takes only a
 * neighbour's context (on one of its devices), else places the element by load: what *offered
 * held and the need-context answer (the bin's, from another branch) are passed over. Returns
 * a new reference, keeps it in *offered too and counts the element on the device
 * (gst_cl_context_join: call gst_cl_context_leave when it stops); NULL with *error set when
 * there is no device. */
GstClContext *gst_cl_context_ensure_element (GstElement * element, const gchar * spec,
    GstClContext ** offered, GError ** error);

const gchar *gst_cl_error_to_string (cl_int err);

/* Posts on element's bus that the OpenCL step what failed on ctx's device (LIBRARY, FAILED). */
#define GST_CL_ELEMENT_FAILED(element, ctx, what, err) G_STMT_START { \
    GST_ELEMENT_ERROR (element, LIBRARY, FAILED, \
        ("OpenCL %s failed on %s: %s", what, (ctx)->device_name, \
            gst_cl_error_to_string (err)), (NULL)); \
} G_STMT_END

G_END_DECLS

#endif /* __GST_CL_CONTEXT_H__ */
