/* Builds, launches once and releases N distinct programs on the first OpenCL device (PoCL); prints
 * glibc's heap in use and kept and RSS. gcc -O1 s28-pocl-loop.c -lOpenCL; ./a.out N BASE (issue 44)
 * ./a.out N BASE M: the options of M programs in turn, N builds (session 42: no program new) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char *src =
"__kernel void k(__global float *o, __global const float *i, int w) {\n"
"  int x = get_global_id(0), y = get_global_id(1); float s = 0;\n"
"  for (int d = -R; d <= R; d++) s += i[y * w + clamp(x + d, 0, w - 1)] * (d + C);\n"
"  o[y * w + x] = s; }\n";
static double rss(void){FILE*f=fopen("/proc/self/statm","r");long a,b;fscanf(f,"%ld %ld",&a,&b);fclose(f);return b*4096/1048576.0;}
static void report(const char*what,int n){struct mallinfo2 m=mallinfo2();printf("%-10s %4d programs: heap used %7.2f MB, free %6.2f MB, RSS %7.1f MB\n",what,n,(m.uordblks+m.hblkhd)/1048576.0,m.fordblks/1048576.0,rss());fflush(stdout);}
int main(int argc,char**argv){
  int n=atoi(argv[1]), base=atoi(argv[2]), m=argc>3?atoi(argv[3]):0; cl_platform_id p; cl_device_id d; cl_int e;
  clGetPlatformIDs(1,&p,NULL); clGetDeviceIDs(p,CL_DEVICE_TYPE_ALL,1,&d,NULL);
  cl_context c=clCreateContext(NULL,1,&d,NULL,NULL,&e); cl_command_queue q=clCreateCommandQueue(c,d,0,&e);
  int w=320,h=240; cl_mem bi=clCreateBuffer(c,0,w*h*4,NULL,&e), bo=clCreateBuffer(c,0,w*h*4,NULL,&e);
  for(int i=0;i<n;i++){
    int j=m>0?i%m:i; char opt[64]; snprintf(opt,sizeof opt,"-DR=%d -DC=%d",1+(j%7),base+j);
    cl_program pr=clCreateProgramWithSource(c,1,&src,NULL,&e);
    if(clBuildProgram(pr,1,&d,opt,NULL,NULL)!=CL_SUCCESS){printf("build failed\n");return 1;}
    cl_kernel k=clCreateKernel(pr,"k",&e);
    clSetKernelArg(k,0,sizeof bo,&bo);clSetKernelArg(k,1,sizeof bi,&bi);clSetKernelArg(k,2,sizeof w,&w);
    size_t g[2]={w,h}, l[2]={16,8}; clEnqueueNDRangeKernel(q,k,2,NULL,g,l,0,NULL,NULL); clFinish(q);
    clReleaseKernel(k); clReleaseProgram(pr);
    if(i==19||(i+1)%(m>0?500:50)==0){ report("untrimmed",i+1); }
  }
  malloc_trim(0); report("trimmed",n);
  return 0;
}
