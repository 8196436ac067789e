/* clconvolve tests: file-system helpers and a temporary-directory fixture
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

/* The tree under dir as one line per path relative to dir, directories included, sorted;
 * "" when dir is missing. Free with g_free. */
gchar *tree_text (const gchar * dir);

/* The functions below fail the running gst-check test (fail_unless) when they cannot do their
 * work. */

/* The contents of path (its length in *len). Free with g_free. */
gchar *test_read_file (const gchar * path, gsize * len);

/* Replaces path's contents with len bytes of contents. */
void test_write_file (const gchar * path, const gchar * contents, gsize len);

/* A test's own temporary directory and an environment variable pointing into it, put back as
 * they were at the test's end. */
typedef struct
{
  const gchar *var;             /* the variable */
  gchar *saved;                 /* its value before the test */
  gboolean was_set;
  gchar *tmp_dir;               /* the test's own, removed at its end */
  gchar *dir;                   /* tmp_dir/sub, not created: the code under test must */
} TestEnvDir;

/* Sets var to value, or unsets it when value is NULL. */
void test_env_set (const gchar * var, const gchar * value);

/* Saves var, makes a temporary directory from tmp_template (see g_dir_make_tmp) and sets var
 * to the path sub in it, which is not created. */
void test_env_dir_begin (TestEnvDir * e, const gchar * var, const gchar * tmp_template,
    const gchar * sub);

/* Puts var back as test_env_dir_begin found it, removes the temporary directory and frees
 * e's paths. */
void test_env_dir_end (TestEnvDir * e);

#endif
