import json,statistics as st,sys
rows=[json.loads(l) for l in open(sys.argv[1])]
rows=[r for r in rows if r['kind']=='element']
d={}
for r in rows:
    lab=r['label']; b,kind=lab.split('-',1)
    key=(kind, f"{r['width']}x{r['height']}", r['size'])
    d.setdefault(key,{}).setdefault(b,[]).append((r['kernel_ms'], r['variant'], r['kernel_ms']/r['kernel_floor_ratio']))
for k in sorted(d):
    o=d[k]['old']; n=d[k]['new']
    om=st.median([x[0] for x in o]); nm=st.median([x[0] for x in n]); fl=st.median([x[2] for x in o+n])
    print(f"| {k[0][5:]} | {k[2]} | {k[1]} | {om*1000:.1f} | {nm*1000:.1f} | {om/nm:.2f} | {om/fl:.2f} -> {nm/fl:.2f} | {o[0][1]} -> {n[0][1]} |", [round(x[0]*1000,1) for x in o],[round(x[0]*1000,1) for x in n])
