"""depth-first-channels end to end: inverted-residual blocks whose expand
map does not fit on chip (1x16x112x112 inputs, 2.4-3.2 MB maps), compiled
with accel-compile on hw/bandwidth-starved.json and the default machine
(the pass slices them on both: the map's DRAM round trip takes at least
twice the expand's MACs) with --depth-first=on and off, simulated under
--strict-hazards and compared with numpy. Also checks the decision: with
the pass on, the layer table (stats.json `layers`) has the slices' layers
("name [c0:c1]", at most 0.3 of the 2 MiB of storage each), with it off it
has none.

usage: depth_first_e2e.py BIN_DIR SRC_ROOT"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from e2e_common import check_run  # noqa: E402
from fusion_e2e import Net, mbv2_block, mbv3_block, save_case  # noqa: E402


def expand_dw_s2(x):
    """MobileNetV3-Large's second block: expand 1x1 + BN + ReLU, depthwise
    3x3 stride 2 + BN + ReLU, project 1x1 + BN."""
    n = Net(x)
    c = x.shape[1]
    relu = lambda v: np.maximum(v, 0)  # noqa: E731
    e = n.unary("Relu", n.conv("x", 4 * c), relu)
    d = n.unary("Relu", n.conv(e, 4 * c, k=3, s=2, p=1, groups=4 * c), relu)
    return n, n.conv(d, c + 8)


CASES = [
    # name, block, input shape, slices expected (with depth-first=on)
    ("mbv2_block", mbv2_block, (1, 16, 112, 112), 4),
    ("mbv3_block", mbv3_block, (1, 16, 112, 112), 8),
    ("expand_dw_s2", expand_dw_s2, (1, 16, 112, 112), 8),
]


def main():
    bin_dir, src = sys.argv[1], sys.argv[2]
    starved = os.path.join(src, "hw", "bandwidth-starved.json")
    runs = [(starved, "on"), (starved, "off"), (None, "on")]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, build, shape, slices in CASES:
            x, out, ref, model = save_case(work, name, build, shape)
            for hw, df in runs:
                machine = "bandwidth-starved" if hw else "default"
                tag = f"{name} depth-first={df} hw={machine}"
                ok = check_run(bin_dir, model, work, f"{name}_{df}_{machine}", {"x": x},
                               out, ref, tag, hw=hw, compile_args=[f"--depth-first={df}"],
                               marker="[", want_layers=2 * slices if df == "on" else 0)
                passed += ok
                failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
