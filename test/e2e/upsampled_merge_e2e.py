"""fold-upsampled-merge end to end: feature-pyramid merges (a 1x1 lateral
convolution plus the coarser level upsampled by nearest neighbour, then a
3x3 smoothing convolution; lateral convolutions with and without bias) as
ONNX, compiled by accel-compile with
--upsampled-merge=on and off on the default machine, simulated under
--strict-hazards and compared with numpy. Also checks the decision in the
layer table (stats.json `layers`): with the pass on, the rewritten merges
have their phase layers ("name [phase a,b]"), with it off none.

usage: upsampled_merge_e2e.py BIN_DIR SRC_ROOT"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from e2e_common import check_run, conv_ref  # noqa: E402
from fusion_e2e import RNG, Net, save_case  # noqa: E402


def conv_plain(n, x, co, k=1, s=1, p=0, bias=True):
    """Conv with or without a bias (Net.conv always has one), no BN."""
    ci = n.v[x].shape[1]
    w = RNG.standard_normal((co, ci, k, k)) * (1.0 / np.sqrt(ci * k * k))
    b = RNG.standard_normal(co) * 0.1 if bias else np.zeros(co)
    ins = [x, n.m.init(w)] + ([n.m.init(b)] if bias else [])
    y = n.m.node("Conv", ins, kernel_shape=[k, k], strides=[s, s], pads=[p] * 4)
    n.v[y] = conv_ref(n.v[x], w, b, (s, s), (p,) * 4, (1, 1), 1)
    return y


def upsample(n, x, f):
    """Resize nearest (asymmetric, floor) by `f`, as torch exports it."""
    scales = n.m.init(np.array([1, 1, f, f], np.float32))
    roi = n.m.init(np.zeros(0, np.float32))
    y = n.m.node("Resize", [x, roi, scales], mode="nearest",
                 coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    n.v[y] = n.v[x].repeat(f, axis=2).repeat(f, axis=3)
    return y


def merge(n, fine, coarse, lateral_ch, out_ch, f=2, lateral_bias=False):
    lat = conv_plain(n, fine, lateral_ch, bias=lateral_bias)
    s = n.binary("Add", lat, upsample(n, coarse, f), lambda a, b: a + b)
    return conv_plain(n, s, out_ch, k=3, p=1)


def fpn_merge(x):
    """The FPN detector's finest merge in small: a 16-channel level at
    32 x 32, the coarser level (a stride-2 conv of it) 32 channels at 16 x
    16, merged at 32 channels and smoothed to 8."""
    n = Net(x)
    coarse = conv_plain(n, "x", 32, k=3, s=2, p=1)
    return n, merge(n, "x", coarse, 32, 8)


def two_levels(x):
    """Two merges top-down, the middle one also smoothed (its merged map
    has two readers, so only the finest merge folds), summed at the end
    through an upsampling of the middle output."""
    n = Net(x)
    c3 = conv_plain(n, "x", 24, k=3, s=2, p=1)
    c4 = conv_plain(n, c3, 24, k=3, s=2, p=1)
    lat3 = conv_plain(n, c3, 16, bias=False)
    out3 = n.binary("Add", lat3, upsample(n, conv_plain(n, c4, 16), 2), lambda a, b: a + b)
    p3 = conv_plain(n, out3, 8, k=3, p=1)
    lat2 = conv_plain(n, "x", 16, bias=False)
    out2 = n.binary("Add", lat2, upsample(n, out3, 2), lambda a, b: a + b)
    p2 = conv_plain(n, out2, 8, k=3, p=1)
    return n, n.binary("Add", p2, upsample(n, p3, 2), lambda a, b: a + b)


def lateral_bias(x):
    """A lateral convolution with a bias (as torchvision's FPN has): the bias
    moves to the coarse map, added before the phases."""
    n = Net(x)
    coarse = conv_plain(n, "x", 32, k=3, s=2, p=1)
    return n, merge(n, "x", coarse, 32, 8, lateral_bias=True)


def four_times(x):
    """A 4x upsampling (the coarse level two octaves up): 16 phases."""
    n = Net(x)
    coarse = conv_plain(n, "x", 32, k=5, s=4, p=2)
    return n, merge(n, "x", coarse, 32, 8, f=4)


CASES = [
    # name, network, input shape, phase layers with the pass on
    ("fpn_merge", fpn_merge, (1, 16, 32, 32), 4),
    ("fpn_merge_batch2", fpn_merge, (2, 16, 24, 20), 4),
    ("two_levels", two_levels, (1, 8, 32, 32), 4),
    ("lateral_bias", lateral_bias, (1, 16, 32, 32), 4),
    ("four_times", four_times, (1, 8, 32, 32), 16),
]


def main():
    bin_dir = sys.argv[1]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, build, shape, phase_layers in CASES:
            x, out, ref, model = save_case(work, name, build, shape)
            for on in ("on", "off"):
                ok = check_run(bin_dir, model, work, f"{name}_{on}", {"x": x}, out, ref,
                               f"{name} upsampled-merge={on}",
                               compile_args=[f"--upsampled-merge={on}"], marker="[phase ",
                               want_layers=phase_layers if on == "on" else 0)
                passed += ok
                failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
