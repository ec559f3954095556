#!/usr/bin/python3
"""End-to-end numerical tests of the per-cluster padded bands of the mapped
convolution (lib/Conversion/GraphToIsa/PadBands.cpp): each cluster copies the
padded rows its output pixels read into a zeroed buffer of its own (clusters
with less work pace the copy in waited pieces), or shares one band with the
clusters of the same pixels (an M or K split). Padded convolutions (3x3 pad 1
at stride 1 and 2, 7x7 stride 2 pad 3 with 3 channels, asymmetric padding,
a dilated 5x5 whose padding exceeds a band's valid rows, batch 2, groups)
with bias and fused ReLU, through the default pipeline on hw/default.json
(split-strategy's per-cluster pixel ranges, unequal) and under forced
(dataflow, array partition) pairs on a 2 x 2 test machine; compiled,
simulated with accel-run --strict-hazards and compared with numpy. Compiled
with --conv-padding=copy (the bands; the default, the padding inside the
window: conv_pad_window_e2e.py). Exits 1 on any failure.
Usage: conv_pad_bands_e2e.py BIN_DIR"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import check_single_output, conv_ref, force_mapping, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW_DEFAULT = os.path.join(SRC, "hw", "default.json")
HW_BLOCK = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-block16.json")
rng = np.random.default_rng(23)
# None: the default pipeline's own decision.
RUNS = [(HW_DEFAULT, None), (HW_BLOCK, ("output_stationary", ("N", "N"))),
        (HW_BLOCK, ("output_stationary", ("M", "N"))),
        (HW_BLOCK, ("weight_stationary", ("N", "K")))]


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def out_size(h, k, s, p0, p1, d):
    return (h + p0 + p1 - d * (k - 1) - 1) // s + 1


MODELS = []


def conv_model(name, x, w, b, stride, pads, dil=(1, 1), groups=1):
    oh = out_size(x.shape[2], w.shape[2], stride[0], pads[0], pads[2], dil[0])
    ow = out_size(x.shape[3], w.shape[3], stride[1], pads[1], pads[3], dil[1])
    shape = (x.shape[0], w.shape[0], oh, ow)
    attrs = (f"strides = array<i64: {stride[0]}, {stride[1]}>, "
             f"pads = array<i64: {', '.join(map(str, pads))}>, "
             f"dilations = array<i64: {dil[0]}, {dil[1]}>, groups = {groups} : i64")
    body = (f"%y = graph.conv2d %a, %b, %c {{{attrs}}} : "
            f"({ty(x.shape)}, {ty(w.shape)}, {ty(b.shape)}) -> {ty(shape)}\n"
            f"  %r = graph.relu %y : {ty(shape)}")
    ref = np.maximum(conv_ref(x.astype(np.float64), w.astype(np.float64),
                              b.astype(np.float64), stride, pads, dil, groups), 0)
    MODELS.append((name, [x, w, b], body, ref, shape))


conv_model("conv3x3_p1", rand(1, 16, 23, 19), rand(24, 16, 3, 3), rand(24),
           (1, 1), (1, 1, 1, 1))
conv_model("conv3x3_p1_s2_n2", rand(2, 12, 21, 17), rand(20, 12, 3, 3), rand(20),
           (2, 2), (1, 1, 1, 1))
conv_model("conv7x7_c3_s2_p3", rand(1, 3, 37, 29), rand(16, 3, 7, 7), rand(16),
           (2, 2), (3, 3, 3, 3))
conv_model("conv3x3_asym", rand(1, 8, 17, 15), rand(12, 8, 3, 3), rand(12),
           (1, 1), (0, 2, 2, 1))
conv_model("conv5x5_d2_p4_g2", rand(1, 8, 13, 11), rand(10, 4, 5, 5), rand(10),
           (1, 1), (4, 4, 4, 4), dil=(2, 2), groups=2)

failed = total = 0
with tempfile.TemporaryDirectory() as work:
    for i, (name, args, body, exp, out_shape) in enumerate(MODELS):
        names = ["a", "b", "c"]
        sig = ", ".join(f"%{n}: {ty(v.shape)} {{accel.name = \"{n}\"}}"
                        for n, v in zip(names, args))
        src = os.path.join(work, f"{name}.mlir")
        with open(src, "w") as f:
            f.write(f"func.func @main({sig}) -> ({ty(out_shape)} {{accel.name = \"r\"}}) {{\n"
                    f"  {body}\n  return %r : {ty(out_shape)}\n}}\n")
        for j, (hw, forced) in enumerate(RUNS):
            total += 1
            model = src
            tag = f"{name} {os.path.basename(hw)} " + (
                f"{forced[0]} [{forced[1][0]},{forced[1][1]}]" if forced else "default")
            if forced:
                model = os.path.join(work, f"{name}.{j}.mlir")
                error = force_mapping(BIN, src, model, hw, None, forced[0], forced[1])
                if error:
                    print(f"FAIL {tag}: {error}")
                    failed += 1
                    continue
            ok = check_single_output(BIN, model, work, f"{name}_{j}",
                                     dict(zip(names, args)), exp, tag, hw=hw,
                                     compile_args=["--conv-padding=copy"])
            failed += not ok
print(f"{total - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
