"""numpy reference of a depthwise conv2d (NCHW, weights [C, 1, KH, KW])."""
import numpy as np

from e2e_common import out_hw


def ref(x, w, b, s, p, d, relu):
    n, c, h, wd = x.shape
    kh, kw = w.shape[2:]
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (p[0], p[2]), (p[1], p[3])))
    oh = out_hw(h, kh, s[0], p[0], p[2], d[0])
    ow = out_hw(wd, kw, s[1], p[1], p[3], d[1])
    y = np.zeros((n, c, oh, ow))
    for i in range(kh):
        for j in range(kw):
            win = xp[:, :, i * d[0]:i * d[0] + s[0] * (oh - 1) + 1:s[0],
                     j * d[1]:j * d[1] + s[1] * (ow - 1) + 1:s[1]]
            y += win * w[None, :, 0, i, j, None, None]
    if b is not None:
        y += b[None, :, None, None]
    return np.maximum(y, 0) if relu else y
