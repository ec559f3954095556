"""depth-first-rows end to end: chains of halo-free layers whose map between
them does not fit on chip, compiled with accel-compile on the default
machine with --depth-first=on and off, simulated under --strict-hazards and
compared with numpy. Also checks the decision: with the pass on, the layer
table (stats.json `layers`) has every band's layers ("name [rows r0:r1]",
"name input [rows r0:r1]" for the band's slice of the chain input),
with it off none. And the network's compulsory bytes (stats.json
`compulsory_bytes`) are the same with the bands as without: the bands read
their chain's weights, which the network moves once.

usage: depth_first_rows_e2e.py BIN_DIR SRC_ROOT"""
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from e2e_common import check_run  # noqa: E402
from fusion_e2e import Net, convt_head, relu, save_case  # noqa: E402


def pool_expand_convt(x):
    """MaxPool 2x2 s2, an expanding 1x1 conv + BN + ReLU (a 2.1 MB map),
    ConvTranspose 2x2 s2 to 8 channels: bands of whole pooled rows (an
    even number of input rows), concatenated by a copy (8 channels)."""
    n = Net(x)
    p = n.unary("MaxPool", "x",
                lambda a: a.reshape(a.shape[0], a.shape[1], a.shape[2] // 2, 2,
                                    a.shape[3] // 2, 2).max(axis=(3, 5)),
                kernel_shape=[2, 2], strides=[2, 2])
    e = relu(n, n.conv(p, 4 * x.shape[1]))
    return n, n.convt(e, 8, bn=False)


def maxpool3s2(a):
    """MaxPool 3x3, stride 2, pads 1 (ONNX semantics: pads never win)."""
    n_, c, h, w = a.shape
    padded = np.full((n_, c, h + 2, w + 2), -np.inf)
    padded[:, :, 1:-1, 1:-1] = a
    oh, ow = (h - 1) // 2 + 1, (w - 1) // 2 + 1
    out = np.full((n_, c, oh, ow), -np.inf)
    for i in range(3):
        for j in range(3):
            out = np.maximum(out, padded[:, :, i:i + 2 * oh - 1:2, j:j + 2 * ow - 1:2])
    return out


def stem(x):
    """A ResNet stem: Conv 7x7 stride 2 pads 3 + BN + ReLU (a 2.1 MB map),
    then MaxPool 3x3 stride 2 pads 1. Both read rows around their band
    (halos): each band makes the rows its neighbours' pools need again."""
    n = Net(x)
    c = relu(n, n.conv("x", 32, k=7, s=2, p=3))
    return n, n.unary("MaxPool", c, maxpool3s2, kernel_shape=[3, 3], strides=[2, 2],
                      pads=[1, 1, 1, 1])


CASES = [
    # name, chain, input shape, bands expected, layers per band (the input
    # slice and the chain's layers), extra accel-compile arguments
    # The FPN detector's head (32 -> 8 -> 1 channels): a 2.1 MB map, 0.3
    # of the 2 MiB of storage holds 76 of its 256 rows: 4 bands of 32
    # input rows.
    ("convt_head", convt_head, (1, 32, 128, 128), 4, 3, []),
    # The 2.1 MB map in bands of at most 629 KB: 4 bands of 32 input rows.
    ("pool_expand_convt", pool_expand_convt, (1, 32, 128, 128), 4, 4, []),
    # With halos: the 2.1 MB map in 4 bands of 16 pooled rows (the conv
    # makes 33 rows per band, 40 input rows with the window's).
    ("stem_halo", stem, (1, 1, 256, 256), 4, 3, ["--depth-first-halos=on"]),
]


def same_compulsory(work, name):
    """Whether runs `name`_on and `name`_off report the same network
    compulsory bytes; prints PASS / FAIL."""
    got = {}
    for df in ("on", "off"):
        path = os.path.join(work, f"{name}_{df}_out", "stats.json")
        if not os.path.exists(path):
            print(f"FAIL {name} compulsory bytes: no {path}")
            return False
        with open(path) as f:
            got[df] = json.load(f)["compulsory_bytes"]
    ok = got["on"] == got["off"] and got["on"] > 0
    print(f"{'PASS' if ok else 'FAIL'} {name} compulsory bytes: {got['on']} with bands, "
          f"{got['off']} without")
    return ok


def main():
    bin_dir = sys.argv[1]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, build, shape, bands, per_band, extra in CASES:
            x, out, ref, model = save_case(work, name, build, shape)
            for df in ("on", "off"):
                ok = check_run(bin_dir, model, work, f"{name}_{df}", {"x": x}, out, ref,
                               f"{name} depth-first={df}",
                               compile_args=[f"--depth-first={df}"] + extra,
                               marker="[rows ",
                               want_layers=bands * per_band if df == "on" else 0)
                passed += ok
                failed += not ok
            ok = same_compulsory(work, name)
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
