"""tosa.resize end to end: TOSA 1.0 resizes (NHWC, f32; nearest and
bilinear, up and down, whole and fractional factors, offsets) as MLIR,
compiled by accel-compile (convert-tosa-linalg-to-graph, the default
pipeline), simulated under --strict-hazards and compared with a numpy
reference that follows the TOSA specification's per-element pseudo-code
(not the converter's separable matrices).

usage: tosa_resize_e2e.py BIN_DIR SRC_ROOT"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from e2e_common import run_and_compare, run_named_checks, ty  # noqa: E402


def spec_resize(x, scale, offset, border, out_hw, bilinear):
    """TOSA 1.0 RESIZE for floating point, element by element."""
    n_, ih, iw, c = x.shape
    oh, ow = out_hw
    sy_n, sy_d, sx_n, sx_d = scale
    out = np.zeros((n_, oh, ow, c), np.float64)
    for oy in range(oh):
        for ox in range(ow):
            y = oy * sy_d + offset[0]
            xx = ox * sx_d + offset[1]
            iy, ix = y // sy_n, xx // sx_n  # floor division
            dy, dx = (y - iy * sy_n) / sy_n, (xx - ix * sx_n) / sx_n
            iy0, iy1 = max(iy, 0), min(iy + 1, ih - 1)
            ix0, ix1 = max(ix, 0), min(ix + 1, iw - 1)
            if bilinear:
                out[:, oy, ox] = (x[:, iy0, ix0] * (1 - dy) * (1 - dx) +
                                  x[:, iy0, ix1] * (1 - dy) * dx +
                                  x[:, iy1, ix0] * dy * (1 - dx) +
                                  x[:, iy1, ix1] * dy * dx)
            else:
                out[:, oy, ox] = x[:, iy1 if dy >= 0.5 else iy0, ix1 if dx >= 0.5 else ix0]
    return out


def out_size(i, n, d, off, border):
    """The specification's output extent: ((I - 1) n - offset + border) / d + 1."""
    return ((i - 1) * n - off + border) // d + 1


def model(shape, scale, offset, border, bilinear):
    n_, ih, iw, c = shape
    oh = out_size(ih, scale[0], scale[1], offset[0], border[0])
    ow = out_size(iw, scale[2], scale[3], offset[1], border[1])
    xs, ys = ty(shape), ty((n_, oh, ow, c))
    mode = "BILINEAR" if bilinear else "NEAREST_NEIGHBOR"
    text = (
        f'func.func @main(%x: {xs} {{accel.name = "x"}}) -> ({ys} {{accel.name = "r"}}) {{\n'
        f"  %s = tosa.const_shape {{values = dense<{list(scale)}> : tensor<4xindex>}} : () -> !tosa.shape<4>\n"
        f"  %o = tosa.const_shape {{values = dense<{list(offset)}> : tensor<2xindex>}} : () -> !tosa.shape<2>\n"
        f"  %b = tosa.const_shape {{values = dense<{list(border)}> : tensor<2xindex>}} : () -> !tosa.shape<2>\n"
        f"  %y = tosa.resize %x, %s, %o, %b {{mode = {mode}}} : ({xs}, !tosa.shape<4>, "
        f"!tosa.shape<2>, !tosa.shape<2>) -> {ys}\n"
        f"  return %y : {ys}\n}}\n")
    return text, (oh, ow)


CASES = {
    # name: input NHWC, scale [y_n, y_d, x_n, x_d], offset, border, bilinear
    "nearest_x2_floor": ((1, 6, 5, 3), (2, 1, 2, 1), (-1, -1), (1, 1), False),
    "nearest_x2_round": ((1, 6, 5, 3), (2, 1, 2, 1), (0, 0), (1, 1), False),
    "nearest_x3": ((2, 4, 4, 2), (3, 1, 3, 1), (-1, -1), (2, 2), False),
    "nearest_down": ((1, 9, 7, 2), (1, 2, 2, 3), (0, 0), (0, 0), False),
    "bilinear_x2_half_pixel": ((1, 5, 6, 3), (4, 2, 4, 2), (-1, -1), (1, 1), True),
    "bilinear_x2_corners": ((1, 5, 6, 3), (8, 4, 10, 5), (0, 0), (0, 0), True),
    "bilinear_rows_only": ((1, 4, 5, 2), (2, 1, 1, 1), (0, 0), (1, 0), True),
}


def main():
    bin_dir = sys.argv[1]
    rng = np.random.default_rng(7)

    def check(work, name):
        shape, scale, offset, border, bilinear = CASES[name]
        x = rng.uniform(-1, 1, shape).astype(np.float32)
        text, out_hw = model(shape, scale, offset, border, bilinear)
        path = os.path.join(work, name + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        ref = spec_resize(x.astype(np.float64), scale, offset, border, out_hw, bilinear)
        ok, err, error = run_and_compare(bin_dir, path, work, name, {"x": x}, "r", ref)
        if error:
            return f"FAIL {name}: {error}"
        return f"{'PASS' if ok else 'FAIL'} {name} (max error {err:.3g})"

    return run_named_checks(list(CASES), check)


if __name__ == "__main__":
    sys.exit(main())
