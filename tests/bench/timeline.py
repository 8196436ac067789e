#!/usr/bin/env python3
"""Gantt chart of clconvolve's device commands, from its TRACE log.

With profiling=true, the element logs every upload, kernel and download it ran (on a GPU, one
per band) at TRACE level in the category clconvolve:

    timeline frame=3 stage=upload band=2 start=1795247269346346016 end=1795247269346368512

(start and end: OpenCL profiling times in ns on the device clock). This script picks --frames
consecutive frames after the first --skip (warm-up) ones and draws one row per queue (upload,
kernel, download), one bar per command coloured by band, time in microseconds from the first
start, each frame shaded and labelled. Idle time between frames longer than --max-gap
microseconds (host time between the frames' device work) is cut out of the axis and its length
written on the cut. A short summary of the frames drawn is printed.

Example (H200, 1080p RGBA, 7x7 motionblur):

    GST_DEBUG=clconvolve:TRACE GST_DEBUG_NO_COLOR=1 GST_DEBUG_FILE=tl.log \\
      gst-launch-1.0 videotestsrc num-buffers=12 \\
      ! video/x-raw,format=RGBA,width=1920,height=1080 \\
      ! clconvolve device=gpu kernel=motionblur size=7 profiling=true ! video/x-raw ! fakesink
    tests/bench/timeline.py tl.log --title "..." --out docs/img/timeline-h200-1080p.png
"""
import argparse
import collections
import re
import sys

STAGES = ('upload', 'kernel', 'download')
LINE = re.compile(r'(?:<(?P<element>[^>]+)>.*?)?timeline frame=(?P<frame>\d+) '
                  r'stage=(?P<stage>\w+) band=(?P<band>\d+) start=(?P<start>\d+) '
                  r'end=(?P<end>\d+)')
ANSI = re.compile(r'\x1b\[[0-9;]*m')

Command = collections.namedtuple('Command', 'frame stage band start end')


def parse(lines, element):
    """Commands of one element, in log order, grouped by frame (first run only)."""
    frames = collections.OrderedDict()
    elements = []
    last = None
    restarted = False
    for line in lines:
        m = LINE.search(ANSI.sub('', line))
        if not m:
            continue
        name = m.group('element') or ''
        if name not in elements:
            elements.append(name)
        if (element if element is not None else elements[0]) != name:
            continue
        frame = int(m.group('frame'))
        if last is not None and frame < last:
            restarted = True    # stats start again from frame 0 when the element restarts
            break
        last = frame
        frames.setdefault(frame, []).append(Command(frame, m.group('stage'), int(m.group('band')),
                                                    int(m.group('start')), int(m.group('end'))))
    if len(elements) > 1 and element is None:
        print('timeline: several elements in the log (%s); drawing %s (see --element)'
              % (', '.join(elements), elements[0] or 'the unnamed one'), file=sys.stderr)
    if restarted:
        print('timeline: the frame count restarts (the element was restarted); using the first '
              'run only', file=sys.stderr)
    return frames


def union(intervals):
    out = []
    for a, b in sorted(intervals):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def length(intervals):
    return sum(b - a for a, b in intervals)


def intersect(xs, ys):
    return sum(max(0, min(b, d) - max(a, c)) for a, b in xs for c, d in ys)


def summary(frames):
    """Per frame: span, device time per stage, and how much of it ran at once (microseconds)."""
    for f, cmds in frames:
        per = {s: union([(c.start, c.end) for c in cmds if c.stage == s]) for s in STAGES}
        span = max(c.end for c in cmds) - min(c.start for c in cmds)
        busy = length(union([(c.start, c.end) for c in cmds]))
        stages = ', '.join('%s %.1f' % (s, sum(c.end - c.start for c in cmds if c.stage == s) / 1e3)
                           for s in STAGES)
        pairs = ', '.join('%s+%s %.1f' % (a, b, intersect(per[a], per[b]) / 1e3)
                          for a, b in (('upload', 'kernel'), ('kernel', 'download'),
                                       ('upload', 'download')))
        print('frame %d (us): span %.1f, busy %.1f; %s; at once: %s'
              % (f, span / 1e3, busy / 1e3, stages, pairs))


def segments(frames, max_gap_ns):
    """Runs of frames separated by at most max_gap_ns of idle time: [(t0, t1, [frame, ...])]."""
    out = []
    for f, cmds in frames:
        t0 = min(c.start for c in cmds)
        t1 = max(c.end for c in cmds)
        if out and t0 - out[-1][1] <= max_gap_ns:
            out[-1][1] = max(out[-1][1], t1)
            out[-1][2].append(f)
        else:
            out.append([t0, t1, [f]])
    return out


def band_colours(n):
    import matplotlib
    cmap = matplotlib.colormaps['tab10' if n <= 10 else 'tab20' if n <= 20 else 'viridis']
    if n <= 20:
        return [cmap(i) for i in range(n)]
    return [cmap(i / (n - 1)) for i in range(n)]


def draw(frames, title, out, max_gap_us):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    cmds = [c for _, cs in frames for c in cs]
    stages = [s for s in STAGES if any(c.stage == s for c in cmds)]
    stages += sorted({c.stage for c in cmds} - set(stages))
    nbands = max(c.band for c in cmds) + 1
    colours = band_colours(nbands)
    origin = min(c.start for c in cmds)
    us = lambda t: (t - origin) / 1e3  # noqa: E731
    segs = segments(frames, max_gap_us * 1e3)
    bounds = {f: (min(c.start for c in cs), max(c.end for c in cs)) for f, cs in frames}
    order = {f: i for i, (f, _) in enumerate(frames)}
    total = sum(t1 - t0 for t0, t1, _ in segs) / 1e3
    pad = 0.03 * total

    fig, axes = plt.subplots(1, len(segs), sharey=True, squeeze=False,
                             figsize=(11, 1.5 + 0.5 * len(stages)),
                             gridspec_kw={'width_ratios': [(t1 - t0) / 1e3 + 2 * pad
                                                           for t0, t1, _ in segs],
                                          'wspace': 0.04})
    axes = axes[0]
    height = 0.7
    for ax, (t0, t1, fs) in zip(axes, segs):
        for f in fs:
            a, b = bounds[f]
            ax.axvspan(us(a), us(b), color='0.86' if order[f] % 2 else '0.92', zorder=0)
            ax.axvline(us(a), color='0.4', lw=0.8, ls='--', zorder=1)
            ax.text((us(a) + us(b)) / 2, len(stages) - 0.35, 'frame %d' % f, ha='center',
                    va='bottom', fontsize=8, color='0.25')
        for c in cmds:
            if c.frame not in fs:
                continue
            y = len(stages) - 1 - stages.index(c.stage)
            ax.broken_barh([(us(c.start), (c.end - c.start) / 1e3)], (y - height / 2, height),
                           facecolors=colours[c.band], edgecolors='white', linewidth=0.4,
                           zorder=2)
            if (c.end - c.start) / 1e3 > 0.015 * total and nbands > 1:
                ax.text(us(c.start) + (c.end - c.start) / 2e3, y, str(c.band), ha='center',
                        va='center', fontsize=6.5, color='white', zorder=3)
        ax.set_xlim(us(t0) - pad, us(t1) + pad)
        ax.set_ylim(-0.6, len(stages) + 0.1)
        ax.grid(axis='x', color='0.75', lw=0.4)
        ax.set_axisbelow(True)
        ax.tick_params(labelsize=8)
    # the cuts: idle time between segments
    for k in range(len(segs) - 1):
        left, right = axes[k], axes[k + 1]
        left.spines['right'].set_visible(False)
        right.spines['left'].set_visible(False)
        right.tick_params(axis='y', left=False)
        kw = dict(color='0.2', clip_on=False, lw=0.9)
        for ax, x in ((left, 1), (right, 0)):
            for y in (0, 1):
                ax.plot([x - 0.006, x + 0.006], [y - 0.03, y + 0.03],
                        transform=ax.transAxes, **kw)
        idle = (segs[k + 1][0] - segs[k][1]) / 1e3
        right.text(0, -0.6 + 0.02, ' %.0f µs idle ' % idle, transform=right.get_yaxis_transform(),
                   ha='center', va='bottom', fontsize=7, color='0.3',
                   bbox=dict(fc='white', ec='none', pad=0.5), zorder=4)
    axes[0].set_yticks(range(len(stages)))
    axes[0].set_yticklabels(['%s queue' % s for s in reversed(stages)], fontsize=8)
    fig.suptitle(title, fontsize=10)
    legend = 1 < nbands <= 16
    inch = fig.get_figheight()
    bottom = (0.7 + 0.25 * legend) / inch
    fig.subplots_adjust(bottom=bottom, left=0.11, right=0.99, top=1 - 0.45 / inch)
    fig.text(0.55, bottom - 0.42 / inch, 'microseconds from the first command shown '
             '(device clock)', ha='center', va='center', fontsize=8.5)
    if legend:
        fig.legend(handles=[Patch(color=colours[b], label='band %d' % b) for b in range(nbands)],
                   loc='center', ncol=nbands, fontsize=7, frameon=False,
                   bbox_to_anchor=(0.55, 0.17 / inch))
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 epilog='The log may be the whole GStreamer debug log or only '
                                        'its "timeline" lines.')
    ap.add_argument('log', help='GStreamer debug log, or - for standard input')
    ap.add_argument('--frames', type=int, default=2, help='frames to draw (default 2)')
    ap.add_argument('--skip', type=int, default=3,
                    help='warm-up frames to leave out first (default 3)')
    ap.add_argument('--element', help='element name as in the log, e.g. clconvolve0 (default: '
                                      'the first one with timeline lines)')
    ap.add_argument('--max-gap', type=float, default=50.0, metavar='US',
                    help='cut idle time between frames longer than this many microseconds out '
                         'of the axis (default 50; inf keeps every gap to scale)')
    ap.add_argument('--title', default='clconvolve: device commands per queue')
    ap.add_argument('--out', default='timeline.png', help='PNG to write (default timeline.png)')
    args = ap.parse_args()
    if args.frames < 1 or args.skip < 0:
        ap.error('--frames must be at least 1 and --skip at least 0')

    if args.log == '-':
        frames = parse(sys.stdin, args.element)
    else:
        with open(args.log, errors='replace') as fh:
            frames = parse(fh, args.element)
    if not frames:
        sys.exit('timeline: no "timeline frame=..." lines%s in %s; record them with '
                 'GST_DEBUG=clconvolve:TRACE and the element\'s profiling=true'
                 % (' of ' + args.element if args.element else '', args.log))
    chosen = list(frames.items())[args.skip:args.skip + args.frames]
    if not chosen:
        sys.exit('timeline: the log holds %d frames, all within --skip %d'
                 % (len(frames), args.skip))
    if len(chosen) < args.frames:
        print('timeline: only %d frames after skipping %d; drawing those'
              % (len(chosen), args.skip), file=sys.stderr)
    summary(chosen)
    draw(chosen, args.title, args.out, args.max_gap)
    print('wrote %s' % args.out)


if __name__ == '__main__':
    main()
