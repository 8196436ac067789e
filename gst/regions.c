/* clconvolve: the parts of a frame that regions of interest convolve
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

#include "regions.h"

#include <math.h>
#include <string.h>

gboolean
cl_rect_clip (ClRect * r, gint width, gint height)
{
  gint64 x0 = MAX (r->x, 0), y0 = MAX (r->y, 0);
  gint64 x1 = MIN ((gint64) r->x + MAX (r->width, 0), width);
  gint64 y1 = MIN ((gint64) r->y + MAX (r->height, 0), height);

  if (x1 <= x0 || y1 <= y0) {
    *r = (ClRect) { 0, 0, 0, 0 };
    return FALSE;
  }
  *r = (ClRect) { x0, y0, x1 - x0, y1 - y0 };
  return TRUE;
}

/* [*a, *b) of a view's n pixels (or rows) widened by radius and clipped to [0, n): the whole
 * of them with wrap where the radius crosses an end (the kernel wraps across the view). */
static void
widen (gint * a, gint * b, gint radius, gint n, gboolean wrap)
{
  if (wrap && (*a - radius < 0 || *b + radius > n)) {
    *a = 0;
    *b = n;
    return;
  }
  *a = MAX (*a - radius, 0);
  *b = MIN (*b + radius, n);
}

/* The rows of a view's field (0: every row) among plane rows [*a, *b). */
static void
field_rows (gint * a, gint * b, gint field)
{
  if (field == 1) {
    *a = (*a + 1) / 2;
    *b = (*b + 1) / 2;
  } else if (field == 2) {
    *a /= 2;
    *b /= 2;
  }
}

static gsize
lcm (gsize a, gsize b)
{
  gsize x = a, y = b;

  while (y) {
    gsize t = x % y;

    x = y;
    y = t;
  }
  return a / x * b;
}

gint
cl_region_plan (const ClLayout * L, gint width, gint height, const ClRect * rect,
    gint radius, gboolean wrap, ClRegionPart * parts, gsize * bytes)
{
  /* per part: the bytes of its window and region as [start, end), and every view's pixel
   * size, before they are aligned to each other */
  gsize wend[CL_MAX_VIEWS], rend[CL_MAX_VIEWS], unit[CL_MAX_VIEWS];
  gint wrows_end[CL_MAX_VIEWS], rrows_end[CL_MAX_VIEWS];
  ClRect r = *rect;
  gint n = 0;

  if (!cl_rect_clip (&r, width, height))
    return 0;
  for (gint i = 0; i < L->n_views; i++) {
    const ClView *v = &L->views[i];
    const ClShape *sh = &L->shapes[v->shape];
    gsize pb = (gsize) sh->channels * sh->depth / 8;
    gint sx = 1 << v->xsub, sy = 1 << v->ysub;
    /* the view's pixels and rows that frame pixels of the region fall in */
    gint x0 = r.x / sx, x1 = MIN ((r.x + r.width + sx - 1) / sx, v->width);
    gint y0 = r.y / sy, y1 = (r.y + r.height + sy - 1) / sy;
    gint wx0, wx1, wy0, wy1;
    gsize wb0, wb1;
    ClRegionPart *p = NULL;
    gint k;

    field_rows (&y0, &y1, v->field);
    y1 = MIN (y1, v->height);
    if (x1 <= x0 || y1 <= y0)
      continue;
    wx0 = x0;
    wx1 = x1;
    wy0 = y0;
    wy1 = y1;
    widen (&wx0, &wx1, radius, v->width, wrap);
    widen (&wy0, &wy1, radius, v->height, wrap);
    wb0 = wx0 * pb;
    /* a window to the row's end takes the padding pixels the view copies */
    wb1 = (wx1 == v->width ? v->span : wx1) * pb;

    for (k = 0; k < n; k++)
      if (parts[k].plane == v->plane && parts[k].field == v->field)
        break;
    p = &parts[k];
    if (k == n) {
      n++;
      memset (p, 0, sizeof (*p));
      p->batch = -1;
      p->plane = v->plane;
      p->field = v->field;
      p->x = wb0;
      wend[k] = wb1;
      p->y = wy0;
      wrows_end[k] = wy1;
      p->rx = x0 * pb;
      rend[k] = x1 * pb;
      p->ry = y0;
      rrows_end[k] = y1;
      unit[k] = pb;
    } else {
      p->x = MIN (p->x, wb0);
      wend[k] = MAX (wend[k], wb1);
      p->y = MIN (p->y, wy0);
      wrows_end[k] = MAX (wrows_end[k], wy1);
      p->rx = MIN (p->rx, x0 * pb);
      rend[k] = MAX (rend[k], x1 * pb);
      p->ry = MIN (p->ry, y0);
      rrows_end[k] = MAX (rrows_end[k], y1);
      unit[k] = lcm (unit[k], pb);
    }
    g_assert (p->n_launches < 2);
    p->launch[p->n_launches++].view = i;
  }

  for (gint k = 0; k < n; k++) {
    ClRegionPart *p = &parts[k];
    gsize u = unit[k], row = L->row[p->plane];

    /* whole pixels of every view of the plane: packed 4:2:2 regions take whole macropixels */
    p->x = p->x / u * u;
    wend[k] = MIN ((wend[k] + u - 1) / u * u, row);
    p->rx = p->rx / u * u;
    rend[k] = MIN ((rend[k] + u - 1) / u * u, wend[k]);
    p->bytes = wend[k] - p->x;
    p->rbytes = rend[k] - p->rx;
    p->rx -= p->x;
    p->rows = wrows_end[k] - p->y;
    p->rrows = rrows_end[k] - p->ry;
    p->ry -= p->y;
    for (gint j = 0; j < p->n_launches; j++) {
      ClRegionLaunch *l = &p->launch[j];
      const ClView *v = &L->views[l->view];
      const ClShape *sh = &L->shapes[v->shape];
      gsize pb = (gsize) sh->channels * sh->depth / 8;
      gint end = wend[k] / pb;

      l->x = p->x / pb;
      l->width = MIN (end, v->width) - l->x;
      l->span = end - l->x;
    }
    *bytes = GST_ROUND_UP_64 (*bytes);
    p->offset = *bytes;
    *bytes += p->bytes * p->rows;
  }
  return n;
}

/* the sides regions are filtered with: a kernel grows in steps of about a quarter */
static const gint region_sides[CL_REGION_SIDES] = {
  3, 5, 7, 9, 11, 15, 19, 23, 31, 39, 47, 55, 63
};

gint
cl_region_side (gdouble scale, gint width, gint height)
{
  gdouble want = scale * MAX (MIN (width, height), 0);
  gint side;

  /* the nearest odd side, within the table's */
  want = CLAMP (want, 3.0, (gdouble) region_sides[CL_REGION_SIDES - 1]);
  side = 2 * (gint) floor (want / 2.0) + 1;
  for (gint i = 0; i < CL_REGION_SIDES; i++)
    if (region_sides[i] >= side)
      return region_sides[i];
  return region_sides[CL_REGION_SIDES - 1];
}

void
cl_rect_grow (ClRect * r, gint margin, gdouble margin_scale)
{
  /* whole pixels, up (less a rounding error's worth: 0.1 x 30 is 3) */
  gint64 mx = margin + (gint64) ceil (margin_scale * MAX (r->width, 0) - 1e-6);
  gint64 my = margin + (gint64) ceil (margin_scale * MAX (r->height, 0) - 1e-6);
  gint64 x = r->x - mx, y = r->y - my;
  gint64 w = r->width + 2 * mx, h = r->height + 2 * my;

  /* x within gint; the width past G_MAXINT is past any frame */
  r->x = (gint) CLAMP (x, G_MININT, G_MAXINT);
  r->y = (gint) CLAMP (y, G_MININT, G_MAXINT);
  r->width = (gint) CLAMP (w + (x - r->x), 0, G_MAXINT);
  r->height = (gint) CLAMP (h + (y - r->y), 0, G_MAXINT);
}

gboolean
cl_region_types_parse (const gchar * text, gchar *** names, gdouble ** scales)
{
  gchar **parts;
  gboolean ok = TRUE;
  gint n = 0;

  *names = NULL;
  *scales = NULL;
  if (!text || !*text)
    return TRUE;
  parts = g_strsplit (text, ",", -1);
  *names = g_new0 (gchar *, g_strv_length (parts) + 1);
  *scales = g_new (gdouble, g_strv_length (parts) + 1);
  for (gchar ** p = parts; *p; p++) {
    gchar *eq = strchr (*p, '='), *end = NULL;
    gdouble scale = -1.0;

    if (eq) {
      *eq = '\0';
      scale = g_ascii_strtod (g_strstrip (eq + 1), &end);
      if (end == eq + 1 || *end || !(scale >= 0.0 && scale <= 10.0)) {
        ok = FALSE;
        continue;
      }
    }
    if (!*g_strstrip (*p)) {
      ok = FALSE;
      continue;
    }
    (*names)[n] = g_strdup (*p);
    (*scales)[n++] = scale;
  }
  g_strfreev (parts);
  /* nothing usable: every type, rather than none (a region left sharp) */
  if (n == 0) {
    g_clear_pointer (names, g_strfreev);
    g_clear_pointer (scales, g_free);
  }
  return ok;
}

gboolean
cl_region_part_batch_window (const ClLayout * L, ClRegionPart * p, gint radius)
{
  const ClView *v = &L->views[p->launch[0].view];
  const ClShape *sh = &L->shapes[v->shape];
  gint pb = sh->channels * sh->depth / 8;
  gsize x0 = p->x + p->rx;
  gint64 x1, y0 = p->y + p->ry, y1 = y0 + p->rrows;

  if (p->field != 0 || p->n_launches != 1 || v->field != 0 || x0 % pb || p->rbytes % pb)
    return FALSE;
  x1 = (gint64) ((x0 + p->rbytes) / pb);
  if (x1 > v->width)
    return FALSE;
  p->bpix = pb;
  p->bx = (gint) (x0 / pb) - radius;
  p->by = (gint) y0 - radius;
  p->bwidth = (gint) (x1 - (gint64) (x0 / pb)) + 2 * radius;
  p->brows = p->rrows + 2 * radius;
  p->bbytes = (gsize) p->bwidth * pb;
  p->brx = (gsize) radius * pb;
  p->bry = radius;
  /* past the plane, or not the part's own window (that took the padding pixels the view
   * copies): the gather builds it */
  p->bordered = p->bx < 0 || p->by < 0 || x1 + radius > v->width || y1 + radius > v->height ||
      p->x != (gsize) p->bx * pb || p->y != p->by || p->bytes != p->bbytes ||
      p->rows != p->brows;
  return TRUE;
}

gboolean
cl_region_rules_apply (const ClRegionRules * rules, const gchar * type, gboolean sized,
    ClRect * r)
{
  gdouble scale = rules->scale;

  if (type && rules->types) {
    gint t = 0;

    while (rules->types[t] && strcmp (rules->types[t], type))
      t++;
    if (!rules->types[t])
      return FALSE;
    if (rules->type_scale[t] >= 0.0)
      scale = rules->type_scale[t];
  }
  if (type && sized && scale > 0.0)
    r->size = cl_region_side (scale, r->width, r->height);
  cl_rect_grow (r, rules->margin, rules->margin_scale);
  return TRUE;
}

void
cl_region_rules_clear (ClRegionRules * rules)
{
  g_clear_pointer (&rules->types, g_strfreev);
  g_clear_pointer (&rules->type_scale, g_free);
}
