/* LD_PRELOAD counter of the bytes a process moves with clEnqueueWriteBuffer and
 * clEnqueueReadBuffer, and of the calls (session 45, issue 46); writes $CNT_OUT.<pid> at exit
 * for processes that made any. gcc -shared -fPIC -O1 count-bytes.c -o count-bytes.so -ldl */
#define CL_TARGET_OPENCL_VERSION 300
#define _GNU_SOURCE
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned long long calls[2], bytes[2];

static void __attribute__((destructor))
dump (void)
{
  char fn[256];
  FILE *f;

  if (!calls[0] && !calls[1])
    return;
  snprintf (fn, sizeof fn, "%s.%d", getenv ("CNT_OUT") ? getenv ("CNT_OUT") : "/tmp/cnt",
      (int) getpid ());
  f = fopen (fn, "w");
  fprintf (f, "write %llu calls %llu bytes\nread %llu calls %llu bytes\n", calls[0], bytes[0],
      calls[1], bytes[1]);
  fclose (f);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBuffer (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s,
    const void *p, cl_uint n, const cl_event * w, cl_event * e)
{
  static cl_int (*real) (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,
      cl_uint, const cl_event *, cl_event *);

  if (!real)
    real = dlsym (RTLD_NEXT, "clEnqueueWriteBuffer");
  __atomic_add_fetch (&calls[0], 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&bytes[0], s, __ATOMIC_RELAXED);
  return real (q, m, b, o, s, p, n, w, e);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBuffer (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, void *p,
    cl_uint n, const cl_event * w, cl_event * e)
{
  static cl_int (*real) (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint,
      const cl_event *, cl_event *);

  if (!real)
    real = dlsym (RTLD_NEXT, "clEnqueueReadBuffer");
  __atomic_add_fetch (&calls[1], 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&bytes[1], s, __ATOMIC_RELAXED);
  return real (q, m, b, o, s, p, n, w, e);
}
