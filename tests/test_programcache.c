/* clconvolve: unit tests of the on-disk program binary cache (file format, keys, directory)
 * Copyright (C) 2026 clconvolve developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* Plain GLib against gst/gstclprogramcache.h, no OpenCL. The file layout is restated here
 * (not taken from the implementation) so that a change of the format shows:
 *   8 bytes "CLCVPRG2", 64 bytes the key (hex), 8 bytes payload length (little-endian),
 *   32 bytes SHA-256 of the magic, key, length and payload, the payload.
 * ("CLCVPRG1" files, whose checksum covered the payload only, are refused.) */

#include <glib.h>
#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gstclprogramcache.h"
#include "testfs.h"

#define HEADER 112              /* 8 + 64 + 8 + 32 */
#define OFF_KEY 8
#define OFF_LEN 72
#define OFF_SUM 80
#define MAGIC "CLCVPRG2"

/* a load that takes longer than this did not return promptly (it waited or read a device) */
#define PROMPT_S 2.0
/* the alarm that ends a test whose load blocks for good (a FIFO waiting for a writer) */
#define ALARM_S 10
/* what a refusal may read at most: the files refused by their contents are small, the others
 * are not read at all */
#define READ_LIMIT (1 << 20)

/* ------------------------------------------------------------------------------ helpers */

static gchar *
tmp_dir (void)
{
  GError *error = NULL;
  gchar *dir = g_dir_make_tmp ("clconvolve-programcache-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}


static guint8 *
random_bytes (GRand * rand, gsize size)
{
  guint8 *b = g_malloc (size);

  for (gsize i = 0; i < size; i++)
    b[i] = (guint8) g_rand_int_range (rand, 0, 256);
  return b;
}


static gchar *
read_all (const gchar * path, gsize * len)
{
  gchar *contents = NULL;
  GError *error = NULL;

  g_file_get_contents (path, &contents, len, &error);
  g_assert_no_error (error);
  return contents;
}

static void
write_all (const gchar * path, const gchar * contents, gsize len)
{
  GError *error = NULL;

  g_file_set_contents (path, contents, len, &error);
  g_assert_no_error (error);
}

static gchar *
key_of (const gchar * identity, const gchar * options, const gchar * source)
{
  gchar *key = gst_cl_program_cache_key (identity, options, source);

  g_assert_nonnull (key);
  return key;
}

/* Loads key and checks that it is exactly payload[size]. */
static void
assert_loads (const gchar * dir, const gchar * key, const guint8 * payload, gsize size)
{
  const gchar *why = "unset";
  gsize got = 0;
  guint8 *b = gst_cl_program_cache_load (dir, key, &got, &why);

  if (!b)
    g_error ("load of %s refused: %s", key, why ? why : "(no reason)");
  g_assert_null (why);
  g_assert_cmpuint (got, ==, size);
  g_assert_true (memcmp (b, payload, size) == 0);
  g_free (b);
}

/* Loads key and checks that it is refused with a reason; what names the case. */
static void
assert_refused (const gchar * dir, const gchar * key, const gchar * what)
{
  const gchar *why = NULL;
  gsize got = 12345;
  guint8 *b = gst_cl_program_cache_load (dir, key, &got, &why);

  if (b)
    g_error ("%s: the loader accepted the file (%" G_GSIZE_FORMAT " bytes)", what, got);
  if (!why || !*why)
    g_error ("%s: refused without a reason", what);
  g_test_message ("%s: refused (%s)", what, why);
}

/* The checksum a file must carry: SHA-256 of everything in it but the checksum itself. */
static void
file_digest (const gchar * contents, gsize len, guint8 out[32])
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize n = 32;

  g_checksum_update (sum, (const guchar *) contents, OFF_SUM);
  g_checksum_update (sum, (const guchar *) contents + HEADER, len - HEADER);
  g_checksum_get_digest (sum, out, &n);
  g_checksum_free (sum);
}

/* The case a test is on, for the alarm's message. */
static const gchar *alarm_what = "";

static void
on_alarm (int sig)
{
  static const gchar msg[] = "Bail out! no answer within the alarm: the cache blocked on ";

  /* only async-signal-safe calls: the test thread is stuck in the call under test */
  if (write (STDERR_FILENO, msg, sizeof (msg) - 1) < 0 ||
      write (STDERR_FILENO, alarm_what, strlen (alarm_what)) < 0 ||
      write (STDERR_FILENO, "\n", 1) < 0)
    _exit (2);
  _exit (1);
}

/* Arms (what: the case) or, with NULL, disarms the alarm that fails a test that hangs. */
static void
guard (const gchar * what)
{
  alarm_what = what ? what : "";
  signal (SIGALRM, on_alarm);
  alarm (what ? ALARM_S : 0);
}

/* Loads key and checks that it is refused promptly and for the reason expect; what names the
 * case. */
static void
assert_refused_why (const gchar * dir, const gchar * key, const gchar * what,
    const gchar * expect)
{
  const gchar *why = NULL;
  gsize got = 12345;
  gint64 before = test_bytes_read (), after;
  GTimer *timer = g_timer_new ();
  guint8 *b;
  gdouble s;

  guard (what);
  b = gst_cl_program_cache_load (dir, key, &got, &why);
  guard (NULL);
  s = g_timer_elapsed (timer, NULL);
  g_timer_destroy (timer);
  after = test_bytes_read ();
  if (b)
    g_error ("%s: the loader accepted the file (%" G_GSIZE_FORMAT " bytes)", what, got);
  if (g_strcmp0 (why, expect))
    g_error ("%s: refused as '%s', expected '%s'", what, why ? why : "(no reason)", expect);
  if (s > PROMPT_S)
    g_error ("%s: the refusal took %.1f s", what, s);
  if (before >= 0 && after - before > READ_LIMIT)
    g_error ("%s: the refusal read %" G_GINT64_FORMAT " bytes", what, after - before);
  g_test_message ("%s: refused (%s) in %.3f s", what, why, s);
}

/* ------------------------------------------------------------------------------- tests */

/* store then load gives back the same bytes, for payloads of 1 byte to about 1 MB; the file
 * is <key>.bin of header + payload; storing again replaces it */
static void
test_round_trip (void)
{
  static const gsize sizes[] = { 1, 2, 111, 112, 113, 4096, 65537, 1000003, 1 << 20 };
  gchar *dir = tmp_dir ();
  GRand *rand = g_rand_new_with_seed (20260101);

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    gchar *src = g_strdup_printf ("kernel source %u", i);
    gchar *key = key_of ("device|1.2|3.4|5.6", "-DKSIZE=5", src);
    gchar *path = gst_cl_program_cache_file (dir, key), *contents;
    guint8 *payload = random_bytes (rand, sizes[i]), *other;
    GError *error = NULL;
    gsize len = 0;
    guint64 le;
    guint8 sum[32];

    g_assert_true (gst_cl_program_cache_store (dir, key, payload, sizes[i], &error));
    g_assert_no_error (error);
    contents = read_all (path, &len);
    g_assert_cmpuint (len, ==, HEADER + sizes[i]);
    g_assert_true (memcmp (contents, MAGIC, 8) == 0);
    g_assert_true (memcmp (contents + OFF_KEY, key, 64) == 0);
    memcpy (&le, contents + OFF_LEN, 8);
    g_assert_cmpuint (GUINT64_FROM_LE (le), ==, sizes[i]);
    /* the checksum covers magic, key, length and payload */
    file_digest (contents, len, sum);
    g_assert_true (memcmp (contents + OFF_SUM, sum, 32) == 0);
    g_assert_true (memcmp (contents + HEADER, payload, sizes[i]) == 0);
    g_free (contents);
    assert_loads (dir, key, payload, sizes[i]);

    /* stored again with other bytes (and another size): the new ones load */
    other = random_bytes (rand, sizes[i] + 7);
    g_assert_true (gst_cl_program_cache_store (dir, key, other, sizes[i] + 7, &error));
    g_assert_no_error (error);
    assert_loads (dir, key, other, sizes[i] + 7);

    g_free (other);
    g_free (payload);
    g_free (path);
    g_free (key);
    g_free (src);
  }
  /* one file per key, nothing else (no temporary files left behind) */
  {
    GDir *d = g_dir_open (dir, 0, NULL);
    const gchar *name;
    guint n = 0;

    while ((name = g_dir_read_name (d))) {
      g_assert_cmpuint (strlen (name), ==, 64 + 4);
      g_assert_true (g_str_has_suffix (name, ".bin"));
      n++;
    }
    g_dir_close (d);
    g_assert_cmpuint (n, ==, G_N_ELEMENTS (sizes));
  }
  g_rand_free (rand);
  remove_tree (dir);
  g_free (dir);
}

static void
assert_keys_differ (const gchar * a_id, const gchar * a_opt, const gchar * a_src,
    const gchar * b_id, const gchar * b_opt, const gchar * b_src)
{
  gchar *a = key_of (a_id, a_opt, a_src), *b = key_of (b_id, b_opt, b_src);

  if (!strcmp (a, b))
    g_error ("('%s', '%s', '%s') and ('%s', '%s', '%s') have the same key %s", a_id, a_opt,
        a_src, b_id, b_opt, b_src, a);
  g_free (a);
  g_free (b);
}

/* 64 lowercase hex digits, the same for the same input, different when any part changes or
 * characters move from one part to the next */
static void
test_key (void)
{
  const gchar *id = "pthread-haswell (Portable Computing Language)|OpenCL 3.0|3.1|OpenCL 3.0 PoCL";
  const gchar *opt = "-DKSIZE=5 -DCHANNELS=4";
  const gchar *src = "__kernel void convolve (void) { }";
  gchar *k = key_of (id, opt, src), *again = key_of (id, opt, src);

  g_assert_cmpuint (strlen (k), ==, 64);
  for (const gchar * p = k; *p; p++)
    g_assert_true (g_ascii_isxdigit (*p) && !g_ascii_isupper (*p));
  g_assert_cmpstr (k, ==, again);

  /* each part */
  assert_keys_differ (id, opt, src, "pthread-haswell (Portable Computing Language)|OpenCL 3.0|"
      "3.2|OpenCL 3.0 PoCL", opt, src);
  assert_keys_differ (id, opt, src, "", opt, src);
  assert_keys_differ (id, opt, src, id, "-DKSIZE=7 -DCHANNELS=4", src);
  assert_keys_differ (id, opt, src, id, "", src);
  assert_keys_differ (id, opt, src, id, opt, "__kernel void convolve (void) {  }");
  assert_keys_differ (id, opt, src, id, opt, "");
  /* the same characters split differently between the parts */
  assert_keys_differ ("a", "bc", src, "ab", "c", src);
  assert_keys_differ (id, "a", "bc", id, "ab", "c");
  assert_keys_differ ("a", "", "bc", "ab", "", "c");
  assert_keys_differ ("a", "b", "", "", "a", "b");
  assert_keys_differ ("", "", "ab", "ab", "", "");
  /* the parts are not interchangeable */
  assert_keys_differ ("x", "y", "z", "y", "x", "z");

  g_free (again);
  g_free (k);
}

typedef enum
{
  BREAK_EMPTY,
  BREAK_MAGIC_FIRST,
  BREAK_MAGIC_VERSION,
  BREAK_HEADER_ONLY_PART,
  BREAK_TRUNCATE_1,
  BREAK_TRUNCATE_TO_HEADER,
  BREAK_EXTRA_1,
  BREAK_PAYLOAD_FIRST,
  BREAK_PAYLOAD_MIDDLE,
  BREAK_PAYLOAD_LAST,
  BREAK_CHECKSUM_FIRST,
  BREAK_CHECKSUM_LAST,
  BREAK_KEY_BYTE,
  BREAK_LENGTH_PLUS_1,
  BREAK_LENGTH_MINUS_1,
  BREAK_LENGTH_HIGH_BYTE,
  BREAK_LENGTH_ZERO,
  N_BREAKS
} Break;

static const gchar *const break_names[N_BREAKS] = {
  "empty file", "first magic byte changed", "magic of another version (CLCVPRG3)",
  "half a header", "truncated by 1 byte", "truncated to the header", "1 extra byte",
  "first payload byte flipped", "middle payload byte flipped", "last payload byte flipped",
  "first checksum byte flipped", "last checksum byte flipped", "a key byte changed",
  "length field + 1", "length field - 1", "length field's top byte set", "length field 0",
};

static void
set_length (gchar * contents, guint64 length)
{
  guint64 le = GUINT64_TO_LE (length);

  memcpy (contents + OFF_LEN, &le, 8);
}

/* every way a file can differ from what store wrote is refused with a reason */
static void
test_refused (void)
{
  gchar *dir = tmp_dir ();
  GRand *rand = g_rand_new_with_seed (7);
  const gsize size = 4099;
  guint8 *payload = random_bytes (rand, size);
  gchar *key = key_of ("dev", "-DKSIZE=3", "source");
  gchar *other_key = key_of ("dev", "-DKSIZE=5", "source");
  gchar *path = gst_cl_program_cache_file (dir, key), *other_path = gst_cl_program_cache_file (dir, other_key);
  gchar *good;
  gsize good_len = 0;
  GError *error = NULL;

  /* no file at all */
  assert_refused (dir, key, "missing file");
  /* a directory that does not exist */
  {
    gchar *nowhere = g_build_filename (dir, "no", "such", "dir", NULL);
    assert_refused (nowhere, key, "missing directory");
    g_free (nowhere);
  }

  g_assert_true (gst_cl_program_cache_store (dir, key, payload, size, &error));
  g_assert_no_error (error);
  good = read_all (path, &good_len);
  g_assert_cmpuint (good_len, ==, HEADER + size);

  for (gint b = 0; b < N_BREAKS; b++) {
    gchar *c = g_memdup2 (good, good_len + 1);
    gsize len = good_len;

    switch ((Break) b) {
      case BREAK_EMPTY:
        len = 0;
        break;
      case BREAK_MAGIC_FIRST:
        c[0] ^= 0x20;
        break;
      case BREAK_MAGIC_VERSION:
        c[7] = '3';
        break;
      case BREAK_HEADER_ONLY_PART:
        len = HEADER / 2;
        break;
      case BREAK_TRUNCATE_1:
        len--;
        break;
      case BREAK_TRUNCATE_TO_HEADER:
        len = HEADER;
        break;
      case BREAK_EXTRA_1:
        c[len++] = 0;
        break;
      case BREAK_PAYLOAD_FIRST:
        c[HEADER] ^= 0x01;
        break;
      case BREAK_PAYLOAD_MIDDLE:
        c[HEADER + size / 2] ^= 0x80;
        break;
      case BREAK_PAYLOAD_LAST:
        c[len - 1] ^= 0x10;
        break;
      case BREAK_CHECKSUM_FIRST:
        c[OFF_SUM] ^= 0x01;
        break;
      case BREAK_CHECKSUM_LAST:
        c[OFF_SUM + 31] ^= 0x40;
        break;
      case BREAK_KEY_BYTE:
        c[OFF_KEY + 10] = c[OFF_KEY + 10] == '0' ? '1' : '0';
        break;
      case BREAK_LENGTH_PLUS_1:
        set_length (c, size + 1);
        break;
      case BREAK_LENGTH_MINUS_1:
        set_length (c, size - 1);
        break;
      case BREAK_LENGTH_HIGH_BYTE:
        set_length (c, size | G_GUINT64_CONSTANT (0x0100000000000000));
        break;
      case BREAK_LENGTH_ZERO:
        set_length (c, 0);
        break;
      case N_BREAKS:
        g_assert_not_reached ();
    }
    write_all (path, c, len);
    assert_refused (dir, key, break_names[b]);
    /* the good file again loads: the refusal was the damage's doing */
    write_all (path, good, good_len);
    assert_loads (dir, key, payload, size);
    g_free (c);
  }

  /* garbage of the right length, and garbage that starts with the magic */
  {
    guint8 *junk = random_bytes (rand, good_len);

    write_all (path, (const gchar *) junk, good_len);
    assert_refused (dir, key, "random bytes");
    memcpy (junk, MAGIC, 8);
    write_all (path, (const gchar *) junk, good_len);
    assert_refused (dir, key, "random bytes after the magic");
    g_free (junk);
  }

  /* a valid file of another key copied (or renamed) under this key's name */
  {
    guint8 *other = random_bytes (rand, size);
    gchar *copy;
    gsize copy_len = 0;

    g_assert_true (gst_cl_program_cache_store (dir, other_key, other, size, &error));
    g_assert_no_error (error);
    assert_loads (dir, other_key, other, size);
    copy = read_all (other_path, &copy_len);
    write_all (path, copy, copy_len);
    assert_refused (dir, key, "another key's file copied under this name");
    /* the same bytes as this key's payload under another key's header: still refused */
    g_assert_true (gst_cl_program_cache_store (dir, other_key, payload, size, &error));
    g_assert_no_error (error);
    g_free (copy);
    copy = read_all (other_path, &copy_len);
    write_all (path, copy, copy_len);
    assert_refused (dir, key, "this payload under another key's header");
    g_assert_cmpint (g_rename (other_path, path), ==, 0);
    assert_refused (dir, key, "another key's file renamed to this name");
    assert_refused (dir, other_key, "renamed away");
    g_free (copy);
    g_free (other);
  }

  /* a directory where the file should be */
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  assert_refused (dir, key, "a directory named like the file");
  g_rmdir (path);

  /* a key that is not one: refused, not looked up */
  assert_refused (dir, "", "empty key");
  assert_refused (dir, "abc", "short key");

  g_free (good);
  g_free (other_path);
  g_free (path);
  g_free (other_key);
  g_free (key);
  g_free (payload);
  g_rand_free (rand);
  remove_tree (dir);
  g_free (dir);
}

/* store creates the directory and its missing parents; where it cannot, it says so */
static void
test_nested_dir (void)
{
  gchar *dir = tmp_dir ();
  gchar *nested = g_build_filename (dir, "a", "b", "c", "programs", NULL);
  gchar *file = g_build_filename (dir, "plain-file", NULL);
  gchar *under_file = g_build_filename (file, "programs", NULL);
  gchar *key = key_of ("dev", "", "src");
  const guint8 payload[] = { 1, 2, 3, 4, 5 };
  GError *error = NULL;

  g_assert_false (g_file_test (nested, G_FILE_TEST_EXISTS));
  g_assert_true (gst_cl_program_cache_store (nested, key, payload, sizeof (payload), &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (nested, G_FILE_TEST_IS_DIR));
  assert_loads (nested, key, payload, sizeof (payload));

  /* a regular file in the way: FALSE with an error, and nothing is written */
  write_all (file, "x", 1);
  g_assert_false (gst_cl_program_cache_store (under_file, key, payload, sizeof (payload),
          &error));
  g_assert_nonnull (error);
  g_test_message ("store under a file: %s", error->message);
  g_clear_error (&error);
  {
    gsize len = 0;
    gchar *c = read_all (file, &len);

    g_assert_cmpuint (len, ==, 1);
    g_free (c);
  }
  assert_refused (under_file, key, "load under a file");

  g_free (key);
  g_free (under_file);
  g_free (file);
  g_free (nested);
  remove_tree (dir);
  g_free (dir);
}

/* the directory: the environment variable, empty = disabled, else the XDG cache */
static void
test_cache_dir (void)
{
  gchar *saved = g_strdup (g_getenv (GST_CL_PROGRAM_CACHE_ENV));
  gchar *dir, *expected;

  g_assert_cmpstr (GST_CL_PROGRAM_CACHE_ENV, ==, "GST_CLCONVOLVE_CACHE_DIR");

  g_unsetenv (GST_CL_PROGRAM_CACHE_ENV);
  dir = gst_cl_program_cache_dir ();
  expected = g_build_filename (g_get_user_cache_dir (), "clconvolve", "programs", NULL);
  g_assert_nonnull (dir);
  g_assert_cmpstr (dir, ==, expected);
  g_assert_true (g_str_has_prefix (dir, g_get_user_cache_dir ()));
  g_assert_true (g_str_has_suffix (dir, G_DIR_SEPARATOR_S "clconvolve" G_DIR_SEPARATOR_S
          "programs"));
  g_free (expected);
  g_free (dir);

  g_setenv (GST_CL_PROGRAM_CACHE_ENV, "", TRUE);
  dir = gst_cl_program_cache_dir ();
  g_assert_null (dir);

  g_setenv (GST_CL_PROGRAM_CACHE_ENV, "/some/where/else", TRUE);
  dir = gst_cl_program_cache_dir ();
  g_assert_cmpstr (dir, ==, "/some/where/else");
  g_free (dir);

  g_setenv (GST_CL_PROGRAM_CACHE_ENV, "relative dir", TRUE);
  dir = gst_cl_program_cache_dir ();
  g_assert_cmpstr (dir, ==, "relative dir");
  g_free (dir);

  if (saved)
    g_setenv (GST_CL_PROGRAM_CACHE_ENV, saved, TRUE);
  else
    g_unsetenv (GST_CL_PROGRAM_CACHE_ENV);
  g_free (saved);
}

/* Things in a cache directory that are no file store wrote and that the loader must not wait
 * on or read: each refused at once for its reason, then replaced by store (never opened by
 * it), except a directory, which store cannot replace and leaves alone. */
typedef enum
{
  SPECIAL_FIFO,                 /* opened for reading, it would wait for a writer forever */
  SPECIAL_LINK_ZERO,            /* a symbolic link to /dev/zero: endless */
  SPECIAL_LINK_NULL,            /* a symbolic link to /dev/null */
  SPECIAL_LINK_FIFO,            /* a symbolic link to a FIFO elsewhere */
  SPECIAL_DIRECTORY,
  SPECIAL_SPARSE,               /* a sparse regular file one byte over the cap */
  N_SPECIALS
} Special;

static const gchar *const special_names[N_SPECIALS] = {
  "fifo", "link-to-dev-zero", "link-to-dev-null", "link-to-fifo", "directory",
  "sparse-over-cap",
};

/* Puts s at path; other is a free path in the same directory, for a link's target. */
static void
make_special (Special s, const gchar * path, const gchar * other)
{
  gint fd;

  switch (s) {
    case SPECIAL_FIFO:
      g_assert_cmpint (mkfifo (path, 0600), ==, 0);
      break;
    case SPECIAL_LINK_ZERO:
      g_assert_cmpint (symlink ("/dev/zero", path), ==, 0);
      break;
    case SPECIAL_LINK_NULL:
      g_assert_cmpint (symlink ("/dev/null", path), ==, 0);
      break;
    case SPECIAL_LINK_FIFO:
      g_assert_cmpint (mkfifo (other, 0600), ==, 0);
      g_assert_cmpint (symlink (other, path), ==, 0);
      break;
    case SPECIAL_DIRECTORY:
      g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
      break;
    case SPECIAL_SPARSE:
      /* (no need to write it: the size alone must refuse it) */
      fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      g_assert_cmpint (fd, >=, 0);
      g_assert_cmpint (ftruncate (fd, GST_CL_PROGRAM_CACHE_MAX_FILE + 1), ==, 0);
      close (fd);
      break;
    case N_SPECIALS:
      g_assert_not_reached ();
  }
}

static guint
count_entries (const gchar * dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d && g_dir_read_name (d))
    n++;
  if (d)
    g_dir_close (d);
  return n;
}

static void
test_special (gconstpointer data)
{
  Special s = (Special) GPOINTER_TO_INT (data);
  gchar *dir = tmp_dir ();
  gchar *key = key_of ("dev", "-DKSIZE=3", special_names[s]);
  gchar *path = gst_cl_program_cache_file (dir, key);
  gchar *other = g_build_filename (dir, "elsewhere", NULL);
  gchar *cap = g_strdup_printf ("larger than the %d MiB cap", GST_CL_PROGRAM_CACHE_MAX_MIB);
  const gchar *expect = s == SPECIAL_SPARSE ? cap : "not a regular file";
  static const guint8 payload[] = "a program binary";
  GError *error = NULL;
  GStatBuf st;
  gboolean stored;

  make_special (s, path, other);
  assert_refused_why (dir, key, special_names[s], expect);
  /* the refusal changed nothing: the same again */
  assert_refused_why (dir, key, special_names[s], expect);

  if (s == SPECIAL_DIRECTORY) {
    /* store cannot rename over it: FALSE, the directory untouched, no temporary file left */
    g_assert_false (gst_cl_program_cache_store (dir, key, payload, sizeof (payload), &error));
    g_assert_nonnull (error);
    g_test_message ("store over a directory: %s", error->message);
    g_clear_error (&error);
    g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));
    g_assert_cmpuint (count_entries (path), ==, 0);
    g_assert_cmpuint (count_entries (dir), ==, 1);
    g_assert_cmpint (g_rmdir (path), ==, 0);
  }

  /* store replaces the thing itself (a link, not its target) with a regular file */
  guard ("store");
  stored = gst_cl_program_cache_store (dir, key, payload, sizeof (payload), &error);
  guard (NULL);
  g_assert_no_error (error);
  g_assert_true (stored);
  assert_loads (dir, key, payload, sizeof (payload));
  g_assert_cmpint (g_lstat (path, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  g_assert_cmpuint (st.st_size, ==, HEADER + sizeof (payload));
  if (s == SPECIAL_LINK_FIFO) {
    g_assert_cmpint (g_lstat (other, &st), ==, 0);
    g_assert_true (S_ISFIFO (st.st_mode));
  }
  g_assert_cmpuint (count_entries (dir), ==, s == SPECIAL_LINK_FIFO ? 2 : 1);

  g_free (cap);
  g_free (other);
  g_free (path);
  g_free (key);
  remove_tree (dir);
  g_free (dir);
}

/* a valid file of key A whose header key was rewritten to B, put under B's name: the checksum
 * covers the key, so the loader refuses another program's binary under B */
static void
test_key_rewritten (void)
{
  gchar *dir = tmp_dir ();
  GRand *rand = g_rand_new_with_seed (11);
  const gsize size = 4099;
  guint8 *payload = random_bytes (rand, size);
  gchar *a = key_of ("dev", "-DKSIZE=3", "source"), *b = key_of ("dev", "-DKSIZE=5", "source");
  gchar *path_a = gst_cl_program_cache_file (dir, a), *path_b = gst_cl_program_cache_file (dir, b);
  gchar *contents;
  gsize len = 0;
  GError *error = NULL;

  g_assert_true (gst_cl_program_cache_store (dir, a, payload, size, &error));
  g_assert_no_error (error);
  contents = read_all (path_a, &len);
  memcpy (contents + OFF_KEY, b, 64);
  write_all (path_b, contents, len);
  assert_refused_why (dir, b, "A's file with B's key in its header, under B's name",
      "checksum mismatch");
  /* A's own file is fine, and so is the same payload stored under B */
  assert_loads (dir, a, payload, size);
  g_assert_true (gst_cl_program_cache_store (dir, b, payload, size, &error));
  g_assert_no_error (error);
  assert_loads (dir, b, payload, size);

  g_free (contents);
  g_free (path_b);
  g_free (path_a);
  g_free (b);
  g_free (a);
  g_free (payload);
  g_rand_free (rand);
  remove_tree (dir);
  g_free (dir);
}

/* a file of the previous format ("CLCVPRG1", the checksum of the payload only), otherwise
 * valid, is refused; store writes the current format over it */
static void
test_old_format (void)
{
  gchar *dir = tmp_dir ();
  GRand *rand = g_rand_new_with_seed (12);
  const gsize size = 777;
  guint8 *payload = random_bytes (rand, size);
  gchar *key = key_of ("dev", "", "old");
  gchar *path = gst_cl_program_cache_file (dir, key);
  gchar *c = g_malloc (HEADER + size), *now;
  guint64 le = GUINT64_TO_LE ((guint64) size);
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize n = 32, len = 0;
  GError *error = NULL;

  memcpy (c, "CLCVPRG1", 8);
  memcpy (c + OFF_KEY, key, 64);
  memcpy (c + OFF_LEN, &le, 8);
  g_checksum_update (sum, payload, size);
  g_checksum_get_digest (sum, (guint8 *) c + OFF_SUM, &n);
  memcpy (c + HEADER, payload, size);
  write_all (path, c, HEADER + size);
  assert_refused_why (dir, key, "a CLCVPRG1 file", "not a clconvolve program file");

  g_assert_true (gst_cl_program_cache_store (dir, key, payload, size, &error));
  g_assert_no_error (error);
  assert_loads (dir, key, payload, size);
  now = read_all (path, &len);
  g_assert_true (memcmp (now, MAGIC, 8) == 0);

  g_free (now);
  g_checksum_free (sum);
  g_free (c);
  g_free (path);
  g_free (key);
  g_free (payload);
  g_rand_free (rand);
  remove_tree (dir);
  g_free (dir);
}

/* a symbolic link to a valid file is followed; store replaces the link, not its target */
static void
test_link_to_file (void)
{
  gchar *dir = tmp_dir ();
  gchar *key = key_of ("dev", "", "linked");
  gchar *path = gst_cl_program_cache_file (dir, key);
  gchar *target = g_build_filename (dir, "elsewhere", NULL);
  static const guint8 first[] = "the first binary", second[] = "the second binary, longer";
  gchar *before, *after;
  gsize len = 0, len2 = 0;
  GError *error = NULL;
  GStatBuf st;

  g_assert_true (gst_cl_program_cache_store (dir, key, first, sizeof (first), &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_rename (path, target), ==, 0);
  g_assert_cmpint (symlink (target, path), ==, 0);
  assert_loads (dir, key, first, sizeof (first));

  before = read_all (target, &len);
  g_assert_true (gst_cl_program_cache_store (dir, key, second, sizeof (second), &error));
  g_assert_no_error (error);
  assert_loads (dir, key, second, sizeof (second));
  g_assert_cmpint (g_lstat (path, &st), ==, 0);
  g_assert_true (S_ISREG (st.st_mode));
  after = read_all (target, &len2);
  g_assert_true (len == len2 && memcmp (before, after, len) == 0);

  g_free (after);
  g_free (before);
  g_free (target);
  g_free (path);
  g_free (key);
  remove_tree (dir);
  g_free (dir);
}

/* the cap: a binary that makes a file of exactly the cap is stored and loads; one byte more is
 * not stored (load would refuse it), and nothing is written */
static void
test_cap (void)
{
  gchar *dir = tmp_dir ();
  gchar *key = key_of ("dev", "", "big");
  gchar *path = gst_cl_program_cache_file (dir, key);
  gsize max = GST_CL_PROGRAM_CACHE_MAX_FILE - HEADER;
  guint8 *big = g_malloc0 (max + 1);
  GError *error = NULL;

  g_assert_cmpint (GST_CL_PROGRAM_CACHE_MAX_FILE, ==,
      (gint64) GST_CL_PROGRAM_CACHE_MAX_MIB * 1024 * 1024);
  big[0] = 1;
  big[max - 1] = 2;
  big[max] = 3;
  g_assert_false (gst_cl_program_cache_store (dir, key, big, max + 1, &error));
  g_assert_nonnull (error);
  g_test_message ("store over the cap: %s", error->message);
  g_clear_error (&error);
  g_assert_cmpuint (count_entries (dir), ==, 0);

  g_assert_true (gst_cl_program_cache_store (dir, key, big, max, &error));
  g_assert_no_error (error);
  assert_loads (dir, key, big, max);

  g_free (big);
  g_free (path);
  g_free (key);
  remove_tree (dir);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/programcache/round-trip", test_round_trip);
  g_test_add_func ("/programcache/key", test_key);
  g_test_add_func ("/programcache/refused", test_refused);
  g_test_add_func ("/programcache/nested-dir", test_nested_dir);
  g_test_add_func ("/programcache/cache-dir", test_cache_dir);
  for (gint s = 0; s < N_SPECIALS; s++) {
    gchar *name = g_strdup_printf ("/programcache/special/%s", special_names[s]);

    g_test_add_data_func (name, GINT_TO_POINTER (s), test_special);
    g_free (name);
  }
  g_test_add_func ("/programcache/key-rewritten", test_key_rewritten);
  g_test_add_func ("/programcache/old-format", test_old_format);
  g_test_add_func ("/programcache/link-to-file", test_link_to_file);
  g_test_add_func ("/programcache/cap", test_cap);
  return g_test_run ();
}
