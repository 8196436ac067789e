/* Micro-benchmark of issue 18, session 22 (docs/design.md): a 1080p RGBA frame through bare
 * OpenCL calls in bands, one frame at a time per thread, to see what the driver allows without
 * GStreamer or the element. Build: gcc -O2 queue-schemes.c -lOpenCL -lpthread. Run:
 * ./a.out SECONDS SPEC... with SPEC scheme,bands,flush,threads[,shift[,wait]]:
 * scheme 0 three queues (the element's), 1 upload+kernel on one queue, 2 kernel+download on
 * one queue, 3 three queues with fewer events, 4 one queue, 5 two sets of three queues (threads
 * alternate); flush 0 per band, 1 per upload band, 2 per frame; shift: kernel bands end this
 * many rows above the upload bands; wait 0 clWaitForEvents, 1 under a process-wide lock,
 * 2 polling with sched_yield, 3 one waiter thread for all. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <sched.h>

static const char *src =
"__kernel void k(int row0, __global const uchar4 *s, __global uchar4 *d, int w, int h){\n"
" int x=get_global_id(0), y=get_global_id(1)+row0; if(x>=w||y>=h) return;\n"
" uint4 a=0; for(int i=-3;i<=3;i++){int xx=clamp(x+i,0,w-1); a+=convert_uint4(s[y*w+xx]);}\n"
" d[y*w+x]=convert_uchar4(a/7u);}\n";

static cl_context ctx; static cl_device_id dev; static cl_program prog;
static cl_command_queue qu, qk, qd, qs[2][3]; static __thread int qset;
static int W=1920,H=1080; static size_t FR;
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define CK(x) do{cl_int e_=(x); if(e_){fprintf(stderr,"%s:%d err %d\n",__FILE__,__LINE__,e_);exit(1);}}while(0)

typedef struct { cl_mem hin,hout,din,dout; unsigned char *pin,*pout; cl_kernel k; } Str;

static void mk(Str *s){ cl_int e;
 s->hin=clCreateBuffer(ctx,CL_MEM_ALLOC_HOST_PTR,FR,NULL,&e);CK(e);
 s->hout=clCreateBuffer(ctx,CL_MEM_ALLOC_HOST_PTR,FR,NULL,&e);CK(e);
 s->pin=clEnqueueMapBuffer(qu,s->hin,CL_TRUE,CL_MAP_WRITE,0,FR,0,NULL,NULL,&e);CK(e);
 s->pout=clEnqueueMapBuffer(qu,s->hout,CL_TRUE,CL_MAP_READ,0,FR,0,NULL,NULL,&e);CK(e);
 memset(s->pin,1,FR);
 s->din=clCreateBuffer(ctx,CL_MEM_READ_WRITE,FR,NULL,&e);CK(e);
 s->dout=clCreateBuffer(ctx,CL_MEM_READ_WRITE,FR,NULL,&e);CK(e);
 s->k=clCreateKernel(prog,"k",&e);CK(e);
 clSetKernelArg(s->k,1,sizeof(cl_mem),&s->din);clSetKernelArg(s->k,2,sizeof(cl_mem),&s->dout);
 clSetKernelArg(s->k,3,sizeof(int),&W);clSetKernelArg(s->k,4,sizeof(int),&H);}

/* scheme: 0 = 3 queues, every command an event (current);
 *         1 = 2 queues: upload+kernel on qk, download on qd waits kernel event
 *         2 = 2 queues: upload on qu, kernel+download on qk (kernel waits upload ev)
 *         3 = 3 queues, but events only where needed (up ev, kernel ev, download no ev but last)
 *         4 = 1 queue (in order, no events)  */
static int scheme, nb, flushmode, shift;
static double tenq;
static int waitmode;
static pthread_mutex_t wl=PTHREAD_MUTEX_INITIALIZER; static pthread_cond_t wc=PTHREAD_COND_INITIALIZER;
typedef struct Wt_ { cl_event ev; int done; pthread_cond_t c; struct Wt_ *next; } Wt;
static Wt *wq_head,*wq_tail; static int waiter_on;
static void *waiter(void *a){ pthread_mutex_lock(&wl); for(;;){ while(!wq_head) pthread_cond_wait(&wc,&wl);
  Wt *w=wq_head; pthread_mutex_unlock(&wl); clWaitForEvents(1,&w->ev); pthread_mutex_lock(&wl);
  wq_head=w->next; if(!wq_head) wq_tail=NULL; w->done=1; pthread_cond_signal(&w->c);} return NULL;}
static void waitev(cl_event ev){
 if(waitmode==0){ CK(clWaitForEvents(1,&ev)); return; }
 if(waitmode==1){ pthread_mutex_lock(&wl); clWaitForEvents(1,&ev); pthread_mutex_unlock(&wl); return; }
 if(waitmode==2){ cl_int st; do { clGetEventInfo(ev,CL_EVENT_COMMAND_EXECUTION_STATUS,sizeof st,&st,NULL); if(st>CL_COMPLETE) sched_yield(); } while(st>CL_COMPLETE); return; }
 Wt w={ev,0,PTHREAD_COND_INITIALIZER,NULL};
 pthread_mutex_lock(&wl); if(!waiter_on){ pthread_t t; pthread_create(&t,NULL,waiter,NULL); waiter_on=1; }
 if(wq_tail) wq_tail->next=&w; else wq_head=&w; wq_tail=&w; pthread_cond_signal(&wc);
 while(!w.done) pthread_cond_wait(&w.c,&wl); pthread_mutex_unlock(&wl);
}
static void frame(Str *s){
 int rows=(H+nb-1)/nb; size_t row=W*4; cl_event up[64]={0},kv[64]={0},dn[64]={0};
 cl_command_queue U = scheme==1||scheme==4?qk:qu, K = qk, D = scheme==2||scheme==4?qk:qd;
 if(scheme==5){ U=qs[qset][0]; K=qs[qset][1]; D=qs[qset][2]; }
 double t0=now(); int nk=0;
 for(int b=0;b<nb;b++){ int y0=b*rows,n=rows; if(y0+n>H)n=H-y0;
  int wantup = (scheme==0||scheme==2||scheme==3);
  CK(clEnqueueWriteBuffer(U,s->din,CL_FALSE,y0*row,n*row,s->pin+y0*row,0,NULL,wantup||scheme==0?&up[b]:NULL));
  if(flushmode!=2) clFlush(U);
  /* kernel for band b-1 after band b is up (halo), last band at end */
  for(;nk<=b;nk++){ int ready = shift ? 1 : (nk<b)||(b==nb-1); if(!ready) break;
   int ky=nk*rows,kn=rows; if(ky+kn>H)kn=H-ky; int need = shift ? nk : nk+1<nb?nk+1:nk;
   if(shift){ int e_ = nk==nb-1 ? H : (nk+1)*rows-shift; ky = nk ? nk*rows-shift : 0; kn = e_-ky; }
   size_t g[2]={W,(size_t)kn}, l[2]={32,8}; g[1]=(kn+7)/8*8;
   clSetKernelArg(s->k,0,sizeof(int),&ky);
   int wk = scheme==0||scheme==2||scheme==3; /* kernel waits upload event across queue */
   int ek = scheme==0||scheme==1||scheme==3; /* kernel makes an event for download */
   CK(clEnqueueNDRangeKernel(K,s->k,2,NULL,g,l,wk?1:0,wk?&up[need]:NULL,ek?&kv[nk]:NULL));
   int wd = scheme==0||scheme==1||scheme==3;
   int ed = scheme==0 || nk==nb-1;
   CK(clEnqueueReadBuffer(D,s->dout,CL_FALSE,ky*row,kn*row,s->pout+ky*row,wd?1:0,wd?&kv[nk]:NULL,ed?&dn[nk]:NULL));
   if(flushmode==0){ if(K!=U) clFlush(K); if(D!=K) clFlush(D);} }
  if(flushmode==1){ if(K!=U) clFlush(K); if(D!=K) clFlush(D);} 
 }
 if(flushmode==2){clFlush(U); if(K!=U) clFlush(K); if(D!=K) clFlush(D);}
 tenq+=now()-t0;
 waitev(dn[nb-1]);
 for(int b=0;b<nb;b++){ if(up[b])clReleaseEvent(up[b]); if(kv[b])clReleaseEvent(kv[b]); if(dn[b])clReleaseEvent(dn[b]);}
}
static Str S[32]; static double dur; static int nthr; static long cnt[32];
static void *thr(void *a){ long i=(long)a; qset=i%2; double t0=now(); while(now()-t0<dur){frame(&S[i]);cnt[i]++;} return NULL;}
static void limit(void){ /* both-ways pinned transfer limit */
 Str *s=&S[0]; cl_event e1,e2; int n=50; double t0=now();
 for(int i=0;i<n;i++){ clEnqueueWriteBuffer(qu,s->din,CL_FALSE,0,FR,s->pin,0,NULL,NULL); clEnqueueReadBuffer(qd,s->dout,CL_FALSE,0,FR,s->pout,0,NULL,NULL);}
 clFinish(qu);clFinish(qd); printf("limit %.0f fps\n", n/(now()-t0)); fflush(stdout);
 t0=now(); for(int i=0;i<n;i++){ int k=i%2; clEnqueueWriteBuffer(qs[k][0],S[k].din,CL_FALSE,0,FR,S[k].pin,0,NULL,NULL); clEnqueueReadBuffer(qs[k][2],S[k].dout,CL_FALSE,0,FR,S[k].pout,0,NULL,NULL);}
 for(int k=0;k<2;k++){clFinish(qs[k][0]);clFinish(qs[k][2]);} printf("limit2q %.0f fps\n", n/(now()-t0)); fflush(stdout);}
int main(int argc,char**argv){ cl_platform_id pl[8]; cl_uint np; cl_int e;
 FR=(size_t)W*H*4; clGetPlatformIDs(8,pl,&np);
 int got=0; for(cl_uint i=0;i<np&&!got;i++) got=clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_GPU,1,&dev,NULL)==0; for(cl_uint i=0;i<np&&!got;i++) got=clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_ALL,1,&dev,NULL)==0;
 ctx=clCreateContext(NULL,1,&dev,NULL,NULL,&e);CK(e);
 prog=clCreateProgramWithSource(ctx,1,&src,NULL,&e);CK(e); CK(clBuildProgram(prog,1,&dev,"",NULL,NULL));
 qu=clCreateCommandQueue(ctx,dev,0,&e);qk=clCreateCommandQueue(ctx,dev,0,&e);qd=clCreateCommandQueue(ctx,dev,0,&e);
 for(int k=0;k<2;k++) for(int j=0;j<3;j++) qs[k][j]=clCreateCommandQueue(ctx,dev,0,&e);
 for(int i=0;i<16;i++) mk(&S[i]);
 dur=atof(argv[1]);
 limit();
 for(int a=2;a<argc;a++){ /* spec: scheme,bands,flush,threads */
  shift=0; waitmode=0; sscanf(argv[a],"%d,%d,%d,%d,%d,%d",&scheme,&nb,&flushmode,&nthr,&shift,&waitmode);
  pthread_t t[32]; memset(cnt,0,sizeof cnt); tenq=0; for(int i=0;i<nthr;i++) frame(&S[i]);
  memset(cnt,0,sizeof cnt); tenq=0; double t0=now();
  for(long i=0;i<nthr;i++) pthread_create(&t[i],NULL,thr,(void*)i);
  for(int i=0;i<nthr;i++) pthread_join(t[i],NULL);
  double T=now()-t0; long tot=0; for(int i=0;i<nthr;i++) tot+=cnt[i];
  printf("scheme %d bands %d flush %d threads %d shift %d wait %d: %.0f fps  enqueue %.1f us/frame\n",scheme,nb,flushmode,nthr,shift,waitmode,tot/T, tenq/tot*1e6); fflush(stdout);
 }
 limit(); return 0;}
