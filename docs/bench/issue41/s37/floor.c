/* Issue 41, session 37: what a kernel's memory access width costs on a GPU. Times, with
 * profiling events, a device copy of one RGBA frame (clEnqueueCopyBuffer, the benchmark's
 * floor) against copy kernels of 4 and 16 bytes a work-item and a 3x3 box read straight from
 * global memory, 1 or 4 pixels a work-item. Not kept as a variant: a measurement.
 * Build: gcc -O2 -o floor floor.c -lOpenCL; run: ./floor W H [random] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static const char *src =
    "__kernel void copy4 (__global const uchar4 *s, __global uchar4 *d, int w, int h)\n"
    "{ int x = get_global_id (0), y = get_global_id (1);\n"
    "  if (x < w && y < h) d[y * w + x] = s[y * w + x]; }\n"
    "__kernel void copy16 (__global const uint4 *s, __global uint4 *d, int w, int h)\n"
    "{ int x = get_global_id (0), y = get_global_id (1);\n"
    "  if (x < w / 4 && y < h) d[y * (w / 4) + x] = s[y * (w / 4) + x]; }\n"
    "__kernel void box1 (__global const uchar4 *s, __global uchar4 *d, int w, int h)\n"
    "{ int x = get_global_id (0), y = get_global_id (1);\n"
    "  if (x >= w || y >= h) return;\n"
    "  float4 a = 0.0f;\n"
    "  for (int j = -1; j <= 1; j++) for (int i = -1; i <= 1; i++)\n"
    "    a += convert_float4 (s[clamp (y + j, 0, h - 1) * w + clamp (x + i, 0, w - 1)]);\n"
    "  d[y * w + x] = convert_uchar4_sat_rte (a * (1.0f / 9.0f)); }\n"
    "__kernel void box4 (__global const uchar4 *s, __global uchar4 *d, int w, int h)\n"
    "{ int x = get_global_id (0) * 4, y = get_global_id (1);\n"
    "  if (x >= w || y >= h) return;\n"
    "  float4 a[4] = {0.0f, 0.0f, 0.0f, 0.0f};\n"
    "  for (int j = -1; j <= 1; j++) {\n"
    "    __global const uchar4 *r = s + clamp (y + j, 0, h - 1) * w;\n"
    "    float4 v[6];\n"
    "    v[0] = convert_float4 (r[max (x - 1, 0)]);\n"
    "    uint4 m = vload4 (0, (__global const uint *) (r + x));\n"
    "    v[1] = convert_float4 (as_uchar4 (m.x)); v[2] = convert_float4 (as_uchar4 (m.y));\n"
    "    v[3] = convert_float4 (as_uchar4 (m.z)); v[4] = convert_float4 (as_uchar4 (m.w));\n"
    "    v[5] = convert_float4 (r[min (x + 4, w - 1)]);\n"
    "    for (int k = 0; k < 4; k++) a[k] += v[k] + v[k + 1] + v[k + 2];\n"
    "  }\n"
    "  uint4 o;\n"
    "  o.x = as_uint (convert_uchar4_sat_rte (a[0] * (1.0f / 9.0f)));\n"
    "  o.y = as_uint (convert_uchar4_sat_rte (a[1] * (1.0f / 9.0f)));\n"
    "  o.z = as_uint (convert_uchar4_sat_rte (a[2] * (1.0f / 9.0f)));\n"
    "  o.w = as_uint (convert_uchar4_sat_rte (a[3] * (1.0f / 9.0f)));\n"
    "  vstore4 (o, 0, (__global uint *) (d + y * w + x)); }\n"
    /* box4 with the 9 coefficients from constant memory as multiply-adds (box4f), and with
     * the element's rounding: round half away from zero, clamp, alpha copied (box4r) */
    "#define BODY(OUT) \\\n"
    "{ int x = get_global_id (0) * 4, y = get_global_id (1);\\\n"
    "  if (x >= w || y >= h) return;\\\n"
    "  float4 a[4] = {0.0f, 0.0f, 0.0f, 0.0f}, c4[4];\\\n"
    "  for (int j = -1; j <= 1; j++) {\\\n"
    "    __global const uchar4 *r = s + clamp (y + j, 0, h - 1) * w;\\\n"
    "    float4 v[6];\\\n"
    "    v[0] = convert_float4 (r[max (x - 1, 0)]);\\\n"
    "    uint4 m = vload4 (0, (__global const uint *) (r + x));\\\n"
    "    v[1] = convert_float4 (as_uchar4 (m.x)); v[2] = convert_float4 (as_uchar4 (m.y));\\\n"
    "    v[3] = convert_float4 (as_uchar4 (m.z)); v[4] = convert_float4 (as_uchar4 (m.w));\\\n"
    "    v[5] = convert_float4 (r[min (x + 4, w - 1)]);\\\n"
    "    if (j == 0) for (int k = 0; k < 4; k++) c4[k] = v[k + 1];\\\n"
    "    for (int k = 0; k < 4; k++)\\\n"
    "      for (int i = 0; i < 3; i++) a[k] += coef[(j + 1) * 3 + i] * v[k + i];\\\n"
    "  }\\\n"
    "  uint4 o;\\\n"
    "  o.x = OUT (a[0], c4[0]); o.y = OUT (a[1], c4[1]); o.z = OUT (a[2], c4[2]); o.w = OUT (a[3], c4[3]);\\\n"
    "  vstore4 (o, 0, (__global uint *) (d + y * w + x)); }\n"
    "#define OUT_F(a, c) as_uint (convert_uchar4_sat_rte (a))\n"
    "#define OUT_R(a, c) as_uint (convert_uchar4_sat (select (clamp (round (a + bias), 0.0f, 255.0f), c, (int4) (0, 0, 0, -1))))\n"
    "__kernel void box4f (__global const uchar4 *s, __global uchar4 *d, int w, int h, __constant float *coef, float bias) BODY (OUT_F)\n"
    "__kernel void box4r (__global const uchar4 *s, __global uchar4 *d, int w, int h, __constant float *coef, float bias) BODY (OUT_R)\n";

#define CK(e) do { cl_int _e = (e); if (_e) { fprintf (stderr, "line %d: %d\n", __LINE__, _e); exit (1); } } while (0)

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
event_us (cl_event e)
{
  cl_ulong a, b;

  clWaitForEvents (1, &e);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_START, 8, &a, NULL);
  clGetEventProfilingInfo (e, CL_PROFILING_COMMAND_END, 8, &b, NULL);
  clReleaseEvent (e);
  return (b - a) / 1e3;
}

int
main (int argc, char **argv)
{
  int w = atoi (argv[1]), h = atoi (argv[2]), n = 41;
  size_t bytes = (size_t) w * h * 4;
  cl_platform_id p[8];
  cl_uint np;
  cl_device_id dev = 0;
  cl_int err;
  double t[64];

  CK (clGetPlatformIDs (8, p, &np));
  for (cl_uint i = 0; i < np && !dev; i++)
    if (clGetDeviceIDs (p[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL))
      dev = 0;
  if (!dev)
    return 1;
  cl_context ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue (ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  cl_mem a = clCreateBuffer (ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_mem b = clCreateBuffer (ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  cl_program prog = clCreateProgramWithSource (ctx, 1, &src, NULL, &err);
  CK (clBuildProgram (prog, 1, &dev, "", NULL, NULL));
  /* argv[3] "random": random samples (else all 7) */
  if (argc > 3) {
    unsigned char *r = malloc (bytes);

    srand (7);
    for (size_t i = 0; i < bytes; i++)
      r[i] = rand () & 255;
    CK (clEnqueueWriteBuffer (q, a, CL_TRUE, 0, bytes, r, 0, NULL, NULL));
    free (r);
  } else {
    unsigned char pat = 7;

    CK (clEnqueueFillBuffer (q, a, &pat, 1, 0, bytes, 0, NULL, NULL));
  }

  for (int i = 0; i < n; i++) {
    cl_event e;
    CK (clEnqueueCopyBuffer (q, a, b, 0, 0, bytes, 0, NULL, &e));
    t[i] = event_us (e);
  }
  qsort (t, n, sizeof *t, cmp);
  printf ("%dx%d clEnqueueCopyBuffer %.2f us\n", w, h, t[n / 2]);

  const char *names[] = { "copy4", "copy16", "box1", "box4", "box4f", "box4r" };
  int per[] = { 1, 4, 1, 4, 4, 4 };
  float nine[9] = { 1 / 9.0f, 1 / 9.0f, 1 / 9.0f, 1 / 9.0f, 1 / 9.0f, 1 / 9.0f, 1 / 9.0f,
    1 / 9.0f, 1 / 9.0f }, bias = 0.0f;
  cl_mem cm = clCreateBuffer (ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof nine, nine,
      &err);

  for (int k = 0; k < 6; k++) {
    cl_kernel kern = clCreateKernel (prog, names[k], &err);
    size_t lws[2] = { 64, 4 }, gws[2];
    gws[0] = ((w / per[k]) + 63) / 64 * 64;
    gws[1] = (h + 3) / 4 * 4;
    clSetKernelArg (kern, 0, sizeof a, &a);
    clSetKernelArg (kern, 1, sizeof b, &b);
    clSetKernelArg (kern, 2, sizeof w, &w);
    clSetKernelArg (kern, 3, sizeof h, &h);
    if (k >= 4) {
      clSetKernelArg (kern, 4, sizeof cm, &cm);
      clSetKernelArg (kern, 5, sizeof bias, &bias);
    }
    for (int i = 0; i < n; i++) {
      cl_event e;
      CK (clEnqueueNDRangeKernel (q, kern, 2, NULL, gws, lws, 0, NULL, &e));
      t[i] = event_us (e);
    }
    qsort (t, n, sizeof *t, cmp);
    printf ("%dx%d %-7s %.2f us\n", w, h, names[k], t[n / 2]);
    clReleaseKernel (kern);
  }
  return 0;
}
