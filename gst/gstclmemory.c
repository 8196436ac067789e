/* clconvolve: OpenCL memory as GstMemory: pinned host memory, and device-resident frames
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
  cl_command_queue queue;       /* maps and unmaps; device memory's transfers */
  gboolean device;
};

G_DEFINE_TYPE (GstClAllocator, gst_cl_allocator, GST_TYPE_ALLOCATOR);

/* A buffer of size bytes in pinned host memory, mapped at *host for its life. */
static cl_mem
pinned_new (GstClAllocator * self, gsize size, guint8 ** host)
{
  cl_mem buffer;
  cl_int err;

  buffer = clCreateBuffer (self->ctx->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size,
      NULL, &err);
  if (!buffer) {
    GST_ERROR_OBJECT (self, "clCreateBuffer of %" G_GSIZE_FORMAT " pinned bytes on %s: %s",
        size, self->ctx->device_name, gst_cl_error_to_string (err));
    return NULL;
  }
  *host = clEnqueueMapBuffer (self->queue, buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
      size, 0, NULL, NULL, &err);
  if (!*host) {
    GST_ERROR_OBJECT (self, "clEnqueueMapBuffer of %" G_GSIZE_FORMAT " bytes on %s: %s",
        size, self->ctx->device_name, gst_cl_error_to_string (err));
    clReleaseMemObject (buffer);
    return NULL;
  }
  return buffer;
}

static void
pinned_free (GstClAllocator * self, cl_mem buffer, guint8 * host)
{
  cl_int err = clEnqueueUnmapMemObject (self->queue, buffer, host, 0, NULL, NULL);

  if (err != CL_SUCCESS)
    GST_WARNING_OBJECT (self, "clEnqueueUnmapMemObject: %s", gst_cl_error_to_string (err));
  /* run the unmap now: a driver may hold the release until the queue is flushed */
  clFinish (self->queue);
  clReleaseMemObject (buffer);
}

static GstMemory *
gst_cl_allocator_alloc (GstAllocator * allocator, gsize size, GstAllocationParams * params)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (allocator);
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = params->prefix + size + params->padding + align;
  GstMemoryFlags flags = params->flags;
  GstClMemory *m;
  guint8 *host = NULL;
  gsize offset;
  cl_mem buffer;
  cl_int err;

  if (self->device) {
    /* device addresses need no aligning: byte 0 of the buffer is aligned for any sample */
    maxsize = params->prefix + size + params->padding;
    buffer = clCreateBuffer (self->ctx->context, CL_MEM_READ_WRITE, maxsize, NULL, &err);
    if (!buffer) {
      GST_ERROR_OBJECT (self, "clCreateBuffer of %" G_GSIZE_FORMAT " device bytes on %s: %s",
          maxsize, self->ctx->device_name, gst_cl_error_to_string (err));
      return NULL;
    }
    offset = params->prefix;
    flags |= GST_MEMORY_FLAG_NO_SHARE;
    flags &= ~(GST_MEMORY_FLAG_ZERO_PREFIXED | GST_MEMORY_FLAG_ZERO_PADDED);
  } else {
    buffer = pinned_new (self, maxsize, &host);
    if (!buffer)
      return NULL;
    /* drivers map at page boundaries; the slack covers any other case */
    offset = ((((guintptr) host + params->prefix) + align) & ~(guintptr) align) -
        (guintptr) host;
  }
  m = g_new0 (GstClMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (m), flags, allocator, NULL, maxsize, align, offset, size);
  m->buffer = buffer;
  m->host = host;
  m->ctx = self->ctx;
  m->device = self->device;
  g_mutex_init (&m->lock);
  if (host && offset && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (host, 0, offset);
  if (host && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (host + offset + size, 0, maxsize - offset - size);
  GST_TRACE_OBJECT (self, "%p: %" G_GSIZE_FORMAT " %s bytes", m, maxsize,
      self->device ? "device" : "pinned");
  return GST_MEMORY_CAST (m);
}

static void
gst_cl_allocator_free (GstAllocator * allocator, GstMemory * mem)
{
  GstClAllocator *self = GST_CL_ALLOCATOR (allocator);
  GstClMemory *m = (GstClMemory *) mem;

  /* a shared sub-memory borrows its parent's buffer */
  if (!mem->parent && m->device) {
    if (m->staging)
      pinned_free (self, m->staging, m->host);
    clReleaseMemObject (m->buffer);
  } else if (!mem->parent) {
    pinned_free (self, m->buffer, m->host);
  }
  g_mutex_clear (&m->lock);
  g_free (m);
}

/* Device-resident memory: brings the copy a map reads (the device's for GST_MAP_CL, else the
 * host staging, made at the first host map) up to date, and marks the other one stale when the
 * map writes (under m->lock). A write-only device map overwrites the frame: nothing is
 * uploaded for it. */
static gboolean
device_sync (GstClAllocator * self, GstClMemory * m, GstMapFlags flags)
{
  GstMemory *mem = GST_MEMORY_CAST (m);
  gboolean device = (flags & GST_MAP_CL) != 0;
  cl_int err = CL_SUCCESS;

  if (!device && !m->staging && !(m->staging = pinned_new (self, mem->maxsize, &m->host)))
    return FALSE;
  if (device && GST_MEMORY_FLAG_IS_SET (mem, GST_CL_MEMORY_NEED_UPLOAD) &&
      (flags & GST_MAP_READ))
    err = clEnqueueWriteBuffer (self->queue, m->buffer, CL_TRUE, 0, mem->maxsize, m->host, 0,
        NULL, NULL);
  else if (!device && GST_MEMORY_FLAG_IS_SET (mem, GST_CL_MEMORY_NEED_DOWNLOAD))
    err = clEnqueueReadBuffer (self->queue, m->buffer, CL_TRUE, 0, mem->maxsize, m->host, 0,
        NULL, NULL);
  if (err != CL_SUCCESS) {
    GST_ERROR_OBJECT (self, "%s of %" G_GSIZE_FORMAT " bytes: %s", device ? "upload" :
        "download", mem->maxsize, gst_cl_error_to_string (err));
    return FALSE;
  }
  GST_MINI_OBJECT_FLAG_UNSET (mem, device ? GST_CL_MEMORY_NEED_UPLOAD :
      GST_CL_MEMORY_NEED_DOWNLOAD);
  if (flags & GST_MAP_WRITE)
    GST_MINI_OBJECT_FLAG_SET (mem, device ? GST_CL_MEMORY_NEED_DOWNLOAD :
        GST_CL_MEMORY_NEED_UPLOAD);
  return TRUE;
}

/* What a GST_MAP_CL map of device-resident memory returns: an address no one reads, so that
 * plane addresses minus it are byte offsets in the buffer. */
#define DEVICE_BASE ((gpointer) (gsize) 0x10000)

static gpointer
cl_mem_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  GstClMemory *m = (GstClMemory *) mem;
  gboolean ok;

  /* pinned: mapped for life, every map is the same address (core adds the memory's offset);
   * with GST_MAP_CL as well, since the device reads that very memory */
  if (!m->device)
    return m->host;
  g_mutex_lock (&m->lock);
  ok = device_sync (GST_CL_ALLOCATOR (mem->allocator), m, flags);
  g_mutex_unlock (&m->lock);
  if (!ok)
    return NULL;
  return (flags & GST_MAP_CL) ? DEVICE_BASE : m->host;
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

  /* device memory has GST_MEMORY_FLAG_NO_SHARE */
  if (m->device)
    return NULL;
  if (size == -1)
    size = mem->size - offset;
  sub = g_new0 (GstClMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY, mem->allocator,
      parent, mem->maxsize, mem->align, mem->offset + offset, size);
  sub->buffer = m->buffer;
  sub->host = m->host;
  sub->ctx = m->ctx;
  g_mutex_init (&sub->lock);
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
  GST_DEBUG_CATEGORY_INIT (gst_cl_memory_debug, "clmemory", 0,
      "OpenCL pinned and device memory");
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

static GstAllocator *
allocator_new (GstClContext * ctx, gboolean device)
{
  GstClAllocator *self;
  cl_int err;

  self = g_object_new (GST_TYPE_CL_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->ctx = gst_cl_context_ref (ctx);
  self->device = device;
  if (device)
    GST_ALLOCATOR (self)->mem_type = GST_CL_DEVICE_MEMORY_TYPE;
  self->queue = clCreateCommandQueue (ctx->context, ctx->device, 0, &err);
  if (!self->queue) {
    GST_ERROR ("clCreateCommandQueue on %s: %s", ctx->device_name,
        gst_cl_error_to_string (err));
    gst_object_unref (self);
    return NULL;
  }
  return GST_ALLOCATOR (self);
}

GstAllocator *
gst_cl_allocator_new (GstClContext * ctx)
{
  return allocator_new (ctx, FALSE);
}

GstAllocator *
gst_cl_allocator_new_device (GstClContext * ctx)
{
  return allocator_new (ctx, TRUE);
}

gboolean
gst_cl_allocator_is_device (GstAllocator * allocator)
{
  return GST_IS_CL_ALLOCATOR (allocator) && GST_CL_ALLOCATOR (allocator)->device;
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

cl_int
gst_cl_buffer_ensure (GstClContext * ctx, cl_mem * mem, gsize * have, gsize need,
    cl_mem_flags flags)
{
  cl_int err = CL_SUCCESS;

  if (*mem && *have >= need)
    return CL_SUCCESS;
  g_clear_pointer (mem, clReleaseMemObject);
  *mem = clCreateBuffer (ctx->context, flags, need, NULL, &err);
  *have = *mem ? need : 0;
  return *mem ? CL_SUCCESS : err;
}
