# OpenCV on 2 threads: GaussianBlur/blur at 1080p RGBA, median ms of 30 calls
import cv2, numpy as np, time, statistics, sys
cv2.setNumThreads(2)
img = np.random.randint(0, 256, (1080, 1920, 4), np.uint8)
print('opencv', cv2.__version__)
for name, f in [('gaussian15', lambda: cv2.GaussianBlur(img, (15, 15), 0)),
                ('gaussian31', lambda: cv2.GaussianBlur(img, (31, 31), 0)),
                ('box15', lambda: cv2.blur(img, (15, 15))),
                ('unsharp15', lambda: cv2.addWeighted(img, 2.0, cv2.GaussianBlur(img, (15, 15), 0), -1.0, 0))]:
    t = []
    for i in range(30):
        a = time.perf_counter(); f(); t.append(time.perf_counter() - a)
    print(name, 'ms %.2f' % (1000 * statistics.median(t)))
