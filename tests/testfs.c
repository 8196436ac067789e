/* clconvolve tests: file-system helpers and a temporary-directory fixture
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#include "testfs.h"

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

const gchar *const test_special_names[TEST_N_SPECIALS] = { "a FIFO", "a link to /dev/zero" };

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

/* Adds every path under dir to out, relative to the top directory (prefix: dir's own path
 * relative to it, or NULL at the top); symbolic links are listed, not followed. */
static void
collect_tree (const gchar * dir, const gchar * prefix, GPtrArray * out)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *name;

  while (d && (name = g_dir_read_name (d))) {
    gchar *rel = prefix ? g_build_filename (prefix, name, NULL) : g_strdup (name);
    gchar *full = g_build_filename (dir, name, NULL);

    g_ptr_array_add (out, rel);
    if (g_file_test (full, G_FILE_TEST_IS_DIR) && !g_file_test (full, G_FILE_TEST_IS_SYMLINK))
      collect_tree (full, rel, out);
    g_free (full);
  }
  if (d)
    g_dir_close (d);
}

/* g_ptr_array_sort hands over pointers to the elements. */
static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

gchar *
tree_text (const gchar * dir)
{
  GPtrArray *a = g_ptr_array_new_with_free_func (g_free);
  GString *s = g_string_new (NULL);

  collect_tree (dir, NULL, a);
  g_ptr_array_sort (a, compare_names);
  for (guint i = 0; i < a->len; i++)
    g_string_append_printf (s, "%s\n", (const gchar *) g_ptr_array_index (a, i));
  g_ptr_array_unref (a);
  return g_string_free (s, FALSE);
}

gchar *
test_read_file (const gchar * path, gsize * len)
{
  gchar *contents = NULL;
  GError *err = NULL;

  fail_unless (g_file_get_contents (path, &contents, len, &err), "%s: %s", path,
      err ? err->message : "?");
  return contents;
}

void
test_write_file (const gchar * path, const gchar * contents, gsize len)
{
  GError *err = NULL;

  fail_unless (g_file_set_contents (path, contents, len, &err), "%s: %s", path,
      err ? err->message : "?");
}

void
test_env_set (const gchar * var, const gchar * value)
{
  if (value)
    g_setenv (var, value, TRUE);
  else
    g_unsetenv (var);
}

void
test_env_dir_begin (TestEnvDir * e, const gchar * var, const gchar * tmp_template,
    const gchar * sub)
{
  GError *err = NULL;

  e->var = var;
  e->was_set = g_getenv (var) != NULL;
  e->saved = g_strdup (g_getenv (var));
  e->tmp_dir = g_dir_make_tmp (tmp_template, &err);
  fail_unless (e->tmp_dir != NULL, "%s", err ? err->message : "?");
  e->dir = g_build_filename (e->tmp_dir, sub, NULL);
  test_env_set (var, e->dir);
}

void
test_env_dir_end (TestEnvDir * e)
{
  test_env_set (e->var, e->was_set ? e->saved : NULL);
  g_clear_pointer (&e->saved, g_free);
  remove_tree (e->tmp_dir);
  g_clear_pointer (&e->tmp_dir, g_free);
  g_clear_pointer (&e->dir, g_free);
}

gint64
test_bytes_read (void)
{
  gchar *text = NULL, *p;
  gint64 n = -1;

  if (g_file_get_contents ("/proc/self/io", &text, NULL, NULL) &&
      (p = strstr (text, "rchar: ")))
    n = g_ascii_strtoll (p + 7, NULL, 10);
  g_free (text);
  return n;
}

typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done, blocked;
  gchar **fifos;                /* the paths that are FIFOs */
  gchar *what;
  GThread *thread;              /* NULL: not running */
} Watchdog;

/* one, outside any test's frame: a failed check leaves the test at once, and teardown stops
 * the watchdog after the pipelines (which it may have to release) */
static Watchdog watchdog;

/* Opening a FIFO for writing without blocking succeeds only while it has a reader: a loader
 * waiting in open () for a writer. The open lets it go on; the close gives it end of file. */
static gpointer
watchdog_main (gpointer data)
{
  Watchdog *w = data;
  gint64 start = g_get_monotonic_time (), read0 = test_bytes_read ();

  g_mutex_lock (&w->lock);
  while (!w->done) {
    gint64 now = g_get_monotonic_time (), got = test_bytes_read ();

    if (now - start > TEST_WATCHDOG_ABORT_S * G_TIME_SPAN_SECOND)
      g_error ("%s: still running after %d s", w->what, TEST_WATCHDOG_ABORT_S);
    if (read0 >= 0 && got - read0 >= TEST_WATCHDOG_READ_LIMIT)
      g_error ("%s: the process has read %" G_GINT64_FORMAT " bytes since the run started",
          w->what, got - read0);
    if (now - start > TEST_WATCHDOG_UNBLOCK_S * G_TIME_SPAN_SECOND) {
      for (guint i = 0; w->fifos[i]; i++) {
        gint fd = open (w->fifos[i], O_WRONLY | O_NONBLOCK | O_CLOEXEC);

        if (fd >= 0) {
          w->blocked = TRUE;
          close (fd);
        }
      }
    }
    g_cond_wait_until (&w->cond, &w->lock, now + G_TIME_SPAN_SECOND / 5);
  }
  g_mutex_unlock (&w->lock);
  return NULL;
}

void
test_watchdog_start (gchar ** fifos, const gchar * what)
{
  Watchdog *w = &watchdog;

  fail_unless (w->thread == NULL);
  memset (w, 0, sizeof (*w));
  g_mutex_init (&w->lock);
  g_cond_init (&w->cond);
  w->fifos = g_strdupv (fifos);
  w->what = g_strdup (what);
  w->thread = g_thread_new ("watchdog", watchdog_main, w);
}

gboolean
test_watchdog_stop (void)
{
  Watchdog *w = &watchdog;

  if (!w->thread)
    return FALSE;
  g_mutex_lock (&w->lock);
  w->done = TRUE;
  g_cond_signal (&w->cond);
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);
  w->thread = NULL;
  g_cond_clear (&w->cond);
  g_mutex_clear (&w->lock);
  g_strfreev (w->fifos);
  g_free (w->what);
  return w->blocked;
}
