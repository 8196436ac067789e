/* Starts and stops a pipeline N times (STRESS_PLAYING set: PLAYING, else PAUSED; a random wait
 * of up to MAX_US microseconds; NULL), then deinitialises GStreamer so that the leaks tracer
 * reports what is still alive. usage: stress N "LAUNCH LINE" MAX_US (run.sh beside it) */
#include <gst/gst.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 200;
  const char *desc = argc > 2 ? argv[2] : "videotestsrc ! clconvolve ! fakesink";
  int max_us = argc > 3 ? atoi (argv[3]) : 20000;
  GstState target = getenv ("STRESS_PLAYING") ? GST_STATE_PLAYING : GST_STATE_PAUSED;

  gst_init (&argc, &argv);
  for (int i = 0; i < n; i++) {
    GError *e = NULL;
    GstElement *p = gst_parse_launch (desc, &e);

    if (e) {
      g_printerr ("%s\n", e->message);
      return 1;
    }
    gst_element_set_state (p, target);
    g_usleep (g_random_int_range (0, max_us));
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (p);
  }
  gst_deinit ();
  return 0;
}
