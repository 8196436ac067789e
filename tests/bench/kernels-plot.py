#!/usr/bin/env python3
# The kernel variants' benchmark plot for docs/kernels.md: docs/img/kernels.png from the
# `run-bench --parts kernels` records in docs/bench/cpu-kernels/ and docs/bench/h200-kernels/.
# usage: tests/bench/kernels-plot.py   (needs matplotlib)
import glob
import json
import os

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def records(sub):
    """The records of every file under docs/bench/sub, files in the order of their first
    record's date, then of their names (so 'the last record' is from the newest run)."""
    files = []
    for path in glob.glob(os.path.join(ROOT, 'docs', 'bench', sub, '*.jsonl')):
        with open(path) as f:
            recs = [json.loads(line) for line in f if line.startswith('{')]
        files.append((recs[0].get('date', '') if recs else '', path, recs))
    return [r for _, _, recs in sorted(files) for r in recs]


def fps_of(recs, pred):
    """Median frames/s of the last record matching pred (None when there is none)."""
    hits = [r for r in recs if pred(r) and isinstance(r.get('fps'), dict)]
    return hits[-1]['fps']['median'] if hits else None


def cpu_panel(ax, recs):
    bars = []
    for size, kernel, methods, peers in (
            (7, 'motionblur', ['float4', 'vector', 'auto'], ['opencv-filter2D']),
            (15, 'gaussian', ['float4', 'vector', 'separable', 'auto'],
             ['opencv-GaussianBlur', 'cvsmooth'])):
        for m in methods:
            v = fps_of(recs, lambda r: r.get('kind') == 'element' and r.get('label') ==
                       'clconvolve' and r.get('method') == m and r.get('size') == size and
                       r.get('kernel') == kernel)
            bars.append(('%s\n%dx%d %s' % (m, size, size, kernel[:6]), v, 'tab:blue'))
        for p in peers:
            if p == 'cvsmooth':
                v = fps_of(recs, lambda r: r.get('label') == 'cvsmooth' and r.get('size') == size)
            else:
                v = fps_of(recs, lambda r: r.get('peer') == p and r.get('size') == size and
                           r.get('kernel') == kernel and r.get('peer_device') == 'cpu')
            bars.append(('%s\n%dx%d' % (p.replace('opencv-', 'OpenCV '), size, size), v,
                         'tab:gray'))
    bars = [b for b in bars if b[1]]
    ax.bar(range(len(bars)), [b[1] for b in bars], color=[b[2] for b in bars])
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([b[0] for b in bars], fontsize=7, rotation=45, ha='right')
    for i, b in enumerate(bars):
        ax.text(i, b[1], '%.0f' % b[1], ha='center', va='bottom', fontsize=7)
    peak = [r for r in recs if r.get('kind') == 'fma_peak']
    title = '2-core CPU, PoCL: 1080p RGBA frames/s (blue: clconvolve)'
    if peak:
        title = title.replace('2-core CPU', '%s, %s' % (peak[-1].get('device_label', 'CPU'),
                                                         peak[-1].get('date', '')))
        # useful multiply-adds of a dense 7x7 on 3 channels at the measured peak
        at_peak = peak[-1]['gfma_per_s'] * 1e9 / (1920 * 1080 * 3 * 49)
        title += '\nmeasured FMA peak %.0f G/s = %.0f frames/s of dense 7x7' % (
            peak[-1]['gfma_per_s'], at_peak)
    ax.set_title(title, fontsize=9)
    ax.set_ylabel('frames/s')


def gpu_panel(ax, recs):
    bars = []
    for m in ('float4', 'vector', 'tiled', 'auto'):
        hits = [r for r in recs if r.get('label') == 'clconvolve-whole-frame-' + m and
                r.get('kernel_ms')]
        if hits:
            bars.append((m, hits[-1]['kernel_ms'] * 1000, hits[-1].get('variant', '')))
    ax.bar(range(len(bars)), [b[1] for b in bars], color='tab:green')
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels(['%s:\n%s' % (b[0], b[2].replace(' ', '\n', 1)) for b in bars],
                       fontsize=7)
    for i, b in enumerate(bars):
        ax.text(i, b[1], '%.1f' % b[1], ha='center', va='bottom', fontsize=7)
    ax.axhline(30, color='tab:red', linestyle='--', linewidth=1)
    ax.text(-0.4, 32, 'target 30 us', color='tab:red', fontsize=7, ha='left')
    ax.set_title('NVIDIA H200: kernel alone, whole 1080p RGBA frame,\ndense 7x7 (us, profiled)',
                 fontsize=9)
    ax.set_ylabel('microseconds per frame')


def main():
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.8), gridspec_kw={'width_ratios': [2.2, 1]})
    cpu_panel(a, records('cpu-kernels'))
    gpu_panel(b, records('h200-kernels'))
    fig.tight_layout()
    out = os.path.join(ROOT, 'docs', 'img', 'kernels.png')
    fig.savefig(out, dpi=110)
    print('wrote', out)


if __name__ == '__main__':
    main()
