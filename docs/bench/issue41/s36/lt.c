/* experiment harness (not kept): builds common.cl + lsep.cl with given options, runs one
 * RGBA frame, checks against a float reference, times with events */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static char *slurp (const char *p) { FILE *f = fopen (p, "rb"); if (!f) { perror (p); exit (1); }
  fseek (f, 0, SEEK_END); long n = ftell (f); rewind (f); char *b = malloc (n + 1);
  if (fread (b, 1, n, f) != (size_t) n) exit (1); b[n] = 0; fclose (f); return b; }
static int cmpf (const void *a, const void *b) { double x = *(double *) a, y = *(double *) b; return x < y ? -1 : x > y; }
static int bc (int v, int n, int border) {
  if (border == 0) return v < 0 ? 0 : v >= n ? n - 1 : v;
  if (border == 1) { if (n == 1) return 0; int p = 2 * n - 2; v %= p; if (v < 0) v += p; return v < n ? v : p - v; }
  if (border == 2) { v %= n; return v < 0 ? v + n : v; }
  return (v < 0 || v >= n) ? -1 : v; }
#define CK(e) do { cl_int _e = (e); if (_e) { fprintf (stderr, "%s:%d err %d\n", __FILE__, __LINE__, _e); exit (1); } } while (0)

int main (int argc, char **argv)
{
  const char *kdir = argv[1];
  int W = atoi (argv[2]), H = atoi (argv[3]), reps = atoi (argv[4]);
  char path[512];
  snprintf (path, sizeof path, "%s/common.cl", kdir); char *common = slurp (path);
  snprintf (path, sizeof path, "%s/%s", kdir, getenv ("LT_SRC") ? getenv ("LT_SRC") : "lsep.cl"); char *lsep = slurp (path);
  cl_platform_id plats[8]; cl_uint np; CK (clGetPlatformIDs (8, plats, &np));
  cl_device_id dev = 0;
  const char *want = getenv ("LT_DEV");   /* "gpu" or "cpu" */
  for (cl_uint i = 0; i < np && !dev; i++) {
    cl_device_id d; cl_uint nd;
    if (clGetDeviceIDs (plats[i], want && !strcmp (want, "cpu") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU, 1, &d, &nd) == 0 && nd) dev = d;
  }
  if (!dev) { fprintf (stderr, "no device\n"); return 1; }
  char dn[256]; clGetDeviceInfo (dev, CL_DEVICE_NAME, sizeof dn, dn, NULL); printf ("# device %s, %dx%d\n", dn, W, H);
  cl_int err; cl_context ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, &err); CK (err);
  cl_command_queue q = clCreateCommandQueue (ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err); CK (err);
  size_t pitch = (size_t) W * 4, n = pitch * H;
  unsigned char *in = malloc (n), *out = malloc (n);
  srand (7); for (size_t i = 0; i < n; i++) in[i] = rand () & 255;
  cl_mem bin = clCreateBuffer (ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n, in, &err); CK (err);
  cl_mem bout = clCreateBuffer (ctx, CL_MEM_READ_WRITE, n, NULL, &err); CK (err);
  /* floor: a device copy */
  double t[256];
  for (int i = 0; i < 20; i++) { cl_event e; CK (clEnqueueCopyBuffer (q, bin, bout, 0, 0, n, 0, NULL, &e)); clWaitForEvents (1, &e);
    cl_ulong a, b; clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_START, 8, &a, NULL); clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_END, 8, &b, NULL); t[i] = (b - a) / 1e3; clReleaseEvent (e); }
  qsort (t, 20, sizeof (double), cmpf); printf ("floor copy %.2f us\n", t[10]); fflush (stdout);
  char line[1024];
  /* stdin: name K border lx ly colsPerGroup rowsPerGroup options... */
  while (fgets (line, sizeof line, stdin)) {
    char name[64]; int K, border, lx, ly, gw, gh, off;
    if (line[0] == '#' || sscanf (line, "%63s %d %d %d %d %d %d %n", name, &K, &border, &lx, &ly, &gw, &gh, &off) < 7) continue;
    char *opts = line + off; opts[strcspn (opts, "\n")] = 0;
    char full[1200]; snprintf (full, sizeof full, "-DKSIZE=%d -DCHANNELS=4 -DDEPTH=8 -DSKIPMASK=0 -DBORDER=%d %s", K, border, opts);
    const char *srcs[2] = { common, lsep };
    cl_program prog = clCreateProgramWithSource (ctx, 2, srcs, NULL, &err); CK (err);
    if (clBuildProgram (prog, 1, &dev, full, NULL, NULL)) {
      char log[20000]; clGetProgramBuildInfo (prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
      printf ("%s K=%d BUILD FAILED %s\n%.3000s\n", name, K, full, log); clReleaseProgram (prog); continue; }
    if (getenv ("LT_VERBOSE")) {
      char log[20000]; log[0] = 0; clGetProgramBuildInfo (prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
      printf ("%s K=%d log: %s\n", name, K, log);
    }
    cl_kernel k = clCreateKernel (prog, getenv ("LT_ENTRY") ? getenv ("LT_ENTRY") : "convolve_lsep", &err); CK (err);
    /* gaussian coefficients, OpenCV's sigma */
    float g[64]; double sig = 0.3 * ((K - 1) * 0.5 - 1) + 0.8, s = 0; for (int i = 0; i < K; i++) { g[i] = exp (-(i - K / 2) * (i - K / 2) / (2 * sig * sig)); s += g[i]; }
    for (int i = 0; i < K; i++) g[i] = getenv ("LT_BOX") ? 1.0f / K : g[i] / s;
    float coef[200] = { 0 }; memcpy (coef, g, K * 4); memcpy (coef + K, g, K * 4);
    cl_mem bc_ = clCreateBuffer (ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof coef, coef, &err); CK (err);
    int zero = 0, rank = 1, pm = 8; float bias = 0;
    int a = 0;
    CK (clSetKernelArg (k, a++, 4, &zero)); CK (clSetKernelArg (k, a++, sizeof (cl_mem), &bin)); CK (clSetKernelArg (k, a++, 4, &zero));
    int ip = (int) pitch; CK (clSetKernelArg (k, a++, 4, &ip)); CK (clSetKernelArg (k, a++, sizeof (cl_mem), &bout)); CK (clSetKernelArg (k, a++, 4, &zero));
    CK (clSetKernelArg (k, a++, 4, &ip)); CK (clSetKernelArg (k, a++, 4, &W)); CK (clSetKernelArg (k, a++, 4, &H)); CK (clSetKernelArg (k, a++, 4, &W));
    CK (clSetKernelArg (k, a++, sizeof (cl_mem), &bc_)); CK (clSetKernelArg (k, a++, 4, &rank)); CK (clSetKernelArg (k, a++, 4, &bias));
    CK (clSetKernelArg (k, a++, 4, &pm)); CK (clSetKernelArg (k, a++, 4, &border));
    size_t local[2] = { lx, ly };
    size_t global[2] = { (size_t) ((W + gw - 1) / gw) * lx, (size_t) ((H + gh - 1) / gh) * ly };
    CK (clEnqueueFillBuffer (q, bout, &zero, 1, 0, n, 0, NULL, NULL));
    for (int i = 0; i < reps + 3; i++) {
      cl_event e; err = clEnqueueNDRangeKernel (q, k, 2, NULL, global, local, 0, NULL, &e);
      if (err) { printf ("%s launch err %d\n", name, err); break; }
      clWaitForEvents (1, &e);
      cl_ulong t0, t1; clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_START, 8, &t0, NULL); clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_END, 8, &t1, NULL);
      if (i >= 3) t[i - 3] = (t1 - t0) / 1e3; clReleaseEvent (e);
    }
    if (err) { clReleaseKernel (k); clReleaseProgram (prog); clReleaseMemObject (bc_); continue; }
    qsort (t, reps, sizeof (double), cmpf);
    CK (clEnqueueReadBuffer (q, bout, CL_TRUE, 0, n, out, 0, NULL, NULL));
    if (getenv ("LT_NOCHECK")) { printf ("%-24s K=%2d b=%d %7.2f us (min %.2f) unchecked  [%s]\n", name, K, border, t[reps / 2], t[0], opts);
      fflush (stdout); clReleaseKernel (k); clReleaseProgram (prog); clReleaseMemObject (bc_); continue; }
    /* reference: vertical then horizontal in double (separable: the same as the 2-D sum) */
    static double *tmp; tmp = realloc (tmp, sizeof (double) * W * H * 3);
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) for (int c = 0; c < 3; c++) {
      double acc = 0; for (int j = 0; j < K; j++) { int yy = bc (y - K / 2 + j, H, border); if (yy >= 0) acc += g[j] * in[yy * pitch + x * 4 + c]; }
      tmp[((size_t) y * W + x) * 3 + c] = acc; }
    int maxd = 0; long bad = 0;
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) for (int c = 0; c < 4; c++) {
      double acc = 0;
      if (c == 3) acc = in[y * pitch + x * 4 + 3];
      else for (int i = 0; i < K; i++) { int xx = bc (x - K / 2 + i, W, border); if (xx >= 0) acc += g[i] * tmp[((size_t) y * W + xx) * 3 + c]; }
      int r = (int) floor (acc + 0.5); r = r < 0 ? 0 : r > 255 ? 255 : r;
      int d = abs (r - out[y * pitch + x * 4 + c]); if (d > maxd) maxd = d; if (d > 1) bad++;
    }
    printf ("%-24s K=%2d b=%d %7.2f us (min %.2f) maxdiff %d bad %ld  [%s]\n", name, K, border, t[reps / 2], t[0], maxd, bad, opts);
    fflush (stdout);
    clReleaseKernel (k); clReleaseProgram (prog); clReleaseMemObject (bc_);
  }
  return 0;
}
