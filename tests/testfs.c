/* clconvolve tests: file-system helpers (GLib only)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "testfs.h"

#include <glib/gstdio.h>

void
remove_tree (const gchar * path)
{
  GDir *d;
  const gchar *name;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR) || g_file_test (path, G_FILE_TEST_IS_SYMLINK)) {
    g_remove (path);
    return;
  }
  d = g_dir_open (path, 0, NULL);
  while (d && (name = g_dir_read_name (d))) {
    gchar *child = g_build_filename (path, name, NULL);
    remove_tree (child);
    g_free (child);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (path);
}
