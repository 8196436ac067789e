#!/usr/bin/env python3
# clconvolve example: embedding the element in a Python application
# Copyright (C) 2026 clconvolve developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

"""Runs

    appsrc ! clconvolve kernel=box size=3 border=clamp ! appsink

on a few frames of pseudo-random GRAY8 pixels made here, pulls every filtered frame back and
checks it against a 3x3 box filter written in plain Python below.

Usage: embed.py [WIDTH HEIGHT]   (default 64 48; odd sizes work too)
Exit status: 0 every frame matches, 1 a frame differs (the first wrong pixel is printed),
2 the pipeline failed (e.g. no OpenCL device: the element's error is printed) or bad usage,
77 PyGObject or the GStreamer typelibs are missing (meson's "skipped").
"""

import sys

try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstApp", "1.0")
    gi.require_version("GstVideo", "1.0")
    from gi.repository import GLib, Gst, GstApp, GstVideo  # noqa: F401 (GstApp: appsrc's methods)
except (ImportError, ValueError) as e:
    print(f"skipped: {e}\nThis example needs PyGObject and the GStreamer typelibs; on Debian: "
          "apt-get install python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 "
          "(for /usr/bin/python3)", file=sys.stderr)
    sys.exit(77)

N_FRAMES = 5
# the longest wait for one output frame; the first one may include compiling the kernel
PULL_TIMEOUT = 10 * Gst.SECOND

EXIT_MATCH, EXIT_MISMATCH, EXIT_PIPELINE = 0, 1, 2


def make_pixels(width, height, n):
    """Frame n's pixels in tight rows (row y starts at y * width), the same on every run."""
    state = (0x9E3779B9 + n * 0x85EBCA6B) & 0xFFFFFFFF  # xorshift32, never 0 here
    pix = bytearray(width * height)
    for i in range(width * height):
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        pix[i] = state >> 24
    return pix


def box3_reference(pix, width, height):
    """What the element should output: each pixel the mean of its 3x3 neighbourhood, rounded
    to nearest. border=clamp makes up the pixels outside the frame by repeating the edge
    pixel, i.e. it clamps the coordinates into the frame."""
    out = bytearray(width * height)
    for y in range(height):
        rows = [min(max(y + d, 0), height - 1) * width for d in (-1, 0, 1)]
        for x in range(width):
            cols = [min(max(x + d, 0), width - 1) for d in (-1, 0, 1)]
            total = sum(pix[r + c] for r in rows for c in cols)
            out[y * width + x] = (total + 4) // 9
    return out


def report_bus_error(pipeline):
    """Prints the first error message on the pipeline's bus; True if there was one."""
    msg = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    if msg is None:
        return False
    err, debug = msg.parse_error()
    print(f"error from {msg.src.get_name()}: {err.message}", file=sys.stderr)
    if debug:
        print(f"(details: {debug})", file=sys.stderr)
    return True


def push_frame(src, info, pix, n):
    """Lays frame n's pixels out as the caps say and hands the buffer to appsrc."""
    width, height, stride = info.width, info.height, info.stride[0]
    # the caps' layout pads rows to 4 bytes (an odd width has a stride above it): copy each row
    data = bytearray(info.size)
    for y in range(height):
        start = info.offset[0] + y * stride
        data[start:start + width] = pix[y * width:(y + 1) * width]
    buf = Gst.Buffer.new_wrapped(bytes(data))
    buf.pts = Gst.util_uint64_scale(n, Gst.SECOND, 30)
    buf.duration = Gst.util_uint64_scale(1, Gst.SECOND, 30)
    return src.push_buffer(buf)


def check_frame(sample, pix, width, height, n):
    """Compares an output sample with the reference for input pix; prints one line and
    returns True when every pixel is within 1 of it."""
    info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
    buf = sample.get_buffer()
    if (info.width, info.height) != (width, height):
        print(f"frame {n}: output is {info.width}x{info.height}, input was {width}x{height}",
              file=sys.stderr)
        return False
    # the output's layout: the buffer's GstVideoMeta where it has one (a producer may pad rows
    # beyond what the caps imply), else the caps'. This is what gst_video_frame_map does in C;
    # from Python a GstVideoFrame's plane pointers cannot be read, so look at the meta here.
    meta = GstVideo.buffer_get_video_meta(buf)
    layout = meta if meta is not None else info
    offset, stride = layout.offset[0], layout.stride[0]

    ok, mapinfo = buf.map(Gst.MapFlags.READ)
    if not ok:
        print(f"frame {n}: cannot map the output buffer", file=sys.stderr)
        return False
    try:
        data = bytes(mapinfo.data)
    finally:
        buf.unmap(mapinfo)

    want = box3_reference(pix, width, height)
    max_diff, bad, first = 0, 0, None
    for y in range(height):
        row = offset + y * stride
        for x in range(width):
            got, exp = data[row + x], want[y * width + x]
            diff = abs(got - exp)
            max_diff = max(max_diff, diff)
            # 1 LSB of rounding difference is allowed (the device computes in float)
            if diff > 1:
                bad += 1
                if first is None:
                    first = (x, y, got, exp)

    if bad:
        x, y, got, exp = first
        print(f"frame {n}: MISMATCH at {bad} pixels, first at x={x} y={y}: got {got}, "
              f"expected {exp}", file=sys.stderr)
        return False
    print(f"frame {n}: ok ({width}x{height}, stride {stride}, largest difference {max_diff})")
    return True


def main(argv):
    width, height = 64, 48
    Gst.init(None)
    try:
        if len(argv) == 3:
            width, height = int(argv[1]), int(argv[2])
        elif len(argv) != 1:
            raise ValueError
        if not (1 <= width <= 8192 and 1 <= height <= 8192):
            raise ValueError
    except ValueError:
        print(f"usage: {argv[0]} [WIDTH HEIGHT]", file=sys.stderr)
        return EXIT_PIPELINE

    # sync=false: take frames as fast as they come instead of at 30 frames per second
    try:
        pipeline = Gst.parse_launch("appsrc name=src format=time "
                                    "! clconvolve kernel=box size=3 border=clamp "
                                    "! appsink name=sink sync=false")
    except GLib.Error as e:
        # e.g. "no element clconvolve": the plugin is not on GST_PLUGIN_PATH
        print(f"cannot build the pipeline: {e.message}", file=sys.stderr)
        return EXIT_PIPELINE
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")

    caps = Gst.Caps.from_string("video/x-raw,format=GRAY8,width=%d,height=%d,framerate=30/1"
                                % (width, height))
    info = GstVideo.VideoInfo.new_from_caps(caps)
    src.set_caps(caps)

    status = EXIT_MATCH
    # the element opens its OpenCL device here: without one this fails with an error message
    # on the bus
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        if not report_bus_error(pipeline):
            print("the pipeline did not start", file=sys.stderr)
        pipeline.set_state(Gst.State.NULL)
        return EXIT_PIPELINE

    try:
        # every frame, then end-of-stream: appsrc queues them and the element takes them in
        # order
        for n in range(N_FRAMES):
            if push_frame(src, info, make_pixels(width, height, n), n) != Gst.FlowReturn.OK:
                print(f"appsrc refused frame {n}", file=sys.stderr)
                return EXIT_PIPELINE
        src.end_of_stream()

        # the filtered frames, in the order they went in; None at end-of-stream, or after the
        # timeout when something went wrong (never blocks for ever)
        received = 0
        while True:
            sample = sink.try_pull_sample(PULL_TIMEOUT)
            if sample is None:
                break
            if received >= N_FRAMES:
                print(f"more output frames than the {N_FRAMES} pushed", file=sys.stderr)
                status = EXIT_MISMATCH
            elif not check_frame(sample, make_pixels(width, height, received), width, height,
                                 received):
                status = EXIT_MISMATCH
            received += 1

        if report_bus_error(pipeline):
            return EXIT_PIPELINE
        if not sink.is_eos():
            print(f"no output frame within {PULL_TIMEOUT // Gst.SECOND} s after frame "
                  f"{received}", file=sys.stderr)
            return EXIT_PIPELINE
        if received != N_FRAMES:
            print(f"{received} output frames for {N_FRAMES} input frames", file=sys.stderr)
            return EXIT_MISMATCH
    finally:
        pipeline.set_state(Gst.State.NULL)

    if status == EXIT_MATCH:
        print(f"all {N_FRAMES} frames match the reference")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
