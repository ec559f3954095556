#!/usr/bin/python3
"""End-to-end numerical tests of the convolution input bands (conv-bands,
docs/mapping.md "Convolution input bands"): the mapped implicit-GEMM
convolution loads a band of input rows (all kernel rows' halo, a channel
range, zeros for the padding) into storage once and forms every kernel
position's image tile from it with local_copy DMAs. Cases: 3x3 stride 1 /
stride 2 / dilation 2, 5x5 with asymmetric padding and 2 groups, 7x7 stride
2 with 3 channels (chunks of several kernel positions), 1x1, batch 2;
forced tiles with several M tiles (the bands reused across them) and K
chunks of a channel range; under output / input / weight stationary and
partitions that split N, M and K (K splits start chunks mid-position), on
the 2 x 2 grid and a 3 x 2 grid; padding in the window and as a copy.
Each case compiles with accel-compile conv-bands=on (the default since
2026-12-02; auto leaves these small inputs to the residency) and, for comparison,
conv-bands=off, simulates with accel-run --strict-hazards and
compares both with numpy; the script counts the programs whose streams
contain band copies (local_copy DMAs). Exits 1 on any failure.
Usage: conv_bands_e2e.py BIN_DIR"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import check_single_output, conv_ref, force_mapping, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-block16.json")
HW32 = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-grid3x2.json")
rng = np.random.default_rng(12)
COMBOS = [("output_stationary", ("N", "N")), ("output_stationary", ("M", "N")),
          ("output_stationary", ("K", "K")), ("input_stationary", ("M", "K")),
          ("input_stationary", ("N", "none")), ("weight_stationary", ("N", "K")),
          ("output_stationary", ("none", "none"))]


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def out_size(h, k, s, p0, p1, d):
    return (h + p0 + p1 - d * (k - 1) - 1) // s + 1


MODELS = []


def conv_model(name, tilings, x, w, b, stride, pads, dil=(1, 1), groups=1,
               hws=(HW,), extra=()):
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
    for hw in hws:
        for tiling in tilings:
            MODELS.append((name, hw, tiling, [x, w, b], body, ref, shape, extra))


# 3x3, stride 1, padding 1; 40 output channels = 3 M tiles of 16; 16-channel
# chunks of one kernel position (two channel ranges: two bands per tile).
conv_model("conv3x3_c32", ["partition-m=16 partition-n=32 partition-k=16",
                           "partition-m=16 partition-n=16 partition-k=32"],
           rand(1, 32, 11, 13), rand(40, 32, 3, 3), rand(40), (1, 1), (1, 1, 1, 1),
           hws=(HW, HW32))
# Stride 2, odd sizes.
conv_model("conv3x3_s2", ["partition-m=16 partition-n=16 partition-k=16"],
           rand(1, 20, 15, 12), rand(36, 20, 3, 3), rand(36), (2, 2), (1, 0, 1, 1))
# Dilation 2, padding 2, batch 2.
conv_model("conv3x3_d2", ["partition-m=16 partition-n=32 partition-k=32"],
           rand(2, 24, 10, 9), rand(20, 24, 3, 3), rand(20), (1, 1), (2, 2, 2, 2),
           dil=(2, 2))
# 5x5, asymmetric padding, 2 groups, stride (1, 2).
conv_model("conv5x5_g2", ["partition-m=16 partition-n=16 partition-k=16"],
           rand(1, 16, 12, 14), rand(24, 8, 5, 5), rand(24), (1, 2), (2, 1, 3, 2),
           groups=2)
# 7x7 stride 2 with 3 channels: chunks of whole kernel columns / rows.
conv_model("conv7x7_c3_s2", ["partition-m=16 partition-n=16 partition-k=64",
                             "partition-m=16 partition-n=32 partition-k=48"],
           rand(1, 3, 23, 21), rand(20, 3, 7, 7), rand(20), (2, 2), (3, 3, 3, 3))
# 1x1: a band per channel range is the tile itself (no reuse over positions,
# only over M tiles).
conv_model("conv1x1", ["partition-m=16 partition-n=32 partition-k=16"],
           rand(1, 32, 9, 10), rand(48, 32, 1, 1), rand(48), (1, 1), (0, 0, 0, 0))
# Padding as a copy (the bands read the padded buffer / per-cluster bands).
conv_model("conv3x3_copy", ["partition-m=16 partition-n=32 partition-k=16"],
           rand(1, 16, 9, 11), rand(24, 16, 3, 3), rand(24), (1, 1), (1, 1, 1, 1),
           extra=("--conv-padding=copy",))

failed = total = banded = 0
with tempfile.TemporaryDirectory() as work:
    for i, (name, hw, tiling, args, body, exp, out_shape, extra) in enumerate(MODELS):
        names = ["a", "b", "c"]
        sig = ", ".join(f"%{n}: {ty(v.shape)} {{accel.name = \"{n}\"}}"
                        for n, v in zip(names, args))
        src = os.path.join(work, f"{name}_{i}.mlir")
        with open(src, "w") as f:
            f.write(f"func.func @main({sig}) -> ({ty(out_shape)} {{accel.name = \"r\"}}) {{\n"
                    f"  {body}\n  return %r : {ty(out_shape)}\n}}\n")
        grid = os.path.basename(hw).replace(".json", "")
        for df, (ar, ac) in COMBOS:
            mapped = os.path.join(work, f"{name}_{i}.{df}.{ar}{ac}.mlir")
            tag = f"{name} {grid} [{tiling}] {df} [{ar},{ac}]"
            error = force_mapping(BIN, src, mapped, hw, tiling, df, (ar, ac))
            if error:
                total += 1
                failed += 1
                print(f"FAIL {tag}: {error}")
                continue
            for bands in ("on", "off"):
                total += 1
                run = f"{name}_{i}_{df}_{ar}{ac}_{bands}"
                flags = list(extra) + [f"--conv-bands={bands}"]
                ok = check_single_output(BIN, mapped, work, run, dict(zip(names, args)),
                                         exp, f"{tag} conv-bands={bands}", hw=hw,
                                         compile_args=flags)
                failed += not ok
                if ok and bands == "on":
                    isa = subprocess.run(
                        [os.path.join(BIN, "accel-translate"), "--binary-to-isa",
                         os.path.join(work, run + ".bin")],
                        capture_output=True, text=True).stdout
                    banded += "local_copy" in isa
print(f"{banded} programs with band copies")
print(f"{total - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
