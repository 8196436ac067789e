/* clconvolve: pinned OpenCL host memory as GstMemory
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

#include "gstclmemory.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_cl_memory_debug);
#define GST_CAT_DEFAULT gst_cl_memory_debug

struct _GstClAllocator
{
  GstAllocator parent;

  GstClContext *ctx;
  cl_command_queue queue;       /* for the one map and unmap of each buffer */
};

G_DEFINE_TYPE (GstClAllocator, gst_cl_allocator, GST_TYPE_ALLOCATOR);

static GstMemory *
gst_cl_allocator_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (allocator);
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = params->prefix + size + params->padding + align;
  GstClMemory *m;
  guint8 *host;
  gsize offset;
  cl_mem buffer;
  cl_int err;

  buffer = clCreateBuffer (self->ctx->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
      maxsize, NULL, &err);
  if (!buffer) {
    GST_ERROR_OBJECT (self, "clCreateBuffer of %" G_GSIZE_FORMAT " pinned bytes on %s: %s",
        maxsize, self->ctx->device_name, gst_cl_error_to_string (err));
    return NULL;
  }
  host = clEnqueueMapBuffer (self->queue, buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
      maxsize, 0, NULL, NULL, &err);
  if (!host) {
    GST_ERROR_OBJECT (self, "clEnqueueMapBuffer of %" G_GSIZE_FORMAT " bytes on %s: %s",
        maxsize, self->ctx->device_name, gst_cl_error_to_string (err));
    clReleaseMemObject (buffer);
    return NULL;
  }

  /* drivers map at page boundaries; the slack covers any other case */
  offset = ((((guintptr) host + params->prefix) + align) & ~(guintptr) align) - (guintptr) host;
  m = g_new0 (GstClMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (m), params->flags, allocator, NULL, maxsize, align, offset,
      size);
  m->buffer = buffer;
  m->host = host;
  m->ctx = self->ctx;
  if (offset && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (host, 0, offset);
  if (params->flags & GST_MEMORY_FLAG_ZERO_PADDED)
    memset (host + offset + size, 0, maxsize - offset - size);
  GST_TRACE_OBJECT (self, "%p: %" G_GSIZE_FORMAT " bytes at %p", m, maxsize, host);
  return GST_MEMORY_CAST (m);
}

static void
gst_cl_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (allocator);
  GstClMemory *m = (GstClMemory *) mem;

  /* a shared sub-memory borrows its parent's buffer */
  if (!mem->parent) {
    cl_int err = clEnqueueUnmapMemObject (self->queue, m->buffer, m->host, 0, NULL, NULL);

    if (err != CL_SUCCESS)
      GST_WARNING_OBJECT (self, "clEnqueueUnmapMemObject: %s", gst_cl_error_to_string (err));
    /* run the unmap now: a driver may hold the release until the queue is flushed */
    clFinish (self->queue);
    clReleaseMemObject (m->buffer);
  }
  g_free (m);
}

static gpointer
cl_mem_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  /* mapped for life: every map is the same address (the memory's offset is added by core) */
  return ((GstClMemory *) mem)->host;
}

static void
cl_mem_unmap (GstMemory * mem)
{
}

static GstMemory *
cl_mem_share (GstMemory * mem, gssize offset, gssize size)
{
  GstClMemory *m = (GstClMemory *) mem, *sub;
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size - offset;
  sub = g_new0 (GstClMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY, mem->allocator,
      parent, mem->maxsize, mem->align, mem->offset + offset, size);
  sub->buffer = m->buffer;
  sub->host = m->host;
  sub->ctx = m->ctx;
  return GST_MEMORY_CAST (sub);
}

static void
gst_cl_allocator_finalize (GObject * object)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (object);

  GST_DEBUG_OBJECT (self, "finalize");
  if (self->queue) {
    clFinish (self->queue);
    clReleaseCommandQueue (self->queue);
  }
  gst_cl_context_release (self->ctx);
  G_OBJECT_CLASS (gst_cl_allocator_parent_class)->finalize (object);
}

static void
gst_cl_allocator_class_init (GstClAllocatorClass * klass)
{
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  allocator_class->alloc = gst_cl_allocator_alloc;
  allocator_class->free = gst_cl_allocator_free;
  G_OBJECT_CLASS (klass)->finalize = gst_cl_allocator_finalize;
  GST_DEBUG_CATEGORY_INIT (gst_cl_memory_debug, "clmemory", 0, "OpenCL pinned memory");
}

static void
gst_cl_allocator_init (GstClAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR (self);

  allocator->mem_type = GST_CL_MEMORY_TYPE;
  allocator->mem_map = cl_mem_map;
  allocator->mem_unmap = cl_mem_unmap;
  allocator->mem_share = cl_mem_share;
  /* not GST_ALLOCATOR_FLAG_CUSTOM_ALLOC: upstream may allocate from it with plain
   * gst_allocator_alloc, which is the point of proposing it */
}

GstAllocator *
gst_cl_allocator_new (GstClContext * ctx)
{
  GstClAllocator *self;
  cl_int err;

  self = g_object_new (GST_TYPE_CL_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->ctx = gst_cl_context_ref (ctx);
  self->queue = clCreateCommandQueue (ctx->context, ctx->device, 0, &err);
  if (!self->queue) {
    GST_ERROR ("clCreateCommandQueue on %s: %s", ctx->device_name,
        gst_cl_error_to_string (err));
    gst_object_unref (self);
    return NULL;
  }
  return GST_ALLOCATOR (self);
}

GstClContext *
gst_cl_allocator_get_context (GstAllocator * allocator)
{
  return GST_CL_ALLOCATOR (allocator)->ctx;
}

GstClMemory *
gst_cl_memory_get (GstMemory * mem, GstClContext * ctx)
{
  if (!mem || !GST_IS_CL_ALLOCATOR (mem->allocator))
    return NULL;
  return ((GstClMemory *) mem)->ctx == ctx ? (GstClMemory *) mem : NULL;
}
