#!/usr/bin/env python3
"""Frames/s of each case over the rounds of ab.sh or ab2.sh (labels rN-build-case), the last
round's memory paths, and the median of the rounds after the cold one (r0)."""
import json, statistics, sys

by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    case = r['label'].split('-', 1)[1]
    by.setdefault(case, []).append(r)
for case in sorted(by):
    fps = [round(r['fps']['median']) for r in by[case]]
    warm = [round(r['fps']['median']) for r in by[case] if not r['label'].startswith('r0-')]
    print('%-28s %s  median after r0 %d  %s/%s' % (case, fps, statistics.median(warm or fps),
          by[case][-1].get('input_path'), by[case][-1].get('output_path')))
