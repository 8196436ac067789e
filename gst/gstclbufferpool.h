/* clconvolve: a video buffer pool of OpenCL memory (pinned or device-resident)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_CL_BUFFER_POOL_H__
#define __GST_CL_BUFFER_POOL_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideopool.h>
#include "gstclmemory.h"

G_BEGIN_DECLS

/* A GstVideoBufferPool (GstVideoMeta, strides, alignment) whose buffers are always one
 * GstClMemory from its allocator (pinned or device-resident), whatever allocator a config
 * names. */
#define GST_TYPE_CL_BUFFER_POOL (gst_cl_buffer_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstClBufferPool, gst_cl_buffer_pool, GST, CL_BUFFER_POOL,
    GstVideoBufferPool);

/* A pool whose buffers come from allocator (a GstClAllocator), which it keeps. */
GstBufferPool *gst_cl_buffer_pool_new (GstAllocator * allocator);
/* The context whose memory the pool hands out (no reference added), NULL when pool is not a
 * GstClBufferPool. */
GstClContext *gst_cl_buffer_pool_get_context (GstBufferPool * pool);
/* Whether the pool hands out device-resident memory. */
gboolean gst_cl_buffer_pool_is_device (GstBufferPool * pool);

G_END_DECLS

#endif /* __GST_CL_BUFFER_POOL_H__ */
