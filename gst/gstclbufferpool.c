/* clconvolve: a video buffer pool of OpenCL memory (pinned or device-resident)
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

#include "gstclbufferpool.h"

GST_DEBUG_CATEGORY_STATIC (gst_cl_buffer_pool_debug);
#define GST_CAT_DEFAULT gst_cl_buffer_pool_debug

struct _GstClBufferPool
{
  GstVideoBufferPool parent;

  GstAllocator *allocator;
  GstClContext *ctx;
};

G_DEFINE_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST_TYPE_VIDEO_BUFFER_POOL);

static gboolean
gst_cl_buffer_pool_set_config (GstBufferPool * pool, GstStructure * config)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (pool);
  GstAllocationParams params;

  /* keep the caller's alignment, prefix and padding; the memory is always ours */
  if (!gst_buffer_pool_config_get_allocator (config, NULL, &params))
    gst_allocation_params_init (&params);
  params.flags &= ~GST_MEMORY_FLAG_NOT_MAPPABLE;
  gst_buffer_pool_config_set_allocator (config, self->allocator, &params);
  return GST_BUFFER_POOL_CLASS (gst_cl_buffer_pool_parent_class)->set_config (pool, config);
}

static void
gst_cl_buffer_pool_finalize (GObject * object)
{
  GstClBufferPool *self = GST_CL_BUFFER_POOL (object);

  GST_DEBUG_OBJECT (self, "finalize");
  gst_clear_object (&self->allocator);
  G_OBJECT_CLASS (gst_cl_buffer_pool_parent_class)->finalize (object);
}

static void
gst_cl_buffer_pool_class_init (GstClBufferPoolClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = gst_cl_buffer_pool_finalize;
  GST_BUFFER_POOL_CLASS (klass)->set_config = gst_cl_buffer_pool_set_config;
  GST_DEBUG_CATEGORY_INIT (gst_cl_buffer_pool_debug, "clbufferpool", 0,
      "OpenCL pinned buffer pool");
}

static void
gst_cl_buffer_pool_init (GstClBufferPool * self)
{
}

GstBufferPool *
gst_cl_buffer_pool_new (GstAllocator * allocator)
{
  GstClBufferPool *self;

  g_return_val_if_fail (GST_IS_CL_ALLOCATOR (allocator), NULL);
  self = g_object_new (GST_TYPE_CL_BUFFER_POOL, NULL);
  gst_object_ref_sink (self);
  self->allocator = gst_object_ref (allocator);
  self->ctx = gst_cl_allocator_get_context (allocator);
  GST_DEBUG_OBJECT (self, "new, memory of %" GST_PTR_FORMAT, allocator);
  return GST_BUFFER_POOL (self);
}

GstClContext *
gst_cl_buffer_pool_get_context (GstBufferPool * pool)
{
  return GST_IS_CL_BUFFER_POOL (pool) ? GST_CL_BUFFER_POOL (pool)->ctx : NULL;
}

gboolean
gst_cl_buffer_pool_is_device (GstBufferPool * pool)
{
  return GST_IS_CL_BUFFER_POOL (pool) &&
      gst_cl_allocator_is_device (GST_CL_BUFFER_POOL (pool)->allocator);
}
