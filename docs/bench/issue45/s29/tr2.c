/* tr2: pinned upload and download, both at once, on one or several GPUs at once (threads of one
 * process): the host's ceiling for frames moved through several GPUs.
 * usage: tr2 SECONDS BYTES DEV [DEV...]   (DEV: index among the GPU devices of all platforms) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEPTH 3
static double secs; static size_t bytes;
static cl_device_id gpus[16]; static int ngpus;
static pthread_barrier_t bar;

static double now (void) { struct timespec t; clock_gettime (CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

typedef struct { int dev; double up_gbs, down_gbs; } Job;

static void *run (void *p)
{
  Job *j = p; cl_int e;
  cl_device_id d = gpus[j->dev];
  cl_context c = clCreateContext (NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue qu = clCreateCommandQueue (c, d, 0, &e), qd = clCreateCommandQueue (c, d, 0, &e);
  cl_mem hin[DEPTH], hout[DEPTH], dev[2 * DEPTH]; void *pin[DEPTH], *pout[DEPTH];
  for (int i = 0; i < DEPTH; i++) {
    hin[i] = clCreateBuffer (c, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e);
    hout[i] = clCreateBuffer (c, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e);
    pin[i] = clEnqueueMapBuffer (qu, hin[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &e);
    pout[i] = clEnqueueMapBuffer (qu, hout[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &e);
    memset (pin[i], i, bytes); memset (pout[i], i, bytes);
  }
  for (int i = 0; i < 2 * DEPTH; i++) dev[i] = clCreateBuffer (c, CL_MEM_READ_WRITE, bytes, NULL, &e);
  /* warm */
  for (int i = 0; i < DEPTH; i++) {
    clEnqueueWriteBuffer (qu, dev[i], CL_FALSE, 0, bytes, pin[i], 0, NULL, NULL);
    clEnqueueReadBuffer (qd, dev[DEPTH + i], CL_FALSE, 0, bytes, pout[i], 0, NULL, NULL);
  }
  clFinish (qu); clFinish (qd);
  pthread_barrier_wait (&bar);
  cl_event eu[DEPTH] = {0}, ed[DEPTH] = {0};
  long nu = 0, nd = 0; double t0 = now (), t;
  while ((t = now ()) - t0 < secs) {
    int k = nu % DEPTH;
    if (eu[k]) { clWaitForEvents (1, &eu[k]); clReleaseEvent (eu[k]); }
    clEnqueueWriteBuffer (qu, dev[k], CL_FALSE, 0, bytes, pin[k], 0, NULL, &eu[k]); nu++;
    clFlush (qu);
    if (ed[k]) { clWaitForEvents (1, &ed[k]); clReleaseEvent (ed[k]); }
    clEnqueueReadBuffer (qd, dev[DEPTH + k], CL_FALSE, 0, bytes, pout[k], 0, NULL, &ed[k]); nd++;
    clFlush (qd);
  }
  clFinish (qu); clFinish (qd); t = now () - t0;
  j->up_gbs = nu * (double) bytes / t / 1e9; j->down_gbs = nd * (double) bytes / t / 1e9;
  return NULL;
}

int main (int argc, char **argv)
{
  if (argc < 4) { fprintf (stderr, "usage: tr2 SECONDS BYTES DEV...\n"); return 2; }
  secs = atof (argv[1]); bytes = strtoul (argv[2], NULL, 10);
  cl_platform_id pl[8]; cl_uint np = 0; clGetPlatformIDs (8, pl, &np);
  for (cl_uint p = 0; p < np; p++) {
    cl_uint n = 0; clGetDeviceIDs (pl[p], CL_DEVICE_TYPE_GPU, 16 - ngpus, gpus + ngpus, &n);
    ngpus += n;
  }
  int nj = argc - 3; Job jobs[16]; pthread_t th[16];
  pthread_barrier_init (&bar, NULL, nj);
  for (int i = 0; i < nj; i++) { jobs[i].dev = atoi (argv[3 + i]); if (jobs[i].dev >= ngpus) { fprintf (stderr, "no gpu %d\n", jobs[i].dev); return 1; } }
  for (int i = 0; i < nj; i++) pthread_create (&th[i], NULL, run, &jobs[i]);
  double fsum = 0;
  for (int i = 0; i < nj; i++) {
    pthread_join (th[i], NULL);
    double f = (jobs[i].up_gbs < jobs[i].down_gbs ? jobs[i].up_gbs : jobs[i].down_gbs) * 1e9 / bytes;
    fsum += f;
    printf ("{\"gpu\":%d,\"of\":%d,\"up_gbs\":%.2f,\"down_gbs\":%.2f,\"frames_s\":%.0f}\n", jobs[i].dev, nj, jobs[i].up_gbs, jobs[i].down_gbs, f);
  }
  printf ("{\"gpus\":%d,\"total_frames_s\":%.0f}\n", nj, fsum);
  return 0;
}
