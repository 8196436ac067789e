/* clconvolve: OpenCL memory as GstMemory: pinned host memory, and device-resident frames
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_MEMORY_H__
#define __GST_CL_MEMORY_H__

#include <gst/gst.h>
#include "gstclcontext.h"

G_BEGIN_DECLS

/* Memory type strings of GstClMemory (gst_memory_is_type): pinned host memory, and memory
 * that lives on the device (GST_CAPS_FEATURE_MEMORY_CL_BUFFER). */
#define GST_CL_MEMORY_TYPE "ClPinnedMemory"
#define GST_CL_DEVICE_MEMORY_TYPE "ClDeviceMemory"

/* The caps feature of frames whose buffers are GstClMemory of an OpenCL context, which
 * OpenCL elements on the same context read and write where they are. On a discrete device
 * (a GPU) they live in device memory and come to the host only when something maps them
 * without GST_MAP_CL; on a host-unified one (a CPU) they are pinned host memory. */
#define GST_CAPS_FEATURE_MEMORY_CL_BUFFER "memory:CLBuffer"

/* A map for OpenCL commands: the device copy is brought up to date, and nothing is copied to
 * the host. The address it returns is not memory: a plane's address minus it is the plane's
 * byte offset in the memory's buffer (so GstVideoFrame's plane arithmetic still holds). */
#define GST_MAP_CL (GST_MAP_FLAG_LAST << 1)

/* Device-resident memory: which copy is the newer one (GstMemory flags). */
#define GST_CL_MEMORY_NEED_DOWNLOAD (GST_MEMORY_FLAG_LAST << 0)
#define GST_CL_MEMORY_NEED_UPLOAD (GST_MEMORY_FLAG_LAST << 1)

/* Pinned: one OpenCL buffer created with CL_MEM_ALLOC_HOST_PTR and mapped once, for its whole
 * life, at a fixed host address. The driver allocates it page-locked, so a GPU moves it by DMA
 * at full speed; a host-unified device (a CPU) can hand the buffer itself to a kernel, with no
 * copy. A shared sub-memory (gst_memory_share) uses the same buffer and host address.
 *
 * Device-resident (device TRUE): an OpenCL buffer in device memory. A map with GST_MAP_CL
 * gives OpenCL commands the buffer; any other map downloads it (when the device copy is newer)
 * into pinned staging made at the first such map, and a write there is uploaded before the
 * next GST_MAP_CL map, as GstGLMemory and GstCudaMemory do. Never shared: a copy of part of it
 * is made through the host. */
typedef struct
{
  GstMemory mem;

  /*< public, read-only >*/
  cl_mem buffer;                /* the whole allocation */
  guint8 *host;                 /* pinned: byte 0 of buffer; device: of the staging, or NULL */
  GstClContext *ctx;
  gboolean device;

  /*< private >*/
  cl_mem staging;
  GMutex lock;
} GstClMemory;

#define GST_TYPE_CL_ALLOCATOR (gst_cl_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstClAllocator, gst_cl_allocator, GST, CL_ALLOCATOR, GstAllocator);

/* An allocator of pinned memory on ctx (which it keeps a reference to). */
GstAllocator *gst_cl_allocator_new (GstClContext * ctx);
/* An allocator of device-resident memory on ctx. */
GstAllocator *gst_cl_allocator_new_device (GstClContext * ctx);
/* Whether allocator hands out device-resident memory. */
gboolean gst_cl_allocator_is_device (GstAllocator * allocator);
/* The allocator's context (no reference added). */
GstClContext *gst_cl_allocator_get_context (GstAllocator * allocator);

/* The GstClMemory behind mem when it is memory (pinned or device-resident) of ctx, else NULL. */
GstClMemory *gst_cl_memory_get (GstMemory * mem, GstClContext * ctx);

/* A device buffer of ctx of at least need bytes in *mem (*have: its size), made anew only when
 * the one there is smaller. The OpenCL error when it cannot be made (then *mem is NULL). */
cl_int gst_cl_buffer_ensure (GstClContext * ctx, cl_mem * mem, gsize * have, gsize need,
    cl_mem_flags flags);

G_END_DECLS

#endif /* __GST_CL_MEMORY_H__ */
