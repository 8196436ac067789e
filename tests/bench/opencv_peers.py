# OpenCV peers of clconvolve, run by tests/bench/run-bench in each interpreter it measures
# (Debian's python3-opencv, opencv-python-headless from PyPI in a virtual environment):
#   python3 tests/bench/opencv_peers.py < JOB.json
# JOB: {"build": "debian"|"pypi", "res": [[w, h]], "sizes": [..], "kernels": [..],
#       "matrices": {"KERNEL SIZE": rows}, "filter2d": [kernels filter2D runs for],
#       "umat": bool (T-API on OPENCV_OPENCL_DEVICE too), "seconds", "min_frames", "runs"}
# Prints one JSON peer record per line; RGBA uint8 random frames, BORDER_REPLICATE.
import json
import os
import statistics
import sys
import time


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def summary(values):
    values = sorted(values)
    return {'median': statistics.median(values), 'min': values[0], 'max': values[-1]}


def timed_fps(fn, seconds, min_frames, runs):
    """Median/min/max frames/s over runs, each at least seconds and min_frames."""
    fn()  # warm-up (OpenCL program builds)
    fps = []
    for _ in range(runs):
        n, t0 = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            t = time.perf_counter() - t0
            if n >= min_frames and t >= seconds:
                break
        fps.append(n / t)
    return summary(fps), runs


def cases(cv2, np, frame, kernel, size, job, dev):
    """(name, device, fn) of each peer of kernel at size."""
    rep = cv2.BORDER_REPLICATE
    # the element's default sigma (gst/convkernel.c), not OpenCV's fixed tables up to 7
    sigma = 0.3 * ((size - 1) * 0.5 - 1) + 0.8
    out = []
    if kernel in job['filter2d']:
        k = np.array(job['matrices']['%s %d' % (kernel, size)], np.float32)
        out.append(('filter2D', 'cpu', lambda: cv2.filter2D(frame, -1, k, borderType=rep)))
        if dev:
            # T-API round trip per frame: upload, filter, download
            out.append(('filter2D-umat', dev, lambda: cv2.filter2D(
                cv2.UMat(frame), -1, k, borderType=rep).get()))
    if kernel == 'gaussian':
        out.append(('GaussianBlur', 'cpu', lambda: cv2.GaussianBlur(
            frame, (size, size), sigma, borderType=rep)))
        if dev:
            out.append(('GaussianBlur-umat', dev, lambda: cv2.GaussianBlur(
                cv2.UMat(frame), (size, size), sigma, borderType=rep).get()))
    if kernel == 'box':
        out.append(('blur', 'cpu', lambda: cv2.blur(frame, (size, size), borderType=rep)))
    if kernel == 'unsharp':
        # the element's unsharp with amount 1: in + (in - gaussian blur of in)
        out.append(('GaussianBlur+addWeighted', 'cpu', lambda: cv2.addWeighted(
            frame, 2.0, cv2.GaussianBlur(frame, (size, size), sigma, borderType=rep), -1.0,
            0)))
    return out


def main():
    job = json.load(sys.stdin)
    import cv2
    import numpy as np
    cv2.setNumThreads(os.cpu_count())
    cv2.ocl.setUseOpenCL(bool(job['umat']))
    dev = cv2.ocl.Device.getDefault().name() if job['umat'] and cv2.ocl.haveOpenCL() else ''
    suffix = '' if job['build'] == 'debian' else '-' + job['build']
    rng = np.random.default_rng(1)
    for (w, h) in job['res']:
        frame = rng.integers(0, 256, (h, w, 4), dtype=np.uint8)
        for size in job['sizes']:
            for kernel in job['kernels']:
                for name, where, fn in cases(cv2, np, frame, kernel, size, job, dev):
                    fps, n = timed_fps(fn, job['seconds'], job['min_frames'], job['runs'])
                    name = 'opencv-' + name + suffix
                    log('%-31s %-10s %2d %4dx%-4d %9.2f fps (cv2 %s)' % (
                        name, kernel, size, w, h, fps['median'], cv2.__version__))
                    print(json.dumps({
                        'kind': 'peer', 'peer': name, 'peer_device': where, 'kernel': kernel,
                        'size': size, 'width': w, 'height': h,
                        'format': 'RGBA (4 channels filtered)', 'runs': n, 'fps': fps,
                        'opencv': job['build'], 'cv2_version': cv2.__version__,
                        'threads': cv2.getNumThreads()}), flush=True)


if __name__ == '__main__':
    main()
