import cv2, numpy as np, time
cv2.setNumThreads(2)
rng = np.random.default_rng(1)
f = rng.integers(0, 256, (1080, 1920, 4), dtype=np.uint8)
out = np.empty_like(f)
def t(fn, n=40):
    fn(); t0 = time.perf_counter()
    for _ in range(n): fn()
    return n / (time.perf_counter() - t0)
for r in range(4):
    a = t(lambda: cv2.GaussianBlur(f, (15, 15), 0, borderType=cv2.BORDER_REPLICATE))
    b = t(lambda: cv2.GaussianBlur(f, (15, 15), 0, dst=out, borderType=cv2.BORDER_REPLICATE))
    c = t(lambda: cv2.blur(f, (15, 15), borderType=cv2.BORDER_REPLICATE))
    d = t(lambda: cv2.blur(f, (15, 15), dst=out, borderType=cv2.BORDER_REPLICATE))
    print('round %d GaussianBlur15 new %.1f dst %.1f fps | blur15 new %.1f dst %.1f' % (r, a, b, c, d))
