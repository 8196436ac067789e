/* feasibility: inline PTX mma.sync m16n8k16 f16->f32 from an OpenCL kernel */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
static const char *src =
"uint pk (float lo, float hi) { uint d; asm (\"cvt.rn.f16x2.f32 %0, %1, %2;\" : \"=r\"(d) : \"f\"(hi), \"f\"(lo)); return d; }\n"
"__kernel void t (__global const float *A, __global const float *B, __global float *D)\n"
"{ int l = get_local_id (0), g = l >> 2, q = l & 3;\n"
"  uint a0 = pk (A[g*16 + q*2], A[g*16 + q*2 + 1]);\n"
"  uint a1 = pk (A[(g+8)*16 + q*2], A[(g+8)*16 + q*2 + 1]);\n"
"  uint a2 = pk (A[g*16 + q*2 + 8], A[g*16 + q*2 + 9]);\n"
"  uint a3 = pk (A[(g+8)*16 + q*2 + 8], A[(g+8)*16 + q*2 + 9]);\n"
"  uint b0 = pk (B[(q*2)*8 + g], B[(q*2+1)*8 + g]);\n"
"  uint b1 = pk (B[(q*2+8)*8 + g], B[(q*2+9)*8 + g]);\n"
"  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;\n"
"  asm volatile (\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\"\n"
"     : \"+f\"(c0), \"+f\"(c1), \"+f\"(c2), \"+f\"(c3) : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1));\n"
"  D[g*8 + q*2] = c0; D[g*8 + q*2 + 1] = c1; D[(g+8)*8 + q*2] = c2; D[(g+8)*8 + q*2 + 1] = c3; }\n";
int main (void)
{
  cl_platform_id p[8]; cl_uint np; clGetPlatformIDs (8, p, &np);
  cl_device_id d = 0;
  for (cl_uint i = 0; i < np && !d; i++) if (clGetDeviceIDs (p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) d = 0;
  if (!d) { printf ("no gpu\n"); return 1; }
  char name[256]; clGetDeviceInfo (d, CL_DEVICE_NAME, 256, name, NULL); printf ("%s\n", name);
  cl_ulong lm; clGetDeviceInfo (d, CL_DEVICE_LOCAL_MEM_SIZE, 8, &lm, NULL); printf ("local mem %lu\n", (unsigned long) lm);
  cl_int e; cl_context c = clCreateContext (NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue qu = clCreateCommandQueue (c, d, 0, &e);
  cl_program pr = clCreateProgramWithSource (c, 1, &src, NULL, &e);
  e = clBuildProgram (pr, 1, &d, "", NULL, NULL);
  char log[20000]; clGetProgramBuildInfo (pr, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); printf ("build %d: %s\n", e, log);
  if (e) return 1;
  float A[256], B[128], D[128];
  for (int i = 0; i < 256; i++) A[i] = (i * 7) % 13;
  for (int i = 0; i < 128; i++) B[i] = (i * 5) % 11 - 5;
  cl_mem ma = clCreateBuffer (c, CL_MEM_COPY_HOST_PTR, sizeof A, A, &e), mb = clCreateBuffer (c, CL_MEM_COPY_HOST_PTR, sizeof B, B, &e), md = clCreateBuffer (c, 0, sizeof D, NULL, &e);
  cl_kernel k = clCreateKernel (pr, "t", &e);
  clSetKernelArg (k, 0, sizeof ma, &ma); clSetKernelArg (k, 1, sizeof mb, &mb); clSetKernelArg (k, 2, sizeof md, &md);
  size_t gs = 32; e = clEnqueueNDRangeKernel (qu, k, 1, NULL, &gs, &gs, 0, NULL, NULL); printf ("launch %d\n", e);
  clEnqueueReadBuffer (qu, md, CL_TRUE, 0, sizeof D, D, 0, NULL, NULL);
  int bad = 0;
  for (int m = 0; m < 16; m++) for (int n = 0; n < 8; n++) { float s = 0; for (int kk = 0; kk < 16; kk++) s += A[m*16+kk] * B[kk*8+n]; if (fabsf (s - D[m*8+n]) > 1e-3) bad++; }
  printf ("bad %d (D[0]=%g)\n", bad, D[0]);
  return 0;
}
