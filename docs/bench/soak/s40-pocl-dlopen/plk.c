/* Does the OpenCL implementation unmap the code of released programs?  Builds N distinct
 * one-kernel programs, launches each kernel once (or not, with argv[2] = 0), releases the kernel
 * and the program, and every 100 programs prints RSS, the lines of /proc/self/maps and the
 * distinct mapped shared objects whose name does not start with "lib" (PoCL's kernel code).
 * Build: cc -O2 plk.c -o plk -lOpenCL.  Run: ./plk 600 1 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
sample (int i)
{
  char line[4096], seen[1024][256];
  int n_lines = 0, n_libs = 0;
  long rss_kb = 0;
  FILE *f = fopen ("/proc/self/maps", "r");

  while (f && fgets (line, sizeof line, f)) {
    char *path = strchr (line, '/'), *base, *nl;
    n_lines++;
    if (!path)
      continue;
    if ((nl = strchr (path, '\n')))
      *nl = 0;
    base = strrchr (path, '/') + 1;
    if (strlen (path) < 4 || strcmp (path + strlen (path) - 3, ".so") || !strncmp (base, "lib", 3))
      continue;
    int j;
    for (j = 0; j < n_libs && strcmp (seen[j], base); j++);
    if (j == n_libs && n_libs < 1024)
      snprintf (seen[n_libs++], 256, "%s", base);
  }
  if (f)
    fclose (f);
  f = fopen ("/proc/self/status", "r");
  while (f && fgets (line, sizeof line, f))
    if (!strncmp (line, "VmRSS:", 6))
      rss_kb = atol (line + 6);
  if (f)
    fclose (f);
  printf ("programs %4d  RSS %7.1f MB  maps %5d  kernel libs %4d\n", i, rss_kb / 1024.0,
      n_lines, n_libs);
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 600, launch = argc > 2 ? atoi (argv[2]) : 1;
  cl_platform_id plat;
  cl_device_id dev;
  cl_int err;

  clGetPlatformIDs (1, &plat, NULL);
  clGetDeviceIDs (plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
  cl_context ctx = clCreateContext (NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue (ctx, dev, 0, &err);
  cl_mem buf = clCreateBuffer (ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);

  for (int i = 0; i <= n; i++) {
    char src[256];
    const char *s = src;
    size_t global = 64;

    if (i % 100 == 0)
      sample (i);
    if (i == n)
      break;
    /* a distinct constant makes a distinct program, so no cache answers it */
    snprintf (src, sizeof src, "__kernel void k%d (__global float *a) "
        "{ a[get_global_id (0)] += %d.0f; }", i, i);
    cl_program p = clCreateProgramWithSource (ctx, 1, &s, NULL, &err);
    if (clBuildProgram (p, 1, &dev, "", NULL, NULL) != CL_SUCCESS)
      return 1;
    char name[32];
    snprintf (name, sizeof name, "k%d", i);
    cl_kernel k = clCreateKernel (p, name, &err);
    clSetKernelArg (k, 0, sizeof buf, &buf);
    if (launch) {
      clEnqueueNDRangeKernel (q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
      clFinish (q);
    }
    clReleaseKernel (k);
    clReleaseProgram (p);
  }
  clReleaseMemObject (buf);
  clReleaseCommandQueue (q);
  clReleaseContext (ctx);
  return 0;
}
