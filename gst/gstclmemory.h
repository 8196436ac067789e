/* clconvolve: pinned OpenCL host memory as GstMemory
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

/* Memory type string of GstClMemory (gst_memory_is_type). */
#define GST_CL_MEMORY_TYPE "ClPinnedMemory"

/* One OpenCL buffer created with CL_MEM_ALLOC_HOST_PTR and mapped once, for its whole life, at
 * a fixed host address. The driver allocates it page-locked, so a GPU moves it by DMA at full
 * speed; a host-unified device (a CPU) can hand the buffer itself to a kernel, with no copy. A
 * shared sub-memory (gst_memory_share) uses the same buffer and host address. */
typedef struct
{
  GstMemory mem;

  /*< public, read-only >*/
  cl_mem buffer;                /* the whole allocation: byte 0 is at host */
  guint8 *host;
  GstClContext *ctx;
} GstClMemory;

#define GST_TYPE_CL_ALLOCATOR (gst_cl_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstClAllocator, gst_cl_allocator, GST, CL_ALLOCATOR, GstAllocator);

/* An allocator of pinned memory on ctx (which it keeps a reference to). */
GstAllocator *gst_cl_allocator_new (GstClContext * ctx);
/* The allocator's context (no reference added). */
GstClContext *gst_cl_allocator_get_context (GstAllocator * allocator);

/* The GstClMemory behind mem when it is pinned memory of ctx (the same device), else NULL. */
GstClMemory *gst_cl_memory_get (GstMemory * mem, GstClContext * ctx);

G_END_DECLS

#endif /* __GST_CL_MEMORY_H__ */
