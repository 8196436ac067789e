#!/usr/bin/env python3
"""Each label's frames/s over the rounds of an A/B run (ab.sh, ab2.sh) and their median."""
import json, statistics, sys

by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    by.setdefault(r['label'], []).append(r['fps']['median'])
for k in sorted(by):
    print('%-26s %s  median %.1f' % (k, ' '.join('%.1f' % f for f in by[k]),
                                     statistics.median(by[k])))
