/* clconvolve: a frame on the device (map, check, paths, staging, submit, wait, frames in flight)
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

#include "clframes.h"
#include "gstclenums.h"
#include "gstclmemory.h"
#include "gstclsources.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (cl_frames_debug);
#define GST_CAT_DEFAULT cl_frames_debug

/* A regions frame's device buffers (in: windows of host frames uploaded; out: what the
 * kernels write; frame: a host frame moved whole) and its batches' (images in and out, the
 * copies' tables: table, on the host until the upload queued from it has run) */
typedef struct
{
  cl_mem region_in, region_out, region_frame;
  gsize region_in_bytes, region_out_bytes, region_frame_bytes;
  cl_mem batch_in, batch_out, batch_table;
  gsize batch_in_bytes, batch_out_bytes, batch_table_bytes;
  gint *table;
  gsize table_ints;
  /* the blocks of windows launched together (plan_blocks): their table here and on the device */
  cl_mem block_table;
  gsize block_table_bytes;
  gint *blocks;
  gsize blocks_ints;
} ClRegionBufs;

/* A frame queued on the device: its frames (mapped), what was queued for it and what is left to
 * do once its output is written. Each slot has device copies and staging of its own, so that
 * frame n+1 never overwrites what frame n still reads or writes. A regions frame (region) has
 * only out mapped: the frame filtered in place. */
typedef struct
{
  gboolean region;
  ClRegionBufs rb;
  GstBuffer *inbuf, *outbuf;    /* held while in flight; NULL for transform ()'s frames */
  GstVideoFrame in, out;
  ClEvents *e;                  /* its events (large: allocated once per slot) */
  cl_event done;                /* completes when the output is written */
  ClFrameRun f;                 /* what it runs on: finished after a failure */
  cl_mem src_mem, dst_mem;      /* discrete device: the frame's device copies */
  gsize src_bytes, dst_bytes;
  GstMemory *stage_in, *stage_out;      /* pinned staging for frames in other memory */
  gboolean copy_out;            /* unified device: the output is staged, copied out at the end */
  gboolean busy;                /* counted in the context's frames_busy */
  ClPlane dst[CL_MAX_PLANES];   /* ... from these planes */
  gint n_planes, row[CL_MAX_PLANES], height[CL_MAX_PLANES];
  guint copies;
  ClMemPath path_in, path_out;
} ClFrameSlot;

static const gchar *const path_names[] = {
  "none", "in-place", "pinned-dma", "staging-copy", "pageable-dma", "device"
};

static const gchar *const path_logs[] = {
  "none",
  "pinned memory of this device, used in place by the kernel (no copy)",
  "pinned memory of this device, moved by DMA (no host copy)",
  "not pinned memory of this device: one host copy per frame through a pinned staging buffer",
  "not pinned memory of this device: DMA from pageable memory (the driver copies it)",
  "memory:CLBuffer on this device: the frame stays in device memory (no transfer)"
};

typedef struct _ClRegionGroup ClRegionGroup;

/* Windows of one group and view convolved by one launch over an image of them one under the
 * other: its group, view, pitch, width (its widest window, in the view's pixels) and rows,
 * and its place in the batch buffers (the same in both) */
typedef struct
{
  gint group, view;
  gint pitch, width, rows;
  gsize at;
} ClRegionBatch;

/* A rectangle of a batched part's region that the scatter writes back: bytes and rows of its
 * plane */
typedef struct
{
  gint part;
  gint x, y, w, h;
} ClScatterPiece;

struct _ClFrames
{
  GstElement *owner;
  GstClContext *ctx;
  /* the context's frame queues: kernels (and everything on a host-unified device), then on a
   * discrete device the transfers up and down */
  cl_command_queue queues[GST_CL_CONTEXT_N_QUEUES];
  gboolean discrete;            /* frames are copied to device memory and back */
  gboolean profiling;           /* the queues record profiling events */
  gint copy_parts;              /* staging copies' pieces */
  gint region_whole;            /* regions' parts from which a host frame moves whole */
  ClFrameStats *st;
  ClPrepareFunc prepare;
  gpointer user;
  GstVideoInfo in_info, out_info;       /* the negotiated formats of the frame at hand */
  GstAllocator *allocator;      /* pinned memory: proposed upstream, staging */
  GstAllocator *dev_allocator;  /* memory:CLBuffer: device-resident on a discrete device, else
                                 * the pinned allocator */
  ClFrameSlot *slots;           /* CL_MAX_INFLIGHT of them, a ring: n_pending from `oldest` */
  guint oldest, n_pending;
  ClEvents *spent;              /* the last completed frame's events, released while the next
                                 * frame is on the device */
  /* regions: the parts of the frame's regions, their groups and batches (planned as a frame
   * is queued; its buffers are its slot's), kernels/regions.cl's copy (NULL until made;
   * copy_failed: never) */
  ClRegionPart *parts;          /* CL_MAX_REGIONS x CL_MAX_VIEWS */
  ClRegionGroup *groups;        /* CL_MAX_REGION_SIZES */
  ClRegionBatch *batches;       /* CL_MAX_REGION_SIZES x CL_MAX_VIEWS */
  gint n_batches;
  ClScatterPiece *pieces;       /* the scatter's (scatter_pieces): n_pieces of max_pieces */
  gint n_pieces, max_pieces;
  cl_program copy_prog;
  cl_kernel copy;
  gboolean copy_failed;
};

#define FLOW_FAILED(what, err) GST_CL_ELEMENT_FAILED (fs->owner, fs->ctx, what, err)

void
cl_frames_init_debug (void)
{
  /* the element's category (docs/design.md, "Where new code goes") */
  GST_DEBUG_CATEGORY_INIT (cl_frames_debug, "clconvolve", 0, "OpenCL convolution");
}

const gchar *
cl_mem_path_name (ClMemPath path)
{
  return path_names[path];
}

/* Whether the fields of frame (of info) are filtered apart: those of an interlaced frame
 * (interleaved, or mixed with the buffer flagged), where alternate's frames are one field each
 * already. */
static gboolean
fields_apart (const GstVideoInfo * info, const GstVideoFrame * frame)
{
  return GST_VIDEO_FRAME_IS_INTERLACED (frame) &&
      GST_VIDEO_INFO_INTERLACE_MODE (info) != GST_VIDEO_INTERLACE_MODE_ALTERNATE;
}

static void
set_infos (ClFrames * fs, const GstVideoInfo * in_info, const GstVideoInfo * out_info)
{
  fs->in_info = *in_info;
  fs->out_info = *out_info;
}

/* What the submit helpers return after posting a failure of their own (not an OpenCL error). */
#define POSTED 1

static gboolean
ensure_buffer (ClFrames * fs, cl_mem * mem, gsize * have, gsize need, cl_mem_flags flags)
{
  cl_int err = gst_cl_buffer_ensure (fs->ctx, mem, have, need, flags);

  if (err != CL_SUCCESS)
    FLOW_FAILED ("clCreateBuffer", err);
  return err == CL_SUCCESS;
}

static const gchar *const stage_names[GST_CL_N_STAGES] = { "upload", "kernel", "download" };

/* Where a frame's planes lie. */
typedef enum
{
  FRAME_HOST,                   /* anywhere else: copied by the host or the driver */
  FRAME_PINNED,                 /* one pinned memory of our device */
  FRAME_DEVICE                  /* one device-resident memory of our device (memory:CLBuffer) */
} FrameMem;

/* The buffer's one GstClMemory of our device, else NULL. */
static GstClMemory *
buffer_cl_memory (ClFrames * fs, GstBuffer * buffer)
{
  if (gst_buffer_n_memory (buffer) != 1)
    return NULL;
  return gst_cl_memory_get (gst_buffer_peek_memory (buffer, 0), fs->ctx);
}

/* The frame's planes and where they lie: when all of them lie in one memory of our device, each
 * plane's mem is set (its host is NULL for device-resident memory, which map_frames mapped with
 * GST_MAP_CL). */
static FrameMem
frame_planes (ClFrames * fs, GstVideoFrame * frame, const ClLayout * L, ClPlane * p)
{
  GstClMemory *m = buffer_cl_memory (fs, frame->buffer);
  GstMemory *mem = GST_MEMORY_CAST (m);
  gboolean ours = m != NULL;
  const guint8 *base = NULL;

  /* the address byte 0 of the memory was mapped at (a device map's is not memory) */
  if (m)
    base = (const guint8 *) frame->map[0].data - mem->offset;
  for (gint i = 0; i < L->n_planes; i++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, i);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, i);
    gsize extent = (gsize) stride * (L->height[i] - 1) + L->row[i];

    p[i].host = m && m->device ? NULL : data;
    p[i].pitch = stride;
    p[i].mem = NULL;
    p[i].offset = 0;
    /* 16-bit samples are loaded as such: they must be aligned (staging always is) */
    /* and the kernels' 32-bit offsets must reach the whole plane */
    if (!ours || stride < L->row[i] || data < base + mem->offset ||
        (gsize) (data - base) + extent > G_MAXINT32 ||
        (L->depth == 16 && (((guintptr) data | (guintptr) stride) & 1)) ||
        data + extent > base + mem->offset + mem->size) {
      ours = FALSE;
      continue;
    }
    p[i].mem = m->buffer;
    p[i].offset = data - base;
  }
  if (!ours)
    for (gint i = 0; i < L->n_planes; i++)
      p[i].mem = NULL;
  return !ours ? FRAME_HOST : m->device ? FRAME_DEVICE : FRAME_PINNED;
}

/* Whether every plane of frame holds L's rows inside the memory the frame mapped for it
 * (the whole buffer, or with a GstVideoMeta the memory holding the plane's offset): offset +
 * stride x (rows - 1) + row bytes, with stride >= row bytes. A meta may say anything; nothing
 * outside the mapped memory may be read or written. On failure *why says which plane and how
 * (free it). */
static gboolean
frame_in_bounds (const GstVideoFrame * frame, const ClLayout * L, gchar ** why)
{
  for (gint p = 0; p < L->n_planes; p++) {
    const GstMapInfo *map = &frame->map[frame->meta ? p : 0];
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    gsize start = data - map->data;
    gsize extent = (gsize) L->row[p] + (gsize) MAX (stride, 0) * (L->height[p] - 1);

    if (stride < L->row[p]) {
      *why = g_strdup_printf ("plane %d's stride (%d bytes) is shorter than its rows (%d "
          "bytes)", p, stride, L->row[p]);
      return FALSE;
    }
    if (data < map->data || start > map->size || extent > map->size - start) {
      *why = g_strdup_printf ("plane %d (offset %" G_GSIZE_FORMAT ", stride %d, %d rows of %d "
          "bytes: %" G_GSIZE_FORMAT " bytes) runs past the end of its memory (%" G_GSIZE_FORMAT
          " bytes)", p, start, stride, L->height[p], L->row[p], extent, map->size);
      return FALSE;
    }
  }
  return TRUE;
}

/* Pinned staging memory of at least size bytes in *stage. FALSE after posting why. */
static gboolean
ensure_stage (ClFrames * fs, GstMemory ** stage, gsize size)
{
  if (*stage && (*stage)->size >= size)
    return TRUE;
  if (*stage)
    gst_memory_unref (*stage);
  *stage = gst_allocator_alloc (fs->allocator, size, NULL);
  if (!*stage)
    GST_ELEMENT_ERROR (fs->owner, RESOURCE, NO_SPACE_LEFT, ("Could not allocate %" G_GSIZE_FORMAT
            " bytes of pinned memory on %s.", size, fs->ctx->device_name), (NULL));
  return *stage != NULL;
}

/* The planes packed one after the other (L's layout) in pinned staging memory. */
static gboolean
staging_planes (ClFrames * fs, GstMemory ** stage, const ClLayout * L, ClPlane * p)
{
  GstClMemory *m;

  if (!ensure_stage (fs, stage, L->size))
    return FALSE;
  m = (GstClMemory *) * stage;
  for (gint i = 0; i < L->n_planes; i++) {
    p[i].mem = m->buffer;
    p[i].offset = (*stage)->offset + L->base[i];
    p[i].pitch = L->row[i];
    p[i].host = m->host + (*stage)->offset + L->base[i];
  }
  return TRUE;
}

/* Profiling events of a frame, per stage, in the order they were queued. */
static void
log_path (ClFrames * fs, const gchar * side, ClMemPath old, ClMemPath path)
{
  if (old != path)
    GST_INFO_OBJECT (fs->owner, "%s: %s", side, path_logs[path]);
}

/* Counts the frame, its host copies and paths, and adds its profiling events to the stats. */
static void
record_frame (ClFrames * fs, const ClFrameRun * f, const ClEvents * e, guint copies,
    ClMemPath path_in, ClMemPath path_out)
{
  log_path (fs, "input", fs->st->path_in, path_in);
  log_path (fs, "output", fs->st->path_out, path_out);

  g_mutex_lock (fs->st->lock);
  for (gint i = 0; fs->profiling && i < GST_CL_N_STAGES; i++) {
    for (gint b = 0; b < e->n[i]; b++) {
      cl_ulong t0 = 0, t1 = 0;

      if (!e->ev[i][b] || clGetEventProfilingInfo (e->ev[i][b], CL_PROFILING_COMMAND_START,
              sizeof (t0), &t0, NULL) != CL_SUCCESS ||
          clGetEventProfilingInfo (e->ev[i][b], CL_PROFILING_COMMAND_END, sizeof (t1), &t1,
              NULL) != CL_SUCCESS)
        continue;
      gst_cl_stats_add (&fs->st->stats, i, t0, t1);
      /* tests/bench/timeline.py draws these (GST_DEBUG=clconvolve:TRACE) */
      GST_TRACE_OBJECT (fs->owner, "timeline frame=%" G_GUINT64_FORMAT " stage=%s band=%d "
          "start=%" G_GUINT64_FORMAT " end=%" G_GUINT64_FORMAT, fs->st->stats.frames,
          stage_names[i], b, (guint64) t0, (guint64) t1);
    }
  }
  fs->st->stats.frames++;
  for (gint i = 0; f->built && i < CL_MAX_SHAPES; i++)
    if (f->built[i].kernel && f->built[i].variant.generic) {
      fs->st->generic_frames++;
      break;
    }
  fs->st->host_copies += copies;
  fs->st->path_in = path_in;
  fs->st->path_out = path_out;
  g_mutex_unlock (fs->st->lock);
}

/* The slot's frame no longer keeps the device's queues busy. */
static void
slot_idle (ClFrames * fs, ClFrameSlot * slot)
{
  if (slot->busy)
    g_atomic_int_add (&fs->ctx->frames_busy, -1);
  slot->busy = FALSE;
}

/* A host-unified device's frame: the kernels use pinned frames in place, others go through
 * pinned staging (the input copied in here, the output copied out at completion). POSTED
 * after a failure to stage. */
static cl_int
submit_unified (ClFrames * fs, ClFrameSlot * slot, const ClLayout * L, FrameMem in_mem,
    FrameMem out_mem, ClPlane * src, ClPlane * dst, const gchar ** what)
{
  gboolean in_pinned = in_mem != FRAME_HOST, out_pinned = out_mem != FRAME_HOST;

  slot->path_in = in_pinned ? CL_PATH_IN_PLACE : CL_PATH_STAGING_COPY;
  slot->path_out = out_pinned ? CL_PATH_IN_PLACE : CL_PATH_STAGING_COPY;
  if (!in_pinned) {
    ClPlane frame[CL_MAX_PLANES];

    memcpy (frame, src, sizeof (frame));
    if (!staging_planes (fs, &slot->stage_in, L, src))
      return POSTED;
    for (gint p = 0; p < L->n_planes; p++)
      gst_cl_copy_rows (src[p].host, src[p].pitch, frame[p].host, frame[p].pitch, L->row[p],
          L->height[p]);
    slot->copies++;
  }
  if (!out_pinned) {
    if (!staging_planes (fs, &slot->stage_out, L, dst))
      return POSTED;
    slot->copies++;
    slot->copy_out = TRUE;
    memcpy (slot->dst, dst, sizeof (slot->dst));
    slot->n_planes = L->n_planes;
    memcpy (slot->row, L->row, sizeof (slot->row));
    memcpy (slot->height, L->height, sizeof (slot->height));
  }
  return gst_cl_run_unified (&slot->f, L, src, dst, slot->e, &slot->done, what);
}

/* A discrete device's frame: uploaded to device buffers (from pinned memory by DMA, from
 * other memory through staging) unless it is device-resident, downloaded the same way, in
 * bands. POSTED after a failure to allocate. */
static cl_int
submit_discrete (ClFrames * fs, ClFrameSlot * slot, const ClLayout * L, FrameMem in_mem,
    FrameMem out_mem, ClPlane * src, ClPlane * dst, gint bands, const gchar ** what)
{
  gint others;
  gboolean in_dev = in_mem == FRAME_DEVICE, out_dev = out_mem == FRAME_DEVICE;
  ClPlane dev_in[CL_MAX_PLANES], dev_out[CL_MAX_PLANES];

  slot->path_in = in_dev ? CL_PATH_DEVICE : in_mem == FRAME_PINNED ? CL_PATH_PINNED_DMA :
      CL_PATH_STAGING_COPY;
  slot->path_out = out_dev ? CL_PATH_DEVICE : out_mem == FRAME_PINNED ? CL_PATH_PINNED_DMA :
      CL_PATH_PAGEABLE_DMA;
  /* the frame's device copies: the memory itself when it is device-resident, else the
   * slot's buffers with the planes packed */
  if ((!in_dev && !ensure_buffer (fs, &slot->src_mem, &slot->src_bytes, L->size,
              CL_MEM_READ_ONLY)) || (!out_dev && !ensure_buffer (fs, &slot->dst_mem,
              &slot->dst_bytes, L->size, CL_MEM_WRITE_ONLY)))
    return POSTED;
  for (gint p = 0; p < L->n_planes; p++) {
    dev_in[p] = in_dev ? src[p] : (ClPlane) { slot->src_mem, L->base[p], L->row[p], NULL };
    dev_out[p] = out_dev ? dst[p] : (ClPlane) { slot->dst_mem, L->base[p], L->row[p], NULL };
  }
  if (in_mem == FRAME_HOST) {
    if (!staging_planes (fs, &slot->stage_in, L, src))
      return POSTED;
    slot->copies++;
  }
  slot->copies += out_mem == FRAME_HOST;
  /* automatic bands while other frames (this element's in flight, or other elements') keep
   * the queues busy: a few large ones (the runner's CL_BANDS_BUSY) behind one other frame,
   * none behind two or more, where the queues stay full anyway and every band costs driver
   * calls (docs/design.md) */
  slot->busy = TRUE;
  others = g_atomic_int_add (&fs->ctx->frames_busy, 1);
  if (others > 0 && bands == 0)
    bands = others > 1 ? 1 : CL_BANDS_BUSY;
  return gst_cl_run_discrete (&slot->f, L, in_dev ? NULL : src, dev_in, dev_out,
      out_dev ? NULL : dst, in_mem == FRAME_HOST ? &slot->in : NULL, bands, slot->e,
      &slot->done, what);
}

/* Queues the frame of slot (its in and out mapped) on the device: on success slot->done is
 * set, and frame_complete finishes it. */
static GstFlowReturn
frame_submit (ClFrames * fs, ClFrameSlot * slot)
{
  GstVideoFrame *in = &slot->in, *out = &slot->out;
  FrameMem in_mem, out_mem;
  ClEvents *e = slot->e;
  gint bands;
  ClPlane src[CL_MAX_PLANES], dst[CL_MAX_PLANES];
  ClLayout L;
  ClFrameRun *f = &slot->f;
  const gchar *what = "";
  gchar *why = NULL;
  cl_int err;

  gint64 start = g_get_monotonic_time ();

  slot->done = NULL;
  slot->copies = 0;
  slot->copy_out = FALSE;
  slot->busy = FALSE;
  memset (f, 0, sizeof (*f));
  /* the negotiated size, not a GstVideoMeta's (which may be larger, or lie); the fields of an
   * interlaced frame (interleaved, or mixed with the buffer flagged) filtered apart, where
   * alternate's frames are one field each already */
  if (!fs->prepare (fs->user, fields_apart (&fs->in_info, in), 0, &L, f, &bands))
    return GST_FLOW_ERROR;
  /* what held a frame up beyond a pointer's check (never a compiler: tests/bench/gaps.sh) */
  if (g_get_monotonic_time () - start > 5000)
    GST_DEBUG_OBJECT (fs->owner, "the frame's kernels took %.1f ms to make ready",
        (g_get_monotonic_time () - start) / 1000.0);
  if (!frame_in_bounds (in, &L, &why)) {
    GST_ELEMENT_WARNING (fs->owner, STREAM, FORMAT, ("Dropped an invalid input frame: %s.", why),
        ("%" GST_PTR_FORMAT, in->buffer));
    g_free (why);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  if (!frame_in_bounds (out, &L, &why)) {
    GST_ELEMENT_ERROR (fs->owner, STREAM, FAILED, ("The output buffer is not a valid frame: %s.",
            why), ("%" GST_PTR_FORMAT, out->buffer));
    g_free (why);
    return GST_FLOW_ERROR;
  }

  in_mem = frame_planes (fs, in, &L, src);
  out_mem = frame_planes (fs, out, &L, dst);
  /* device-resident memory was mapped for the device alone: its planes must be usable there
   * (our pools' always are) */
  if ((in_mem == FRAME_HOST && !src[0].host) || (out_mem == FRAME_HOST && !dst[0].host)) {
    GST_ELEMENT_ERROR (fs->owner, STREAM, FAILED, ("A frame in device memory has a plane layout "
            "the kernels cannot use (odd 16-bit offsets or strides, or beyond 2 GiB)."),
        ("%" GST_PTR_FORMAT, in_mem == FRAME_HOST ? in->buffer : out->buffer));
    return GST_FLOW_ERROR;
  }

  err = fs->discrete ? submit_discrete (fs, slot, &L, in_mem, out_mem, src, dst, bands, &what) :
      submit_unified (fs, slot, &L, in_mem, out_mem, src, dst, &what);
  if (err == POSTED)
    return GST_FLOW_ERROR;
  if (err != CL_SUCCESS) {
    /* transfers may still use the frames: let them finish before the frames are unmapped */
    gst_cl_run_finish (f);
    slot_idle (fs, slot);
    g_clear_pointer (&slot->done, clReleaseEvent);
    gst_cl_events_release (e);
    FLOW_FAILED (what, err);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

/* Waits for a submitted frame's output, copies it out of staging where it was staged and
 * counts it. */
static GstFlowReturn
frame_complete (ClFrames * fs, ClFrameSlot * slot)
{
  cl_int err;

  /* the previous frame's events go while this one is on the device: releasing them is a
   * driver call each, off the host's critical path here */
  if (fs->spent)
    gst_cl_events_release (fs->spent);
  err = clWaitForEvents (1, &slot->done);

  if (err == CL_SUCCESS) {
    /* an event's status after the wait: a failed command (CL_EXEC_STATUS_ERROR...) */
    cl_int status = CL_COMPLETE;

    clGetEventInfo (slot->done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status,
        NULL);
    if (status < 0)
      err = status;
  }
  g_clear_pointer (&slot->done, clReleaseEvent);
  slot_idle (fs, slot);
  if (err != CL_SUCCESS) {
    gst_cl_run_finish (&slot->f);
    gst_cl_events_release (slot->e);
    FLOW_FAILED ("frame", err);
    return GST_FLOW_ERROR;
  }
  if (slot->copy_out)
    for (gint p = 0; p < slot->n_planes; p++)
      gst_cl_copy_rows (GST_VIDEO_FRAME_PLANE_DATA (&slot->out, p),
          GST_VIDEO_FRAME_PLANE_STRIDE (&slot->out, p), slot->dst[p].host, slot->dst[p].pitch,
          slot->row[p], slot->height[p]);
  record_frame (fs, &slot->f, slot->e, slot->copies, slot->path_in, slot->path_out);
  {
    ClEvents *emptied = fs->spent ? fs->spent : g_new0 (ClEvents, 1);

    fs->spent = slot->e;
    slot->e = emptied;
  }
  return GST_FLOW_OK;
}

/* The next free slot of the ring (there is one: callers keep n_pending < CL_MAX_INFLIGHT). */
static ClFrameSlot *
free_slot (ClFrames * fs)
{
  ClFrameSlot *slot;

  g_assert (fs->n_pending < CL_MAX_INFLIGHT);
  slot = &fs->slots[(fs->oldest + fs->n_pending) % CL_MAX_INFLIGHT];
  if (!slot->e)
    slot->e = g_new0 (ClEvents, 1);
  return slot;
}

/* Why buffer cannot be mapped as a frame of info (NULL when it can): GstVideoFilter's own
 * transform pushes the output buffer unfilled, with a warning, when a map fails, and
 * gst_video_frame_map () is critical about a GstVideoMeta that contradicts the caps. Free with
 * g_free. */
static gchar *
frame_map_problem (const GstVideoInfo * info, GstBuffer * buffer)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);

  if (!meta) {
    if (gst_buffer_get_size (buffer) < GST_VIDEO_INFO_SIZE (info))
      return g_strdup_printf ("the buffer holds %" G_GSIZE_FORMAT " bytes where a %dx%d %s "
          "frame needs %" G_GSIZE_FORMAT, gst_buffer_get_size (buffer),
          GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info),
          GST_VIDEO_INFO_SIZE (info));
    return NULL;
  }
  if (meta->format != GST_VIDEO_INFO_FORMAT (info) ||
      meta->n_planes != GST_VIDEO_INFO_N_PLANES (info) ||
      meta->width < GST_VIDEO_INFO_WIDTH (info) || meta->height < GST_VIDEO_INFO_HEIGHT (info))
    return g_strdup_printf ("its GstVideoMeta (%ux%u %s, %u planes) contradicts the caps (%dx%d "
        "%s)", meta->width, meta->height, gst_video_format_to_string (meta->format),
        meta->n_planes, GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info),
        GST_VIDEO_INFO_NAME (info));
  return NULL;
}

/* Maps inbuf and outbuf as frames of the negotiated format into slot: GST_FLOW_OK, or
 * GST_BASE_TRANSFORM_FLOW_DROPPED with a warning when the input is not a valid frame (no
 * unfilled output frame goes downstream), or an error when the output is not one. GstVideoFilter's
 * own transform would push the output unfilled when a map fails, and gst_video_frame_map () is
 * critical about a GstVideoMeta that contradicts the caps. The planes' bounds are checked in
 * frame_submit. */
static GstFlowReturn
map_frames (ClFrames * fs, ClFrameSlot * slot, GstBuffer * inbuf, GstBuffer * outbuf)
{
  GstClMemory *m;
  GstMapFlags in_cl = 0, out_cl = 0;
  gchar *why;

  slot->region = FALSE;
  /* device-resident memory of our device is mapped for the device: nothing comes to the host */
  if ((m = buffer_cl_memory (fs, inbuf)) && m->device)
    in_cl = GST_MAP_CL;
  if ((m = buffer_cl_memory (fs, outbuf)) && m->device)
    out_cl = GST_MAP_CL;

  why = frame_map_problem (&fs->in_info, inbuf);
  if (why || !gst_video_frame_map (&slot->in, &fs->in_info, inbuf,
          GST_MAP_READ | in_cl | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    GST_ELEMENT_WARNING (fs->owner, STREAM, FORMAT, ("Dropped an invalid input frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, inbuf));
    g_free (why);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  why = frame_map_problem (&fs->out_info, outbuf);
  if (why || !gst_video_frame_map (&slot->out, &fs->out_info, outbuf,
          GST_MAP_WRITE | out_cl | GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    GST_ELEMENT_ERROR (fs->owner, STREAM, FAILED, ("The output buffer is not a valid frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, outbuf));
    g_free (why);
    gst_video_frame_unmap (&slot->in);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

static void
unmap_frames (ClFrameSlot * slot)
{
  gst_video_frame_unmap (&slot->out);
  if (!slot->region)
    gst_video_frame_unmap (&slot->in);
}

/* A frame queued and waited for: it leaves complete before the next one comes. */
static GstFlowReturn
run_frame (ClFrames * fs, ClFrameSlot * slot)
{
  GstFlowReturn ret = frame_submit (fs, slot);

  return ret == GST_FLOW_OK ? frame_complete (fs, slot) : ret;
}

/* The regions of one matrix side (0: the element's), their layout and kernels, and their
 * parts: [first, first + n) of the frame's */
struct _ClRegionGroup
{
  gint size;
  ClLayout L;
  ClFrameRun run;
  gint first, n;
  /* its batched parts: how many, their gather and scatter tables (bases in the slot's table;
   * groups sharing a table have the same base), the rectangles, rows and widest rows (bytes)
   * of each table */
  gint n_batched, gather_base, scatter_base;
  gint gather_rects, gather_rows, gather_bytes, scatter_rects, scatter_rows, scatter_bytes;
  /* per view, the blocks of its windows launched together: their first in the blocks' table
   * (in entries) and how many (0: none) */
  gint block_base[CL_MAX_VIEWS], n_blocks[CL_MAX_VIEWS];
};

/* kernels/regions.cl's copy, made at the first frame that batches (once per process and
 * device: later ones load it from the program caches); FALSE, with a warning, when it cannot
 * be: the windows then run one by one */
static gboolean
ensure_copy_kernel (ClFrames * fs)
{
  cl_int err = CL_SUCCESS;
  gchar *log = NULL;

  if (fs->copy || fs->copy_failed)
    return fs->copy != NULL;
  /* common.cl comes first in every program: these options satisfy its checks */
  fs->copy_prog = gst_cl_context_get_program (fs->ctx, gst_cl_regions_source (),
      "-DGENERIC -DCHANNELS=1 -DDEPTH=8 -DSKIPMASK=0", TRUE, &err, &log);
  if (fs->copy_prog)
    fs->copy = clCreateKernel (fs->copy_prog, "region_copy", &err);
  if (!fs->copy) {
    GST_WARNING_OBJECT (fs->owner, "the regions' copy kernel failed (%d): regions run one by "
        "one%s%s", err, log ? "\n" : "", log ? log : "");
    fs->copy_failed = TRUE;
  }
  g_free (log);
  return fs->copy != NULL;
}

/* Appends a copy rectangle to table at *nt */
static void
table_rect (gint * table, gsize * nt, gint src, gint src_pitch, gint dst, gint dst_pitch,
    gint bytes, gint row0)
{
  gint *t = table + *nt;

  t[0] = src;
  t[1] = src_pitch;
  t[2] = dst;
  t[3] = dst_pitch;
  t[4] = bytes;
  t[5] = row0;
  t[6] = t[7] = 0;
  *nt += 8;
}

/* Appends rectangle r (x, y, w, h) less rectangle c to fs->pieces for part k: up to four
 * pieces (the rows above and below c, its left and right in the rows they share) */
static void
piece_minus (ClFrames * fs, gint k, const gint r[4], const gint c[4])
{
  gint y0 = MAX (r[1], c[1]), y1 = MIN (r[1] + r[3], c[1] + c[3]);
  gint x0 = MAX (r[0], c[0]), x1 = MIN (r[0] + r[2], c[0] + c[2]);
  gint cut[4][4] = {
    {r[0], r[1], r[2], y0 - r[1]}, {r[0], y1, r[2], r[1] + r[3] - y1},
    {r[0], y0, x0 - r[0], y1 - y0}, {x1, y0, r[0] + r[2] - x1, y1 - y0},
  };

  if (y1 <= y0 || x1 <= x0) {
    fs->pieces[fs->n_pieces++] = (ClScatterPiece) { k, r[0], r[1], r[2], r[3] };
    return;
  }
  for (gint i = 0; i < 4; i++)
    if (cut[i][2] > 0 && cut[i][3] > 0)
      fs->pieces[fs->n_pieces++] = (ClScatterPiece) { k, cut[i][0], cut[i][1], cut[i][2],
        cut[i][3] };
}

/* Appends part k's whole region to fs->pieces */
static void
whole_piece (ClFrames * fs, gint k)
{
  const ClRegionPart *p = &fs->parts[k];

  fs->pieces[fs->n_pieces++] = (ClScatterPiece) { k, (gint) (p->x + p->rx), p->y + p->ry,
    (gint) p->rbytes, p->rrows };
}

/* Whether the regions of parts a and b meet (the same plane and field, rows and bytes
 * intersecting) */
static gboolean
parts_meet (const ClRegionPart * a, const ClRegionPart * b)
{
  return a->plane == b->plane && a->field == b->field &&
      a->y + a->ry < b->y + b->ry + b->rrows && b->y + b->ry < a->y + a->ry + a->rrows &&
      a->x + a->rx < b->x + b->rx + b->rbytes && b->x + b->rx < a->x + a->rx + a->rbytes;
}

/* scatter_pieces' cutting, each batched region less those of later groups: FALSE past 16
 * pieces a region */
static gboolean
pieces_cut (ClFrames * fs, gint n_groups)
{
  gint n = fs->groups[n_groups - 1].first + fs->groups[n_groups - 1].n;

  for (gint g = 0; g < n_groups; g++) {
    const ClRegionGroup *gr = &fs->groups[g];

    for (gint k = gr->first; k < gr->first + gr->n; k++) {
      const ClRegionPart *p = &fs->parts[k];
      gint first = fs->n_pieces;

      if (p->batch < 0)
        continue;
      whole_piece (fs, k);
      for (gint j = gr->first + gr->n; j < n; j++) {
        const ClRegionPart *q = &fs->parts[j];
        const gint c[4] = { q->x + q->rx, q->y + q->ry, q->rbytes, q->rrows };
        gint end = fs->n_pieces;

        if (!parts_meet (p, q))
          continue;
        /* the pieces so far, each less q's region, moved down to replace them */
        for (gint i = first; i < end; i++) {
          gint r[4] = { fs->pieces[i].x, fs->pieces[i].y, fs->pieces[i].w, fs->pieces[i].h };

          piece_minus (fs, k, r, c);
        }
        memmove (fs->pieces + first, fs->pieces + end,
            (fs->n_pieces - end) * sizeof (ClScatterPiece));
        fs->n_pieces -= end - first;
        if (fs->n_pieces - first > 16)
          return FALSE;
      }
    }
  }
  return TRUE;
}

/* The pieces the scatter writes back (fs->pieces): each batched part's region less the
 * regions of later groups on its plane, so that where regions of two sizes overlap the later
 * group's pixels stay whatever the order the copies run in, and one launch takes all groups.
 * FALSE where that cannot be (the scatter then goes a group at a time, the groups' order kept,
 * each region whole): a part left out of the batches that meets a region of another group (its
 * copy of its own goes between the groups' scatters), over 256 parts (the pairs are checked on
 * the streaming thread), or over 16 pieces a region. */
static gboolean
scatter_pieces (ClFrames * fs, gint n_groups)
{
  gint n = fs->groups[n_groups - 1].first + fs->groups[n_groups - 1].n;
  gboolean cut = n <= 256;

  /* a region and its pieces while cut: at most 16 kept, each cut into up to 4 */
  if (fs->max_pieces < 17 * n + 64) {
    fs->max_pieces = 17 * n + 64;
    fs->pieces = g_renew (ClScatterPiece, fs->pieces, fs->max_pieces);
  }
  for (gint g = 0; g < n_groups && cut; g++) {
    const ClRegionGroup *gr = &fs->groups[g];

    for (gint k = gr->first; k < gr->first + gr->n; k++)
      for (gint j = 0; j < n && fs->parts[k].batch < 0 && cut; j++)
        cut = (j >= gr->first && j < gr->first + gr->n) ||
            !parts_meet (&fs->parts[k], &fs->parts[j]);
  }
  fs->n_pieces = 0;
  if (cut && !pieces_cut (fs, n_groups))
    cut = FALSE;
  if (!cut) {
    /* each batched region whole */
    fs->n_pieces = 0;
    for (gint k = 0; k < n; k++)
      if (fs->parts[k].batch >= 0)
        whole_piece (fs, k);
  }
  return cut;
}

/* The scatter launches a frame's tables take (for the log) */
static gint
scatter_launches (const ClFrames * fs, gint n_groups)
{
  gint n = 0;

  for (gint g = 0, base = -1; g < n_groups; g++)
    if (fs->groups[g].n_batched && fs->groups[g].scatter_base != base) {
      base = fs->groups[g].scatter_base;
      n++;
    }
  return n;
}

/* Batches of the frame's parts (planes: where they lie, all in one device memory, or all in
 * host memory): per group and view, the parts that may (cl_region_part_batch_window; with the
 * frame in host memory only windows inside the plane) while the image of their windows fits
 * the view's place in the row-pass buffer, when there are two or more; then with tables the
 * tables of each group's gather (windows into the batch images, those past the plane's edges
 * through the border rule) and scatter (regions back into the frame), which a frame in host
 * memory does by transfers instead. Returns the batch images' bytes (0: no batch). */
static gsize
plan_batches (ClFrames * fs, ClRegionBufs * rb, gint n_groups, const ClPlane * planes,
    gboolean tables)
{
  gsize at = 0, nt = 0, need = 0;
  gboolean merged;

  fs->n_batches = 0;
  if (!fs->batches)
    fs->batches = g_new (ClRegionBatch, CL_MAX_REGION_SIZES * CL_MAX_VIEWS);
  for (gint g = 0; g < n_groups; g++) {
    ClRegionGroup *gr = &fs->groups[g];

    gr->n_batched = 0;
    for (gint i = 0; i < gr->L.n_views; i++) {
      ClRegionBatch *b = &fs->batches[fs->n_batches];
      const ClView *v = &gr->L.views[i];
      gint count = 0;

      *b = (ClRegionBatch) { g, i, 0, 0, 0, at };
      for (gint k = gr->first; k < gr->first + gr->n; k++) {
        ClRegionPart *p = &fs->parts[k];
        gint w, rows;

        if (p->batch >= 0 || p->launch[0].view != i ||
            !cl_region_part_batch_window (&gr->L, p, gr->run.radius) ||
            (p->bordered && !tables) || planes[p->plane].mem != planes[0].mem)
          continue;
        w = MAX (b->width, p->bwidth);
        rows = b->rows + p->brows;
        if ((gint64) w * rows > (gint64) v->width * v->height)
          continue;
        p->batch = fs->n_batches;
        p->batch_row = b->rows;
        b->width = w;
        b->rows = rows;
        b->pitch = MAX (b->pitch, (gint) p->bbytes);
        count++;
      }
      if (count < 2) {
        for (gint k = gr->first; k < gr->first + gr->n; k++)
          if (fs->parts[k].batch == fs->n_batches)
            fs->parts[k].batch = -1;
        continue;
      }
      b->pitch = GST_ROUND_UP_64 (b->pitch);
      /* a spare row: vector loads past the last window's row end stay inside */
      at += (gsize) b->pitch * (b->rows + 1);
      gr->n_batched += count;
      fs->n_batches++;
    }
  }
  if (at > G_MAXINT32) {
    for (gint k = 0; k < fs->groups[n_groups - 1].first + fs->groups[n_groups - 1].n; k++)
      fs->parts[k].batch = -1;
    for (gint g = 0; g < n_groups; g++)
      fs->groups[g].n_batched = 0;
    fs->n_batches = 0;
  }
  if (fs->n_batches == 0 || !tables)
    return fs->n_batches ? at : 0;
  /* the tables: 8 ints a rectangle, for each copy, and 8 more for a window past the plane's
   * edges */
  merged = scatter_pieces (fs, n_groups);
  need = 8 * fs->n_pieces;
  for (gint k = 0; k < fs->groups[n_groups - 1].first + fs->groups[n_groups - 1].n; k++)
    if (fs->parts[k].batch >= 0)
      need += 16;
  if (need > rb->table_ints) {
    rb->table = g_renew (gint, rb->table, need);
    rb->table_ints = need;
  }
  /* the gather of every group in one table (and one launch): the windows' images do not
   * overlap; the scatter too where its pieces allow (scatter_pieces), else a table a group,
   * written back in the groups' order */
  for (gint copy = 0; copy < 2; copy++) {
    for (gint g0 = 0, g1; g0 < n_groups; g0 = g1) {
      gint rows = 0, widest = 0, r = 0, base = nt;

      g1 = copy == 0 || merged ? n_groups : g0 + 1;
      for (gint g = g0; g < g1 && copy == 0; g++) {
        const ClRegionGroup *gr = &fs->groups[g];

        for (gint k = gr->first; k < gr->first + gr->n && gr->n_batched; k++) {
          const ClRegionPart *p = &fs->parts[k];
          const ClRegionBatch *b = &fs->batches[MAX (p->batch, 0)];
          const ClPlane *f = &planes[p->plane];

          if (p->batch < 0)
            continue;
          /* a bordered window's source is its record's (below) */
          table_rect (rb->table, &nt, p->bordered ? 0 : f->offset + p->by * f->pitch +
              p->bx * p->bpix, f->pitch, b->at + p->batch_row * b->pitch, b->pitch, p->bbytes,
              rows);
          rows += p->brows;
          r++;
          widest = MAX (widest, (gint) p->bbytes);
        }
      }
      for (gint i = 0; i < fs->n_pieces && copy == 1; i++) {
        const ClScatterPiece *c = &fs->pieces[i];
        const ClRegionPart *p = &fs->parts[c->part];
        const ClRegionBatch *b = &fs->batches[p->batch];
        const ClPlane *f = &planes[p->plane];
        gint dx = c->x - (gint) (p->x + p->rx), dy = c->y - (p->y + p->ry);

        if (c->part < fs->groups[g0].first || c->part >= fs->groups[g1 - 1].first +
            fs->groups[g1 - 1].n)
          continue;
        table_rect (rb->table, &nt, b->at + (p->batch_row + p->bry + dy) * b->pitch +
            p->brx + dx, b->pitch, f->offset + c->y * f->pitch + c->x, f->pitch, c->w, rows);
        rows += c->h;
        r++;
        widest = MAX (widest, c->w);
      }
      /* the gather's windows past the plane's edges: a record each, its rectangle's t[6] the
       * record's place (the plane's offset, pixels and rows, the pixel's bytes, the window's
       * first pixel and row, the border rule) */
      for (gint g = g0, i = base; g < g1 && copy == 0; g++) {
        const ClRegionGroup *gr = &fs->groups[g];

        for (gint k = gr->first; k < gr->first + gr->n && gr->n_batched; k++) {
          const ClRegionPart *p = &fs->parts[k];
          const ClView *v = &gr->L.views[p->launch[0].view];
          gint *t = rb->table + nt;

          if (p->batch < 0)
            continue;
          if (p->bordered) {
            t[0] = planes[p->plane].offset;
            t[1] = v->width;
            t[2] = v->height;
            t[3] = p->bpix;
            t[4] = p->bx;
            t[5] = p->by;
            t[6] = gr->run.coefs[0].border & 15;
            t[7] = 0;
            rb->table[i + 6] = nt;
            nt += 8;
          }
          i += 8;
        }
      }
      /* the groups of one table share it: the copies run once, at the first of them */
      for (gint g = g0; g < g1; g++) {
        ClRegionGroup *gr = &fs->groups[g];

        if (copy == 0) {
          gr->gather_base = base;
          gr->gather_rects = r;
          gr->gather_rows = rows;
          gr->gather_bytes = widest;
        } else {
          gr->scatter_base = base;
          gr->scatter_rects = r;
          gr->scatter_rows = rows;
          gr->scatter_bytes = widest;
        }
      }
    }
  }
  return at;
}

/* The region's pixels of part p's window in launch l's view, columns [c[0], c[1]) and rows
 * [c[2], c[3]): the blocks write those (each reads its halo from the window). c[1] goes to
 * the blocks as their span, where a row's writes stop; the rows go on to the block's last */
static void
part_block_range (const ClLayout * L, const ClRegionPart * p, const ClRegionLaunch * l,
    gint c[4])
{
  const ClShape *sh = &L->shapes[L->views[l->view].shape];
  gsize pb = (gsize) sh->channels * sh->depth / 8;

  c[0] = (gint) MIN (p->rx / pb, (gsize) l->span);
  c[1] = (gint) ((p->rx + p->rbytes) / pb);
  /* a region to the row's end takes the copied padding pixels too */
  c[1] = c[1] >= l->width ? l->span : c[1];
  c[2] = p->ry;
  c[3] = p->ry + p->rrows;
}

/* Whether part p's windows may go with others' in a launch of blocks: in place in device
 * memory (planes) and every view of it on a kernel that has the entry (csep on a CPU; not the
 * generic kernel while csep builds) */
static gboolean
part_blocks (const ClRegionGroup * gr, const ClRegionPart * p, const ClPlane * planes)
{
  if (p->batch != -1 || !planes[p->plane].mem)
    return FALSE;
  for (gint j = 0; j < p->n_launches; j++)
    if (!gr->run.built[gr->L.views[p->launch[j].view].shape].table)
      return FALSE;
  return TRUE;
}

/* On a device that shares the host's memory, the windows of each group that can (part_blocks,
 * two or more in the group) as blocks of one launch per view (every launch wakes a CPU
 * device's threads): their table (CL_BLOCK_INTS a block) into
 * rb->blocks, the groups' bases and counts, and the parts marked CL_PART_BLOCKS. Nothing where
 * that would not save two launches or more (the table's upload is one more command). Returns
 * the table's ints (0: none). */
static gsize
plan_blocks (ClFrames * fs, ClRegionBufs * rb, gint n_groups, const ClPlane * planes)
{
  gboolean grouped[CL_MAX_REGION_SIZES] = { FALSE };
  gsize nt = 0, need = 0;
  gint saved = 0;

  for (gint g = 0; g < n_groups; g++) {
    ClRegionGroup *gr = &fs->groups[g];
    gint parts = 0, launches = 0;
    gboolean view_used[CL_MAX_VIEWS] = { FALSE };
    gsize ints = 0;

    memset (gr->n_blocks, 0, sizeof (gr->n_blocks));
    for (gint k = gr->first; k < gr->first + gr->n; k++) {
      const ClRegionPart *p = &fs->parts[k];

      if (!part_blocks (gr, p, planes))
        continue;
      parts++;
      for (gint j = 0; j < p->n_launches; j++) {
        const ClBuilt *b = &gr->run.built[gr->L.views[p->launch[j].view].shape];
        gint c[4];

        part_block_range (&gr->L, p, &p->launch[j], c);
        launches++;
        view_used[p->launch[j].view] = TRUE;
        ints += CL_BLOCK_INTS * ((c[1] - c[0] + b->px - 1) / b->px) *
            ((c[3] - c[2] + b->py - 1) / b->py);
      }
    }
    if (parts < 2)
      continue;
    for (gint i = 0; i < gr->L.n_views; i++)
      launches -= view_used[i];
    saved += launches;
    need += ints;
    grouped[g] = TRUE;
  }
  if (saved < 2)
    return 0;
  if (need > rb->blocks_ints) {
    rb->blocks = g_renew (gint, rb->blocks, need);
    rb->blocks_ints = need;
  }
  for (gint g = 0; g < n_groups; g++) {
    ClRegionGroup *gr = &fs->groups[g];

    if (!grouped[g])
      continue;
    for (gint k = gr->first; k < gr->first + gr->n; k++)
      if (part_blocks (gr, &fs->parts[k], planes))
        fs->parts[k].batch = CL_PART_BLOCKS;
    for (gint i = 0; i < gr->L.n_views; i++) {
      gr->block_base[i] = nt / CL_BLOCK_INTS;
      for (gint k = gr->first; k < gr->first + gr->n; k++) {
        const ClRegionPart *p = &fs->parts[k];
        const ClPlane f = gst_cl_run_part_plane (&planes[p->plane], p);

        for (gint j = 0; j < p->n_launches && p->batch == CL_PART_BLOCKS; j++) {
          const ClRegionLaunch *l = &p->launch[j];
          const ClBuilt *b = &gr->run.built[gr->L.views[l->view].shape];
          gint c[4];

          if (l->view != i)
            continue;
          part_block_range (&gr->L, p, l, c);
          for (gint y0 = c[2]; y0 < c[3]; y0 += b->py)
            for (gint xb = c[0]; xb < c[1]; xb += b->px) {
              gint *t = rb->blocks + nt;

              t[0] = xb;
              t[1] = y0;
              t[2] = f.offset + p->y * f.pitch + p->x;
              t[3] = f.pitch;
              t[4] = p->offset;
              t[5] = p->bytes;
              t[6] = l->width;
              t[7] = p->rows;
              t[8] = c[1];
              nt += CL_BLOCK_INTS;
            }
        }
      }
      gr->n_blocks[i] = nt / CL_BLOCK_INTS - gr->block_base[i];
    }
  }
  return nt;
}

/* The distinct sizes of rects into sizes, the element's (0) first, then the smaller first
 * (the copies go in that order: where regions overlap, the larger kernel's pixels stay).
 * Returns how many. */
static gint
region_sizes (const ClRect * rects, gint n_rects, gint * sizes)
{
  gint n = 0;

  for (gint i = 0; i < n_rects; i++) {
    gint k = 0, s = rects[i].size;

    while (k < n && sizes[k] < s)
      k++;
    if (k < n && sizes[k] == s)
      continue;
    if (n == CL_MAX_REGION_SIZES)
      break;
    memmove (sizes + k + 1, sizes + k, (n - k) * sizeof (gint));
    sizes[k] = s;
    n++;
  }
  return n;
}

/* The group a region of side size runs in: its own, else (past CL_MAX_REGION_SIZES sides)
 * the next larger one's, else the largest's */
static gint
region_group (const gint * sizes, gint n, gint size)
{
  for (gint g = 0; g < n; g++)
    if (sizes[g] >= size)
      return g;
  return n - 1;
}

/* The batched parts of group gr with the frame in host memory (planes): up, each window into
 * its place in the batch images (img: batch_in); else each region out of it (img: batch_out)
 * into the frame. */
static cl_int
batch_transfers (ClFrames * fs, const ClFrameRun * f, const ClRegionGroup * gr,
    const ClPlane * planes, cl_mem img, gboolean up, ClEvents * events, const gchar ** what)
{
  cl_int err = CL_SUCCESS;

  for (gint k = gr->first; k < gr->first + gr->n && err == CL_SUCCESS; k++) {
    const ClRegionPart *p = &fs->parts[k];
    const ClRegionBatch *b;

    if (p->batch < 0)
      continue;
    b = &fs->batches[p->batch];
    err = gst_cl_run_batch_rect (f, p, planes, img, b->at + (gsize) p->batch_row * b->pitch,
        b->pitch, up, events, what);
  }
  return err;
}

/* Rows [lo, hi) of a plane (hi <= lo: none) */
typedef struct
{
  gint lo, hi;
} RowSpan;

/* span grown by rows [y, y + rows) of a part's field (0: the plane's own rows; 1, 2: the
 * plane's even or odd rows) */
static void
span_add (RowSpan * span, gint field, gint y, gint rows)
{
  if (rows <= 0)
    return;
  span->lo = MIN (span->lo, field ? 2 * y + (field == 2) : y);
  span->hi = MAX (span->hi, field ? 2 * (y + rows - 1) + (field == 2) + 1 : y + rows);
}

/* Each plane of from moved to the first of its span's rows, and in len the bytes from there
 * to the end of the span's last row (0 where the span is empty) */
static void
span_planes (const ClPlane * from, const RowSpan * span, const ClLayout * L, ClPlane * to,
    gsize * len)
{
  for (gint p = 0; p < L->n_planes; p++) {
    gsize a = (gsize) MAX (span[p].lo, 0) * from[p].pitch;

    to[p] = from[p];
    len[p] = 0;
    if (span[p].hi <= span[p].lo)
      continue;
    to[p].offset += (gint) a;
    if (to[p].host)
      to[p].host += a;
    len[p] = (gsize) (span[p].hi - 1 - span[p].lo) * from[p].pitch + L->row[p];
  }
}

/* A host frame moved whole: the rows of each plane's span copied into the slot's pinned
 * staging at dev's offsets (the device's copy, of the frame's pitches), up[] the staged planes.
 * FALSE after posting why. */
static gboolean
stage_whole_frame (ClFrames * fs, ClFrameSlot * slot, const ClLayout * L, const ClPlane * host,
    const ClPlane * dev, const RowSpan * span, gsize bytes, ClPlane * up)
{
  ClPlane from[CL_MAX_PLANES], to[CL_MAX_PLANES];
  gsize len[CL_MAX_PLANES];
  guint8 *in;

  if (!ensure_stage (fs, &slot->stage_in, bytes))
    return FALSE;
  in = ((GstClMemory *) slot->stage_in)->host + slot->stage_in->offset;
  for (gint p = 0; p < L->n_planes; p++)
    up[p] = (ClPlane) { NULL, 0, dev[p].pitch, in + dev[p].offset };
  span_planes (host, span, L, from, len);
  span_planes (up, span, L, to, len);
  for (gint p = 0; p < L->n_planes; p++) {
    if (!len[p])
      continue;
    gst_cl_copy_rows_parallel (to[p].host, to[p].pitch, from[p].host, from[p].pitch,
        to[p].pitch, span[p].hi - span[p].lo - 1, fs->copy_parts);
    memcpy (to[p].host + len[p] - L->row[p], from[p].host + len[p] - L->row[p], L->row[p]);
  }
  slot->copies++;
  slot->path_in = CL_PATH_STAGING_COPY;
  return TRUE;
}

/* Queues the regions rects of buf on the device in slot (buf mapped into slot->out): on
 * success slot->done is set and frame_complete finishes it; else nothing is left queued nor
 * mapped. On a discrete device with a host frame moved whole, the upload, the kernels and the
 * download go on the three queues, so that frames in flight overlap them. */
static GstFlowReturn
regions_submit (ClFrames * fs, ClFrameSlot * slot, const GstVideoInfo * info, GstBuffer * buf,
    const ClRect * rects, gint n_rects)
{
  GstVideoFrame *frame;
  ClRegionBufs *rb = &slot->rb;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info), n = 0, bands;
  gint sizes[CL_MAX_REGION_SIZES], n_groups;
  ClPlane planes[CL_MAX_PLANES], host[CL_MAX_PLANES], up_from[CL_MAX_PLANES];
  ClPlane span_host[CL_MAX_PLANES], span_dev[CL_MAX_PLANES];
  RowSpan up_span[CL_MAX_PLANES], down_span[CL_MAX_PLANES];
  gsize extent[CL_MAX_PLANES], span_len[CL_MAX_PLANES], batch_bytes, blocks_ints;
  ClEvents *events;
  FrameMem mem;
  ClMemPath path;
  gboolean in_place, fields, whole, host_batches, staged = FALSE;
  gsize bytes = 0;
  cl_event up_done = NULL, kernels_done = NULL;
  const gchar *what = "";
  gchar *why;
  GstMapFlags cl = 0;
  GstClMemory *m;
  GstFlowReturn ret = GST_FLOW_OK;
  cl_int err = CL_SUCCESS;

  set_infos (fs, info, info);
  frame = &slot->out;
  if ((m = buffer_cl_memory (fs, buf)) && m->device)
    cl = GST_MAP_CL;
  why = frame_map_problem (&fs->in_info, buf);
  if (why || !gst_video_frame_map (frame, &fs->in_info, buf, GST_MAP_READWRITE | cl |
          GST_VIDEO_FRAME_MAP_FLAG_NO_REF)) {
    GST_ELEMENT_WARNING (fs->owner, STREAM, FORMAT, ("Dropped an invalid input frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, buf));
    g_free (why);
    return GST_BASE_TRANSFORM_FLOW_DROPPED;
  }
  if (!fs->parts) {
    fs->parts = g_new (ClRegionPart, CL_MAX_REGIONS * CL_MAX_VIEWS);
    fs->groups = g_new (ClRegionGroup, CL_MAX_REGION_SIZES);
  }
  memset (&slot->f, 0, sizeof (slot->f));
  slot->region = TRUE;
  slot->done = NULL;
  slot->copies = 0;
  slot->copy_out = FALSE;
  slot->busy = FALSE;
  fields = fields_apart (info, frame);
  /* the kernels of each size the regions ask for (none: the element's, for the stats) */
  n_groups = region_sizes (rects, n_rects, sizes);
  if (n_groups == 0)
    sizes[n_groups++] = 0;
  for (gint g = 0; g < n_groups; g++) {
    ClRegionGroup *gr = &fs->groups[g];

    gr->size = sizes[g];
    gr->n_batched = 0;
    if (!fs->prepare (fs->user, fields, gr->size, &gr->L, &gr->run, &bands)) {
      ret = GST_FLOW_ERROR;
      goto out;
    }
    if (g == 0) {
      slot->f = gr->run;
      if (!frame_in_bounds (frame, &gr->L, &why)) {
        GST_ELEMENT_WARNING (fs->owner, STREAM, FORMAT, ("Dropped an invalid input frame: "
                "%s.", why), ("%" GST_PTR_FORMAT, buf));
        g_free (why);
        ret = GST_BASE_TRANSFORM_FLOW_DROPPED;
        goto out;
      }
    }
    gr->first = n;
    for (gint i = 0; i < n_rects; i++)
      if (region_group (sizes, n_groups, rects[i].size) == g)
        n += cl_region_plan (&gr->L, w, h, &rects[i], gr->run.radius, gr->run.wrap,
            fs->parts + n, &bytes);
    gr->n = n - gr->first;
  }
  mem = frame_planes (fs, frame, &fs->groups[0].L, planes);
  /* the kernels read the frame where it is when the device may: device-resident memory, or
   * pinned memory on a host-unified device; else the windows go up and the regions down */
  in_place = mem == FRAME_DEVICE || (mem == FRAME_PINNED && !fs->discrete);
  path = mem == FRAME_DEVICE ? CL_PATH_DEVICE : in_place ? CL_PATH_IN_PLACE :
      mem == FRAME_PINNED ? CL_PATH_PINNED_DMA : CL_PATH_PAGEABLE_DMA;
  slot->path_in = slot->path_out = path;
  if (n == 0) {
    err = gst_cl_run_done (&slot->f, &slot->done, &what);
    goto queued;
  }
  /* many regions of a frame in host memory on a discrete device: the planes' rows that the
   * windows span go up once and those the regions span come down once, instead of a window
   * up and a region down each */
  whole = !in_place && fs->discrete && n >= fs->region_whole;
  for (gint p = 0; p < fs->groups[0].L.n_planes && !in_place; p++) {
    planes[p].mem = NULL;
    host[p] = planes[p];
    extent[p] = 0;
    if (!planes[p].host) {
      GST_ELEMENT_ERROR (fs->owner, STREAM, FAILED, ("A frame in device memory has a plane layout "
              "the kernels cannot use (odd 16-bit offsets or strides, or beyond 2 GiB)."),
          ("%" GST_PTR_FORMAT, buf));
      ret = GST_FLOW_ERROR;
      goto out;
    }
  }
  /* the buffers grow in whole MiB: regions that move from frame to frame rarely need more */
  bytes = GST_ROUND_UP_N (bytes, 1 << 20);
  if (!ensure_buffer (fs, &rb->region_out, &rb->region_out_bytes, bytes,
          CL_MEM_READ_WRITE) || (!in_place && !whole && !ensure_buffer (fs, &rb->region_in,
              &rb->region_in_bytes, bytes, CL_MEM_READ_ONLY))) {
    ret = GST_FLOW_ERROR;
    goto out;
  }
  events = fs->profiling ? slot->e : NULL;
  if (whole) {
    gsize at = 0;

    for (gint p = 0; p < CL_MAX_PLANES; p++)
      up_span[p] = down_span[p] = (RowSpan) { G_MAXINT, 0 };
    /* up, the rows of the parts' windows (what their kernels read, the border's pixels
     * included: a window that wraps takes every row); down, their regions' rows: the frame
     * is written in place, the other rows are the host's already */
    for (gint i = 0; i < n; i++) {
      const ClRegionPart *part = &fs->parts[i];
      gint p = part->plane;

      extent[p] = (gsize) host[p].pitch * (fs->groups[0].L.height[p] - 1) +
          fs->groups[0].L.row[p];
      span_add (&up_span[p], part->field, part->y, part->rows);
      span_add (&down_span[p], part->field, part->y + part->ry, part->rrows);
    }
    for (gint p = 0; p < fs->groups[0].L.n_planes; p++) {
      planes[p] = (ClPlane) { NULL, (gint) at, host[p].pitch, NULL };
      at += GST_ROUND_UP_N (extent[p], 64);
    }
    if (!ensure_buffer (fs, &rb->region_frame, &rb->region_frame_bytes, at,
            CL_MEM_READ_WRITE)) {
      ret = GST_FLOW_ERROR;
      goto out;
    }
    for (gint p = 0; p < fs->groups[0].L.n_planes; p++)
      planes[p].mem = rb->region_frame;
    /* a frame in pageable memory goes up from pinned staging, copied there in parallel
     * pieces as the whole-frame path's input is; it comes down straight into the frame */
    staged = mem == FRAME_HOST;
    if (staged && !stage_whole_frame (fs, slot, &fs->groups[0].L, host, planes, up_span, at,
            up_from)) {
      ret = GST_FLOW_ERROR;
      goto out;
    }
  }
  /* on a discrete device, the inner windows of a group and view in one image, one launch:
   * with the frame in the device's memory the gather and scatter copies are one launch each
   * per group; with it in host memory each window goes up into the image and its region comes
   * down out of it (the transfers a window launched alone has, without its launch); on a
   * device sharing the host's memory launches cost less than the copies and the image's
   * unused width (docs/design.md) */
  host_batches = !in_place && !whole;
  fs->n_batches = 0;
  batch_bytes = err == CL_SUCCESS && fs->discrete && n >= 2 && (host_batches ||
      ensure_copy_kernel (fs)) ? plan_batches (fs, rb, n_groups, planes, !host_batches) : 0;
  if (batch_bytes && (!ensure_buffer (fs, &rb->batch_in, &rb->batch_in_bytes, batch_bytes,
              CL_MEM_READ_WRITE) || !ensure_buffer (fs, &rb->batch_out, &rb->batch_out_bytes,
              batch_bytes, CL_MEM_READ_WRITE) || (!host_batches &&
              !ensure_buffer (fs, &rb->batch_table, &rb->batch_table_bytes,
                  rb->table_ints * sizeof (gint), CL_MEM_READ_ONLY)))) {
    ret = GST_FLOW_ERROR;
    goto out;
  }
  /* on a device sharing the host's memory, windows as blocks of one launch a group and view */
  blocks_ints = err == CL_SUCCESS && in_place && !fs->discrete ?
      plan_blocks (fs, rb, n_groups, planes) : 0;
  if (blocks_ints && !ensure_buffer (fs, &rb->block_table, &rb->block_table_bytes,
          blocks_ints * sizeof (gint), CL_MEM_READ_ONLY)) {
    ret = GST_FLOW_ERROR;
    goto out;
  }
  GST_LOG_OBJECT (fs->owner, "regions: %d parts in %d groups, %d batches%s, %d scatter "
      "launches, %" G_GSIZE_FORMAT " blocks", n, n_groups, batch_bytes ? fs->n_batches : 0,
      batch_bytes && host_batches ? " (host frame)" : "", batch_bytes && !host_batches ?
      scatter_launches (fs, n_groups) : 0, blocks_ints / CL_BLOCK_INTS);
  /* (every buffer made before anything is queued: a failure leaves nothing reading the frame) */
  if (whole) {
    ClFrameRun up = slot->f;

    /* up on the upload queue, the kernels' queue waiting for it */
    up.queue = slot->f.up ? slot->f.up : slot->f.queue;
    span_planes (staged ? up_from : host, up_span, &fs->groups[0].L, span_host, span_len);
    span_planes (planes, up_span, &fs->groups[0].L, span_dev, span_len);
    err = gst_cl_run_region_planes (&up, span_host, span_dev, span_len,
        fs->groups[0].L.n_planes, TRUE, events, &up_done, &what);
    if (err == CL_SUCCESS) {
      what = "frame upload wait";
      err = clEnqueueBarrierWithWaitList (slot->f.queue, 1, &up_done, NULL);
    }
  }
  if (batch_bytes && !host_batches && err == CL_SUCCESS) {
    what = "table upload";
    err = clEnqueueWriteBuffer (slot->f.queue, rb->batch_table, CL_FALSE, 0,
        rb->table_ints * sizeof (gint), rb->table, 0, NULL, NULL);
  }
  if (blocks_ints && err == CL_SUCCESS) {
    what = "block table upload";
    err = clEnqueueWriteBuffer (slot->f.queue, rb->block_table, CL_FALSE, 0,
        blocks_ints * sizeof (gint), rb->blocks, 0, NULL, NULL);
  }
  for (gint g = 0, copied = -1; g < n_groups && err == CL_SUCCESS; g++) {
    const ClRegionGroup *gr = &fs->groups[g];

    if (gr->n_batched && host_batches) {
      err = batch_transfers (fs, &slot->f, gr, planes, rb->batch_in, TRUE, events, &what);
    } else if (gr->n_batched && gr->gather_base != copied) {
      copied = gr->gather_base;
      err = gst_cl_run_rect_copies (slot->f.queue, fs->copy, planes[0].mem, rb->batch_in,
          rb->batch_table, gr->gather_base, gr->gather_rects, gr->gather_bytes,
          gr->gather_rows, !fs->ctx->local_mem_dedicated, events, GST_CL_STAGE_KERNEL, &what);
    }
    for (gint b = 0; b < fs->n_batches && err == CL_SUCCESS; b++) {
      const ClRegionBatch *ba = &fs->batches[b];
      const ClPlane in = { rb->batch_in, (gint) ba->at, ba->pitch, NULL };
      const ClPlane out = { rb->batch_out, (gint) ba->at, ba->pitch, NULL };

      if (ba->group == g)
        err = gst_cl_run_region_batch (&gr->run, &gr->L, ba->view, &in, &out, ba->width,
            ba->rows, events, &what);
    }
    for (gint i = 0; i < gr->L.n_views && blocks_ints && err == CL_SUCCESS; i++)
      if (gr->n_blocks[i])
        err = gst_cl_run_region_blocks (&gr->run, &gr->L, i, planes[gr->L.views[i].plane].mem,
            rb->region_out, rb->block_table, gr->block_base[i] * CL_BLOCK_INTS,
            gr->n_blocks[i], events, &what);
    if (gr->n && err == CL_SUCCESS)
      err = gst_cl_run_region_windows (&gr->run, &gr->L, fs->parts + gr->first, gr->n, planes,
          rb->region_in, rb->region_out, events, &what);
  }
  /* the regions back, the groups' order kept (where regions overlap the last one stays) */
  for (gint g = 0, copied = -1; g < n_groups && err == CL_SUCCESS; g++) {
    const ClRegionGroup *gr = &fs->groups[g];

    err = gst_cl_run_region_copies (&slot->f, fs->parts + gr->first, gr->n, planes,
        rb->region_out, events, NULL, &what);
    if (gr->n_batched && host_batches && err == CL_SUCCESS) {
      err = batch_transfers (fs, &slot->f, gr, planes, rb->batch_out, FALSE, events, &what);
    } else if (gr->n_batched && gr->scatter_base != copied && err == CL_SUCCESS) {
      copied = gr->scatter_base;
      err = gst_cl_run_rect_copies (slot->f.queue, fs->copy, rb->batch_out, planes[0].mem,
          rb->batch_table, gr->scatter_base, gr->scatter_rects, gr->scatter_bytes,
          gr->scatter_rows, !fs->ctx->local_mem_dedicated, events, GST_CL_STAGE_DOWNLOAD, &what);
    }
  }
  if (err == CL_SUCCESS && whole) {
    ClFrameRun down = slot->f;

    /* down on the download queue once the kernels' queue is through */
    down.queue = slot->f.down ? slot->f.down : slot->f.queue;
    err = gst_cl_run_done (&slot->f, &kernels_done, &what);
    if (err == CL_SUCCESS) {
      what = "frame download wait";
      err = clEnqueueBarrierWithWaitList (down.queue, 1, &kernels_done, NULL);
    }
    span_planes (host, down_span, &fs->groups[0].L, span_host, span_len);
    span_planes (planes, down_span, &fs->groups[0].L, span_dev, span_len);
    if (err == CL_SUCCESS)
      err = gst_cl_run_region_planes (&down, span_host, span_dev, span_len,
          fs->groups[0].L.n_planes, FALSE, events, &slot->done, &what);
  } else if (err == CL_SUCCESS) {
    err = gst_cl_run_done (&slot->f, &slot->done, &what);
  }
queued:
  g_clear_pointer (&up_done, clReleaseEvent);
  g_clear_pointer (&kernels_done, clReleaseEvent);
  if (err == CL_SUCCESS)
    return GST_FLOW_OK;
  gst_cl_run_finish (&slot->f);
  g_clear_pointer (&slot->done, clReleaseEvent);
  gst_cl_events_release (slot->e);
  FLOW_FAILED (what, err);
  ret = GST_FLOW_ERROR;
out:
  gst_video_frame_unmap (frame);
  return ret;
}

/* One regions frame queued and waited for */
GstFlowReturn
cl_frames_regions (ClFrames * fs, const GstVideoInfo * info, GstBuffer * buf,
    const ClRect * rects, gint n_rects)
{
  ClFrameSlot *slot = free_slot (fs);
  GstFlowReturn ret = regions_submit (fs, slot, info, buf, rects, n_rects);

  if (ret != GST_FLOW_OK)
    return ret;
  ret = frame_complete (fs, slot);
  gst_video_frame_unmap (&slot->out);
  return ret;
}

GstFlowReturn
cl_frames_push_regions (ClFrames * fs, const GstVideoInfo * info, GstBuffer * buf,
    const ClRect * rects, gint n_rects)
{
  ClFrameSlot *slot = free_slot (fs);
  GstFlowReturn ret = regions_submit (fs, slot, info, buf, rects, n_rects);

  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (buf);
    return ret;
  }
  slot->inbuf = NULL;
  slot->outbuf = buf;
  fs->n_pending++;
  GST_LOG_OBJECT (fs->owner, "regions frame in flight (%u pending)", fs->n_pending);
  return GST_FLOW_OK;
}

/* The whole of frame src into dst (both of the negotiated format, mapped on the host here),
 * each plane in parallel pieces. FALSE after posting why. */
gboolean
cl_frames_copy (ClFrames * fs, const GstVideoInfo * in_info, const GstVideoInfo * out_info,
    GstBuffer * dst, GstBuffer * src)
{
  GstVideoFrame in, out;
  gchar *why = frame_map_problem (in_info, src);
  ClLayout L;

  if (why || !gst_video_frame_map (&in, in_info, src, GST_MAP_READ)) {
    GST_ELEMENT_WARNING (fs->owner, STREAM, FORMAT, ("Dropped an invalid input frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, src));
    g_free (why);
    return FALSE;
  }
  why = frame_map_problem (out_info, dst);
  if (why || !gst_video_frame_map (&out, out_info, dst, GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR (fs->owner, STREAM, FAILED, ("The output buffer is not a valid frame: %s.",
            why ? why : "it could not be mapped"), ("%" GST_PTR_FORMAT, dst));
    g_free (why);
    gst_video_frame_unmap (&in);
    return FALSE;
  }
  cl_layout_plan (in_info, GST_CL_CONVOLVE_PLANES_AUTO, FALSE, &L);
  if (!frame_in_bounds (&in, &L, &why) || !frame_in_bounds (&out, &L, &why)) {
    GST_ELEMENT_WARNING (fs->owner, STREAM, FORMAT, ("Dropped an invalid frame: %s.", why),
        ("%" GST_PTR_FORMAT, src));
    g_free (why);
    gst_video_frame_unmap (&out);
    gst_video_frame_unmap (&in);
    return FALSE;
  }
  for (gint p = 0; p < L.n_planes; p++)
    gst_cl_copy_rows_parallel (GST_VIDEO_FRAME_PLANE_DATA (&out, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&out, p), GST_VIDEO_FRAME_PLANE_DATA (&in, p),
        GST_VIDEO_FRAME_PLANE_STRIDE (&in, p), L.row[p], L.height[p], fs->copy_parts);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);
  return TRUE;
}

GstFlowReturn
cl_frames_push (ClFrames * fs, const GstVideoInfo * in_info, const GstVideoInfo * out_info,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  ClFrameSlot *slot;
  GstFlowReturn ret;

  set_infos (fs, in_info, out_info);
  slot = free_slot (fs);
  ret = map_frames (fs, slot, inbuf, outbuf);
  if (ret == GST_FLOW_OK) {
    ret = frame_submit (fs, slot);
    if (ret != GST_FLOW_OK)
      unmap_frames (slot);
  }
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (outbuf);
    gst_buffer_unref (inbuf);
    return ret;
  }
  slot->inbuf = inbuf;
  slot->outbuf = outbuf;
  fs->n_pending++;
  return GST_FLOW_OK;
}

GstFlowReturn
cl_frames_pop (ClFrames * fs, GstBuffer ** outbuf)
{
  ClFrameSlot *slot = &fs->slots[fs->oldest];
  GstFlowReturn ret = frame_complete (fs, slot);

  unmap_frames (slot);
  gst_clear_buffer (&slot->inbuf);
  *outbuf = slot->outbuf;
  slot->outbuf = NULL;
  if (ret != GST_FLOW_OK)
    gst_clear_buffer (outbuf);
  fs->oldest = (fs->oldest + 1) % CL_MAX_INFLIGHT;
  fs->n_pending--;
  return ret;
}

void
cl_frames_discard (ClFrames * fs)
{
  while (fs->n_pending > 0) {
    ClFrameSlot *slot = &fs->slots[fs->oldest];

    if (slot->done) {
      clWaitForEvents (1, &slot->done);
      g_clear_pointer (&slot->done, clReleaseEvent);
    }
    slot_idle (fs, slot);
    gst_cl_events_release (slot->e);
    unmap_frames (slot);
    gst_clear_buffer (&slot->inbuf);
    gst_clear_buffer (&slot->outbuf);
    fs->oldest = (fs->oldest + 1) % CL_MAX_INFLIGHT;
    fs->n_pending--;
  }
  fs->oldest = 0;
  if (fs->spent)
    gst_cl_events_release (fs->spent);
}

ClFrames *
cl_frames_new (GstElement * owner, GstClContext * ctx, gboolean discrete, gboolean profiling,
    gint copy_parts, gint region_whole, ClFrameStats * stats, ClPrepareFunc prepare,
    gpointer user)
{
  ClFrames *fs = g_new0 (ClFrames, 1);
  cl_int err;

  fs->owner = owner;
  fs->ctx = gst_cl_context_ref (ctx);
  fs->discrete = discrete;
  fs->profiling = profiling;
  fs->copy_parts = copy_parts;
  fs->region_whole = region_whole;
  fs->st = stats;
  fs->prepare = prepare;
  fs->user = user;
  fs->slots = g_new0 (ClFrameSlot, CL_MAX_INFLIGHT);
  /* the context's: one queue per stage for every element on the device */
  err = gst_cl_context_frame_queues (ctx, profiling, discrete ? 3 : 1, fs->queues);
  if (err != CL_SUCCESS) {
    FLOW_FAILED ("clCreateCommandQueue", err);
    cl_frames_free (fs);
    return NULL;
  }
  fs->allocator = gst_cl_allocator_new (ctx);
  if (fs->allocator)
    fs->dev_allocator = discrete ? gst_cl_allocator_new_device (ctx) :
        gst_object_ref (fs->allocator);
  if (!fs->allocator || !fs->dev_allocator) {
    GST_ELEMENT_ERROR (owner, RESOURCE, FAILED, ("Could not set up pinned memory on %s.",
            ctx->device_name), (NULL));
    cl_frames_free (fs);
    return NULL;
  }
  return fs;
}

void
cl_frames_free (ClFrames * fs)
{
  if (!fs)
    return;
  /* frames still in flight (a stop without EOS) wait for the device before they go */
  cl_frames_discard (fs);
  for (gint i = 0; i < CL_MAX_INFLIGHT; i++) {
    ClFrameSlot *slot = &fs->slots[i];

    g_clear_pointer (&slot->src_mem, clReleaseMemObject);
    g_clear_pointer (&slot->dst_mem, clReleaseMemObject);
    g_clear_pointer (&slot->stage_in, gst_memory_unref);
    g_clear_pointer (&slot->stage_out, gst_memory_unref);
    g_clear_pointer (&slot->rb.region_in, clReleaseMemObject);
    g_clear_pointer (&slot->rb.region_out, clReleaseMemObject);
    g_clear_pointer (&slot->rb.region_frame, clReleaseMemObject);
    g_clear_pointer (&slot->rb.batch_in, clReleaseMemObject);
    g_clear_pointer (&slot->rb.batch_out, clReleaseMemObject);
    g_clear_pointer (&slot->rb.batch_table, clReleaseMemObject);
    g_clear_pointer (&slot->rb.block_table, clReleaseMemObject);
    g_free (slot->rb.table);
    g_free (slot->rb.blocks);
    g_free (slot->e);
  }
  if (fs->spent)
    gst_cl_events_release (fs->spent);
  g_free (fs->spent);
  g_free (fs->slots);
  g_free (fs->parts);
  g_free (fs->groups);
  g_clear_pointer (&fs->copy, clReleaseKernel);
  if (fs->copy_prog)
    gst_cl_context_unuse_program (fs->ctx, fs->copy_prog, FALSE);
  g_free (fs->batches);
  g_free (fs->pieces);
  gst_clear_object (&fs->allocator);
  gst_clear_object (&fs->dev_allocator);
  for (gint i = 0; i < GST_CL_CONTEXT_N_QUEUES; i++)
    g_clear_pointer (&fs->queues[i], clReleaseCommandQueue);
  gst_cl_context_release (fs->ctx);
  g_free (fs);
}

GstAllocator *
cl_frames_allocator (ClFrames * fs, GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);

  return features && gst_caps_features_contains (features, GST_CAPS_FEATURE_MEMORY_CL_BUFFER) ?
      fs->dev_allocator : fs->allocator;
}

GstFlowReturn
cl_frames_run (ClFrames * fs, const GstVideoInfo * in_info, const GstVideoInfo * out_info,
    GstBuffer * inbuf, GstBuffer * outbuf)
{
  ClFrameSlot *slot = free_slot (fs);
  GstFlowReturn ret;

  set_infos (fs, in_info, out_info);
  ret = map_frames (fs, slot, inbuf, outbuf);
  if (ret != GST_FLOW_OK)
    return ret;
  ret = run_frame (fs, slot);
  unmap_frames (slot);
  return ret;
}

GstFlowReturn
cl_frames_run_mapped (ClFrames * fs, GstVideoFrame * in, GstVideoFrame * out)
{
  ClFrameSlot *slot = free_slot (fs);

  set_infos (fs, &in->info, &out->info);
  slot->in = *in;
  slot->out = *out;
  return run_frame (fs, slot);
}

const cl_command_queue *
cl_frames_queues (ClFrames * fs)
{
  return fs->queues;
}

cl_event
cl_frames_oldest_event (ClFrames * fs)
{
  cl_event e;

  if (fs->n_pending == 0 || !(e = fs->slots[fs->oldest].done))
    return NULL;
  clRetainEvent (e);
  return e;
}

gboolean
cl_frames_oldest_finished (ClFrames * fs)
{
  cl_int status = CL_COMPLETE;
  cl_event e;

  if (fs->n_pending == 0)
    return FALSE;
  /* no event: it failed when queued, and pop reports that at once */
  if (!(e = fs->slots[fs->oldest].done))
    return TRUE;
  if (clGetEventInfo (e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof (status), &status, NULL)
      != CL_SUCCESS)
    return TRUE;
  return status <= CL_COMPLETE;
}

guint
cl_frames_pending (ClFrames * fs)
{
  return fs->n_pending;
}
