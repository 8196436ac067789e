#!/bin/bash
# test_no_pause_when_device_starts cold, with formats-yuv (cold) beside it; prints the worst gaps
cd /work/main
(python3 /tmp/pertest.py formats-yuv > /dev/null 2>&1 &)
python3 - <<'PY'
import json,os,subprocess,tempfile,time,re
for t in json.load(open('/work/main/build/meson-info/intro-tests.json')):
  if t['name']=='devices':
    env=dict(os.environ); env.update(t['env'])
    d=tempfile.mkdtemp(); env['POCL_CACHE_DIR']=d; env['GST_CHECKS']='test_no_pause_when_device_starts'; env['GST_PLUGIN_PATH_1_0']=os.environ['PLUG']; env['GST_REGISTRY_1_0']='/tmp/reg-'+os.path.basename(os.environ['PLUG'])+'.bin'; env['GST_DEBUG']='check:4'; env['GST_DEBUG_NO_COLOR']='1'
    t0=time.time()
    r=subprocess.run(t['cmd'],env=env,capture_output=True,text=True)
    g=[re.sub(r'.*check test_memory.c:\d+:\S+ ','',l) for l in r.stderr.splitlines() if 'worst gap' in l]
    print(r.returncode, round(time.time()-t0,1), [l[-150:] for l in r.stdout.splitlines() if ':F:' in l], g)
    subprocess.run(['rm','-rf',d])
PY
sleep 25
