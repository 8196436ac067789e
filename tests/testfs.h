/* clconvolve tests: file-system helpers (GLib only)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __CLCONVOLVE_TEST_FS_H__
#define __CLCONVOLVE_TEST_FS_H__

#include <glib.h>

/* Removes path and everything under it (symbolic links are removed, not followed). */
void remove_tree (const gchar * path);

#endif
