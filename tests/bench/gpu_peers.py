#!/usr/bin/env python3
# clconvolve benchmark helper: the GPU peers of the blurs (issue 41), timed on the device alone.
# Reads a JSON job on stdin: {"res": [[w, h], ...], "sizes": [...], "kernels": ["gaussian",
# "box"], "seconds", "runs"}. For each frame size: the device copy of one RGBA frame (the floor,
# as clconvolve-bench measures it), then per kernel and size PyTorch's conv2d (fp32,
# channels-last, depthwise: the whole matrix, and the same as two 1-D passes) and CuPy's
# cupyx.scipy.ndimage (convolve with the whole matrix; gaussian_filter or uniform_filter, which
# filter separably) on uint8 RGBA frames resident on the device; CUDA events around a loop of
# calls, no transfers. Prints one JSON record per line: kind "peer" with "kernel_us" (median,
# min, max over runs) and "floor_us", or kind "peer" with "skipped" where a library is missing.
import json
import math
import sys
import time


def sigma_of(size):
    """OpenCV's sigma for a kernel side (clconvolve's sigma=0)"""
    return 0.3 * ((size - 1) * 0.5 - 1) + 0.8


def weights_1d(kernel, size):
    """The preset's vector: gaussian with OpenCV's sigma rule (clconvolve's sigma=0), box."""
    if kernel == 'box':
        return [1.0 / size] * size
    sigma = sigma_of(size)
    g = [math.exp(-(i - size // 2) ** 2 / (2 * sigma * sigma)) for i in range(size)]
    s = sum(g)
    return [v / s for v in g]


def timed(fn, start_event, stop_event, sync, seconds, runs):
    """Microseconds a call: each run loops fn for about seconds between two events."""
    for _ in range(3):
        fn()
    sync()
    t0 = time.perf_counter()
    fn()
    sync()
    one = max(time.perf_counter() - t0, 1e-6)
    n = max(3, min(2000, int(seconds / one)))
    out = []
    for _ in range(runs):
        a, b = start_event(), stop_event()
        a.record()
        for _ in range(n):
            fn()
        b.record()
        b.synchronize()
        out.append(1000.0 * elapsed_ms(a, b) / n)
    out.sort()
    return {'median': out[len(out) // 2], 'min': out[0], 'max': out[-1]}


def elapsed_ms(a, b):
    # torch.cuda.Event.elapsed_time(end) and cupy.cuda.get_elapsed_time(start, end): ms
    if hasattr(a, 'elapsed_time'):
        return a.elapsed_time(b)
    import cupy
    return cupy.cuda.get_elapsed_time(a, b)


def torch_peers(job, emit):
    try:
        import torch
        import torch.nn.functional as F
        if not torch.cuda.is_available():
            raise ImportError('no CUDA device for PyTorch')
    except Exception as e:  # ImportError, or a broken install
        emit({'kind': 'peer', 'peer': 'torch-conv2d', 'skipped': 'PyTorch: %s' % e})
        return
    dev = torch.device('cuda')
    ev = lambda: torch.cuda.Event(enable_timing=True)
    for w, h in job['res']:
        frame = torch.randint(0, 256, (h, w, 4), dtype=torch.uint8, device=dev)
        dst = torch.empty_like(frame)
        floor = timed(lambda: dst.copy_(frame), ev, ev, torch.cuda.synchronize, job['seconds'],
                      job['runs'])
        # NCHW view of the channels-last data: PyTorch's best layout for depthwise fp32
        x = frame.permute(2, 0, 1).unsqueeze(0).float().contiguous(
            memory_format=torch.channels_last)
        for kernel in job['kernels']:
            for size in job['sizes']:
                v = torch.tensor(weights_1d(kernel, size), device=dev)
                w2 = (v[:, None] * v[None, :]).expand(4, 1, size, size).contiguous()
                wv = v.view(1, 1, size, 1).expand(4, 1, size, 1).contiguous()
                wh = v.view(1, 1, 1, size).expand(4, 1, 1, size).contiguous()
                p = size // 2
                cases = [
                    ('torch-conv2d-depthwise', lambda: F.conv2d(x, w2, padding=p, groups=4)),
                    ('torch-conv2d-separable', lambda: F.conv2d(
                        F.conv2d(x, wv, padding=(p, 0), groups=4), wh, padding=(0, p),
                        groups=4)),
                ]
                for name, fn in cases:
                    with torch.no_grad():
                        t = timed(fn, ev, ev, torch.cuda.synchronize, job['seconds'],
                                  job['runs'])
                    emit({'kind': 'peer', 'peer': name, 'peer_device': torch.cuda.get_device_name(),
                          'kernel': kernel, 'size': size, 'width': w, 'height': h,
                          'format': 'RGBA as fp32 NCHW channels-last (4 channels filtered)',
                          'kernel_us': t, 'floor_us': floor['median'], 'runs': job['runs'],
                          'torch_version': torch.__version__})


def cupy_peers(job, emit):
    try:
        import cupy
        import cupyx.scipy.ndimage as ndi
        cupy.cuda.runtime.getDeviceCount()
    except Exception as e:
        emit({'kind': 'peer', 'peer': 'cupy-ndimage', 'skipped': 'CuPy: %s' % e})
        return
    ev = lambda: cupy.cuda.Event()
    sync = cupy.cuda.runtime.deviceSynchronize
    for w, h in job['res']:
        frame = cupy.random.randint(0, 256, (h, w, 4), dtype=cupy.uint8)
        dst = cupy.empty_like(frame)
        floor = timed(lambda: cupy.copyto(dst, frame), ev, ev, sync, job['seconds'],
                      job['runs'])
        for kernel in job['kernels']:
            for size in job['sizes']:
                v = cupy.asarray(weights_1d(kernel, size), dtype=cupy.float32)
                w3 = (v[:, None] * v[None, :])[:, :, None]
                out = cupy.empty_like(frame)
                cases = [('cupy-ndimage-convolve', lambda: ndi.convolve(
                    frame, w3, output=out, mode='nearest'))]
                if kernel == 'gaussian':
                    s = sigma_of(size)
                    cases.append(('cupy-gaussian_filter', lambda: ndi.gaussian_filter(
                        frame, sigma=(s, s, 0), truncate=(size // 2) / s, output=out,
                        mode='nearest')))
                else:
                    cases.append(('cupy-uniform_filter', lambda: ndi.uniform_filter(
                        frame, size=(size, size, 1), output=out, mode='nearest')))
                for name, fn in cases:
                    t = timed(fn, ev, ev, sync, job['seconds'], job['runs'])
                    emit({'kind': 'peer', 'peer': name, 'peer_device': 'cuda', 'kernel': kernel,
                          'size': size, 'width': w, 'height': h,
                          'format': 'RGBA uint8 (4 channels filtered)', 'kernel_us': t,
                          'floor_us': floor['median'], 'runs': job['runs'],
                          'cupy_version': cupy.__version__})


def main():
    job = json.loads(sys.stdin.read())

    def emit(rec):
        print(json.dumps(rec), flush=True)

    torch_peers(job, emit)
    cupy_peers(job, emit)


if __name__ == '__main__':
    main()
