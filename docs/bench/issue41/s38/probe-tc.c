/* Host for tsep.cl (issue 41, s38 probe): times the tensor-core separable kernel against a device
 * copy of the same frame, and checks it against a plain C reference (clamp border, RGBA, the
 * first NCH samples filtered, the rest copied).
 * Build: gcc -O2 -o tc tc.c -lOpenCL -lm
 * Run: ./tc W H KSIZE gauss|box [reps]; env TW SH NW NCH (defaults 64 128 8 3) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int envi (const char *n, int d) { const char *s = getenv (n); return s ? atoi (s) : d; }
static int cmpd (const void *a, const void *b) { double x = *(double *) a, y = *(double *) b; return x < y ? -1 : x > y; }
static double evt (cl_event e)
{
  cl_ulong a, b;
  clWaitForEvents (1, &e);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_START, 8, &a, NULL);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_END, 8, &b, NULL);
  clReleaseEvent (e);
  return (b - a) * 1e-3;
}

int main (int argc, char **argv)
{
  if (argc < 5) return 2;
  int W = atoi (argv[1]), H = atoi (argv[2]), K = atoi (argv[3]), box = !strcmp (argv[4], "box");
  int reps = argc > 5 ? atoi (argv[5]) : 50;
  int TW = envi ("TW", 64), SH = envi ("SH", 128), NW = envi ("NW", 8), NCH = envi ("NCH", 3);
  float w[2 * 64];
  double sg = 0.3 * ((K - 1) * 0.5 - 1) + 0.8, s = 0;
  for (int i = 0; i < K; i++) { double v = box ? 1.0 : exp (-(i - K / 2) * (i - K / 2) / (2 * sg * sg)); w[i] = v; s += v; }
  for (int i = 0; i < K; i++) w[i] /= s, w[K + i] = w[i];

  cl_platform_id p[8]; cl_uint np; clGetPlatformIDs (8, p, &np);
  cl_device_id d = 0;
  for (cl_uint i = 0; i < np && !d; i++) if (clGetDeviceIDs (p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) d = 0;
  if (!d) { printf ("no gpu\n"); return 1; }
  cl_int e; cl_context c = clCreateContext (NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue qu = clCreateCommandQueue (c, d, CL_QUEUE_PROFILING_ENABLE, &e);
  FILE *f = fopen (getenv ("TSEP_CL") ? getenv ("TSEP_CL") : "tsep.cl", "rb");
  static char srcbuf[1 << 16]; size_t n = fread (srcbuf, 1, sizeof srcbuf - 1, f); srcbuf[n] = 0; fclose (f);
  const char *sp = srcbuf;
  cl_program pr = clCreateProgramWithSource (c, 1, &sp, NULL, &e);
  char opt[256]; snprintf (opt, sizeof opt, "-DKSIZE=%d -DNCH=%d -DTW=%d -DSH=%d -DNW=%d", K, NCH, TW, SH, NW);
  e = clBuildProgram (pr, 1, &d, opt, NULL, NULL);
  if (e) { static char log[1 << 16]; clGetProgramBuildInfo (pr, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); printf ("build %d: %s\n", e, log); return 1; }
  size_t pix = (size_t) W * H;
  unsigned *in = malloc (pix * 4), *out = malloc (pix * 4);
  unsigned r = 12345;
  for (size_t i = 0; i < pix; i++) {
    /* smooth gradients plus noise, so that errors at every level show */
    int x = i % W, y = i / W;
    r = r * 1103515245 + 12345;
    unsigned v = 0;
    for (int ch = 0; ch < 4; ch++) v |= (unsigned) (((x * (ch + 1) + y * (3 - ch)) / 3 + ((r >> (8 + 4 * ch)) & 31)) & 255) << (8 * ch);
    in[i] = v;
  }
  cl_mem ms = clCreateBuffer (c, CL_MEM_COPY_HOST_PTR, pix * 4, in, &e), md = clCreateBuffer (c, 0, pix * 4, NULL, &e), md2 = clCreateBuffer (c, 0, pix * 4, NULL, &e);
  cl_mem mc = clCreateBuffer (c, CL_MEM_COPY_HOST_PTR, sizeof w, w, &e);
  cl_kernel k = clCreateKernel (pr, "tsep", &e);
  if (e) { printf ("kernel %d\n", e); return 1; }
  clSetKernelArg (k, 0, sizeof ms, &ms); clSetKernelArg (k, 1, sizeof md, &md);
  clSetKernelArg (k, 2, 4, &W); clSetKernelArg (k, 3, 4, &H); clSetKernelArg (k, 4, 4, &W); clSetKernelArg (k, 5, sizeof mc, &mc);
  size_t lws[2] = { NW * 32, 1 }, gws[2] = { (W + TW - 1) / TW * NW * 32, (H + SH - 1) / SH };
  double *tk = malloc (reps * sizeof *tk), *tcp = malloc (reps * sizeof *tcp);
  for (int i = -3; i < reps; i++) {
    cl_event ev, ec;
    e = clEnqueueNDRangeKernel (qu, k, 2, NULL, gws, lws, 0, NULL, &ev);
    if (e) { printf ("launch %d\n", e); return 1; }
    clEnqueueCopyBuffer (qu, ms, md2, 0, 0, pix * 4, 0, NULL, &ec);
    double a = evt (ev), b = evt (ec);
    if (i >= 0) tk[i] = a, tcp[i] = b;
  }
  qsort (tk, reps, sizeof *tk, cmpd); qsort (tcp, reps, sizeof *tcp, cmpd);
  clEnqueueReadBuffer (qu, md, CL_TRUE, 0, pix * 4, out, 0, NULL, NULL);
  /* reference: vertical then horizontal in double, clamp border */
  double *v = malloc (pix * sizeof *v);
  int maxd = 0; long over = 0;
  for (int ch = 0; ch < 4; ch++) {
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) {
      double a = 0;
      for (int j = 0; j < K; j++) { int yy = y - K / 2 + j; yy = yy < 0 ? 0 : yy >= H ? H - 1 : yy; a += w[j] * ((in[(size_t) yy * W + x] >> (8 * ch)) & 255); }
      v[(size_t) y * W + x] = a;
    }
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) {
      int ref;
      if (ch < NCH) {
        double a = 0;
        for (int j = 0; j < K; j++) { int xx = x - K / 2 + j; xx = xx < 0 ? 0 : xx >= W ? W - 1 : xx; a += w[K + j] * v[(size_t) y * W + xx]; }
        ref = (int) floor (a + 0.5); ref = ref < 0 ? 0 : ref > 255 ? 255 : ref;
      } else ref = (in[(size_t) y * W + x] >> (8 * ch)) & 255;
      int got = (out[(size_t) y * W + x] >> (8 * ch)) & 255, dd = abs (got - ref);
      if (dd > maxd) maxd = dd;
      if (dd > 1) over++;
    }
  }
  printf ("%dx%d %s %d TW=%d SH=%d NW=%d NCH=%d: kernel %.2f us (min %.2f), copy %.2f us, x%.2f; maxdiff %d, over1 %ld\n",
      W, H, box ? "box" : "gauss", K, TW, SH, NW, NCH, tk[reps / 2], tk[0], tcp[reps / 2], tk[reps / 2] / tcp[reps / 2], maxd, over);
  return 0;
}
