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

/* Files that a cache loader must neither wait on nor read. */
typedef enum
{
  TEST_SPECIAL_FIFO,            /* opened for reading, it would wait for a writer forever */
  TEST_SPECIAL_LINK_ZERO,       /* a symbolic link to /dev/zero: endless */
  TEST_N_SPECIALS
} TestSpecial;

extern const gchar *const test_special_names[TEST_N_SPECIALS];

/* A watchdog over a run that may meet such files. After TEST_WATCHDOG_UNBLOCK_S seconds it
 * releases a reader blocked on one of its FIFOs (and marks the run blocked: the test then fails
 * instead of hanging). It ends the process once the process has read TEST_WATCHDOG_READ_LIMIT
 * bytes since the run started (an endless file: the reader cannot be stopped otherwise, and
 * would fill the memory), or after TEST_WATCHDOG_ABORT_S seconds (a run stuck otherwise, a
 * set_state (NULL) that does not return). One at a time. */
#define TEST_WATCHDOG_UNBLOCK_S 20
#define TEST_WATCHDOG_ABORT_S 120
/* more than a run reads (frames, PoCL's kernel cache) and far less than an endless file */
#define TEST_WATCHDOG_READ_LIMIT (256 << 20)

/* Starts the watchdog over a run named what; fifos: the FIFOs it may release (NULL-ended). */
void test_watchdog_start (gchar ** fifos, const gchar * what);

/* Stops the watchdog, if it runs; returns whether it released a reader blocked on a FIFO. */
gboolean test_watchdog_stop (void);

/* Bytes this process has read so far (rchar of /proc/self/io), or -1 where that is unknown. */
gint64 test_bytes_read (void);

#endif
