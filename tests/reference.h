/* clconvolve: plain-C reference convolution for the tests
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* An independent, deliberately simple implementation of what the element computes, used as
 * the oracle the OpenCL output is compared against. No GStreamer, no OpenCL, no GLib.
 *
 * For every pixel (x,y) and channel c of an 8-bit interleaved plane:
 *   - if bit c of passmask is set, dst = src (the channel is copied unchanged, e.g. alpha);
 *   - otherwise dst = saturate_0_255 (round (S / divisor + bias)), where
 *     S = sum_{j,i in 0..ksize-1} k[j*ksize+i] * in(x+i-r, y+j-r, c), r = ksize/2,
 *     computed in double (correlation, kernel centred, row j = 0 of k at the top),
 *     round() is C's round (half away from zero) and NaN saturates to 0.
 * Coordinates outside the image are resolved per axis (x against width, y against height)
 * according to the border mode; see RefBorder. */

#ifndef __CLCONVOLVE_TEST_REFERENCE_H__
#define __CLCONVOLVE_TEST_REFERENCE_H__

typedef enum
{
  REF_BORDER_CLAMP,             /* repeat the edge pixel: "aaa|abcd|ddd" */
  REF_BORDER_MIRROR,            /* reflect without repeating the edge: "dcb|abcd|cba", repeated
                                 * as often as needed; a dimension of 1 maps everything to 0 */
  REF_BORDER_WRAP,              /* periodic: "bcd|abcd|abc" (mathematical modulo) */
  REF_BORDER_CONSTANT           /* the value 0 outside the image */
} RefBorder;

/* Two sums S (of k) and S2 (of k2) combined: magnitude sqrt (S^2 + S2^2), abs |S|, max
 * max (|S|, |S2|), each divided by |divisor| (none: S / divisor). */
typedef enum
{
  REF_COMBINE_NONE,
  REF_COMBINE_MAGNITUDE,
  REF_COMBINE_ABS,
  REF_COMBINE_MAX
} RefCombine;

/* 8-bit interleaved plane: pixel (x,y) channel c at src[y*src_stride + x*channels + c].
 * src and dst must not overlap. width, height >= 1, ksize odd >= 1, channels 1..32. */
void ref_convolve_u8 (const unsigned char *src, int src_stride, unsigned char *dst,
    int dst_stride, int width, int height, int channels, unsigned passmask,
    const double *k, int ksize, double divisor, double bias, RefBorder border);

/* A kw x kh matrix (each odd >= 1): S = sum_{j < kh, i < kw} k[j*kw+i] *
 * in(x+i-kw/2, y+j-kh/2, c). */
void ref_convolve_rect_u8 (const unsigned char *src, int src_stride, unsigned char *dst,
    int dst_stride, int width, int height, int channels, unsigned passmask,
    const double *k, int kw, int kh, double divisor, double bias, RefBorder border);

/* The same for 16-bit samples (host byte order), saturated to 0..65535: pixel (x,y) channel c
 * at src[y*src_stride + x*channels + c], strides in samples (not bytes). bias is in sample
 * units (the element's 8-bit bias times 65535/255 is the caller's business). */
void ref_convolve_u16 (const unsigned short *src, int src_stride, unsigned short *dst,
    int dst_stride, int width, int height, int channels, unsigned passmask,
    const double *k, int ksize, double divisor, double bias, RefBorder border);

/* One-sample pixels of bytes 1 (unsigned char) or 2 (unsigned short, strides in samples): out
 * = saturate (round (combine (S, S2) + bias)) with two ksize x ksize matrices (k2 may be NULL
 * for none and abs). */
void ref_combine (const void *src, int src_stride, void *dst, int dst_stride, int width,
    int height, int bytes, const double *k, const double *k2, int ksize, double divisor,
    double bias, RefBorder border, RefCombine combine);

/* Any of the above at three biases in one pass (the sums do not depend on the bias): dst[b]
 * (NULL: not wanted) gets what a call with bias[b] gives, byte for byte. The tests take the
 * samples near a rounding tie from the results a margin below and above the bias. Pixels of
 * channels samples of bytes 1 or 2 (strides in samples), passmask as above; k2 and combine
 * as ref_combine (NULL and REF_COMBINE_NONE: one matrix). */
void ref_convolve_biases (const void *src, int src_stride, void *const dst[3], int dst_stride,
    int width, int height, int channels, unsigned passmask, const double *k, const double *k2,
    int kw, int kh, double divisor, const double bias[3], RefBorder border,
    RefCombine combine, int bytes);

#endif /* __CLCONVOLVE_TEST_REFERENCE_H__ */
