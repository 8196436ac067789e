#!/bin/bash
# session 29, device run A (2 GPUs): the host's ceiling for two GPUs (tr2), a stream started
# while another streams on the other device (bench --stagger) with and without the helper, cold
# and warm caches, all on one GPU as control; one process against two.
D=$PWD/devbench/s29/now
mkdir -p build/gst build/tools
cp $D/libgstclconvolve.so build/gst/; cp $D/clconvolve-warmup build/tools/
export GST_PLUGIN_PATH=$PWD/build/gst GST_REGISTRY=/tmp/reg.bin
unset GST_CLCONVOLVE_HELPER
B=$D/clconvolve-bench
T=$D/tr2; F=8294400
{ nvidia-smi -L; nvidia-smi topo -m; nvidia-smi -q | grep -iE "Bus Id|Link Gen|Link Width|Current  *: |Max  *: |NUMA"; lscpu; ls /sys/devices/system/node/; uname -r; ldd --version | head -1; } > $OUT/info.txt 2>&1
{ $T 2 $F 0; $T 2 $F 1; $T 2 $F 0 1; $T 2 $F 1; $T 2 $F 0 1;
  $T 2 $F 0 > /tmp/p0.txt & $T 2 $F 1 > /tmp/p1.txt; wait; echo two-processes; cat /tmp/p0.txt /tmp/p1.txt; } > $OUT/tr2.txt 2>&1
S="-r 1920x1080 -s 7 -k motionblur -m auto -t 1 --runs 2"
L=clconvolve-bench:4,clcontext:5,clworker:5,clconvolve:4,clbufferpool:4
run () { local label=$1; shift; GST_DEBUG=$L GST_DEBUG_FILE=$OUT/$label.log timeout 120 "$@" -l $label >> $OUT/stag.jsonl 2>> $OUT/stag.err; echo "$label rc=$?" >> $OUT/stag.err; }
XDG_CACHE_HOME=/tmp/c1 run cold $B $S --streams 2 --stagger 500
XDG_CACHE_HOME=/tmp/c1 run warm $B $S --streams 2 --stagger 500
XDG_CACHE_HOME=/tmp/c1 GST_CLCONVOLVE_HELPER= run warm-nohelper $B $S --streams 2 --stagger 500
XDG_CACHE_HOME=/tmp/c2 GST_CLCONVOLVE_HELPER= run cold-nohelper $B $S --streams 2 --stagger 500
XDG_CACHE_HOME=/tmp/c1 run warm-one $B $S --streams 2 --stagger 500 -d 0:0
XDG_CACHE_HOME=/tmp/c1 run warm4 $B $S --streams 4 --stagger 300
XDG_CACHE_HOME=/tmp/c3 run cold4 $B $S --streams 4 --stagger 300
# one process with a stream on each GPU against two processes with one each, 3 in flight
export XDG_CACHE_HOME=/tmp/c1
P="-r 1920x1080 -s 7 -k motionblur -m auto -t 1 --runs 5 --max-inflight 3"
timeout 100 $B $P --streams 1 -d 0:0 -l one-mi3 > $OUT/proc.jsonl 2>>$OUT/proc.err
timeout 100 $B $P --streams 2 -l two-mi3 >> $OUT/proc.jsonl 2>>$OUT/proc.err
timeout 100 $B $P --streams 2 -d 0:0 -l one2-mi3 >> $OUT/proc.jsonl 2>>$OUT/proc.err
timeout 100 $B $P --streams 1 -d 0:0 -l proc0-mi3 > /tmp/q0.jsonl 2>>$OUT/proc.err &
timeout 100 $B $P --streams 1 -d 0:1 -l proc1-mi3 > /tmp/q1.jsonl 2>>$OUT/proc.err; wait
cat /tmp/q0.jsonl /tmp/q1.jsonl >> $OUT/proc.jsonl
grep -h "fps" $OUT/stag.err $OUT/proc.err | tail -30; cat $OUT/tr2.txt
