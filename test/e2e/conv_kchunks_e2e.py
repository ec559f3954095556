#!/usr/bin/python3
"""End-to-end numerical tests of the convolution K chunks that span kernel
positions (lib/Conversion/GraphToIsa/ConvKChunks.cpp): few input channels,
so that chunks hold a run of kernel columns (a 2-D image box per kernel row)
or whole kernel rows (a 3-D box, when every pixel box is one output row or
the kernel has one column), on a 7x7 stride-2 kernel with 3 channels (ResNet's
first layer in small), a 3x3 kernel with 16 channels, a 7x1 kernel and a
5x5 dilated, grouped kernel, with bias and fused ReLU, shapes nothing
divides; forced tiles that give chunks of all of K, of one kernel row, of
balanced runs of kernel rows and of kernel columns, under several
(dataflow, array partition) pairs (K splits start chunks mid-position); and
a constant 80 % zero filter (the transposed kernel, filter in the weight
queue). Each case compiles with accel-compile, simulates with accel-run
--strict-hazards and compares with numpy. Exits 1 on any failure.
Usage: conv_kchunks_e2e.py BIN_DIR"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import check_single_output, conv_ref, force_mapping, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-block16.json")
rng = np.random.default_rng(11)
COMBOS = [("output_stationary", ("N", "N")), ("output_stationary", ("K", "K")),
          ("input_stationary", ("M", "K")), ("weight_stationary", ("N", "K")),
          ("output_stationary", ("M", "N"))]


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def out_size(h, k, s, p0, p1, d):
    return (h + p0 + p1 - d * (k - 1) - 1) // s + 1


MODELS = []


def conv_model(name, tilings, x, w, b, stride, pads, dil=(1, 1), groups=1, const_w=False):
    oh = out_size(x.shape[2], w.shape[2], stride[0], pads[0], pads[2], dil[0])
    ow = out_size(x.shape[3], w.shape[3], stride[1], pads[1], pads[3], dil[1])
    shape = (x.shape[0], w.shape[0], oh, ow)
    attrs = (f"strides = array<i64: {stride[0]}, {stride[1]}>, "
             f"pads = array<i64: {', '.join(map(str, pads))}>, "
             f"dilations = array<i64: {dil[0]}, {dil[1]}>, groups = {groups} : i64")
    if const_w:
        hexw = w.astype("<f4").tobytes().hex().upper()
        pre = f'%b = arith.constant dense<"0x{hexw}"> : {ty(w.shape)}\n  '
        args = [x, b]
        operands = "%a, %b, %c"
        names = ["a", "c"]
    else:
        pre = ""
        args = [x, w, b]
        operands = "%a, %b, %c"
        names = ["a", "b", "c"]
    body = (f"{pre}%y = graph.conv2d {operands} {{{attrs}}} : "
            f"({ty(x.shape)}, {ty(w.shape)}, {ty(b.shape)}) -> {ty(shape)}\n"
            f"  %r = graph.relu %y : {ty(shape)}")
    ref = np.maximum(conv_ref(x.astype(np.float64), w.astype(np.float64),
                              b.astype(np.float64), stride, pads, dil, groups), 0)
    for tiling in tilings:
        MODELS.append((name, tiling, names, args, body, ref, shape))


# 7x7, stride 2, padding 3, 3 channels, OW = 11: 16 pixels (one-row pixel
# boxes: all of K in one chunk, or 3 + 2 + 2 kernel rows), 32 pixels (2-row
# boxes: one kernel row per chunk).
conv_model("conv7x7_c3_s2", ["partition-m=16 partition-n=16 partition-k=147",
                             "partition-m=16 partition-n=16 partition-k=64",
                             "partition-m=16 partition-n=32 partition-k=147"],
           rand(1, 3, 23, 21), rand(10, 3, 7, 7), rand(10), (2, 2), (3, 3, 3, 3))
# 3x3, 16 channels: a whole kernel row (k = 48; 2-row pixel boxes), whole
# kernel rows (k = 144, OW = 19 > 16: one-row boxes).
conv_model("conv3x3_c16", ["partition-m=16 partition-n=16 partition-k=48",
                           "partition-m=16 partition-n=16 partition-k=144"],
           rand(1, 16, 9, 19), rand(12, 16, 3, 3), rand(12), (1, 1), (1, 1, 1, 1))
# 7x1 kernel: kernel rows are single positions, spanned even by 2-row
# pixel boxes.
conv_model("conv7x1_c3", ["partition-m=16 partition-n=32 partition-k=21"],
           rand(1, 3, 15, 11), rand(6, 3, 7, 1), rand(6), (1, 1), (3, 0, 3, 0))
# 5x5, dilation 2, 2 groups of 4 channels, asymmetric padding: runs of
# kernel columns (k = 16: 4 positions, 5 = 3 + 2).
conv_model("conv5x5_d2_g2", ["partition-m=16 partition-n=16 partition-k=16"],
           rand(2, 8, 14, 13), rand(6, 4, 5, 5), rand(6), (1, 2), (2, 1, 3, 2),
           dil=(2, 2), groups=2)
# Constant 80 % zero filter: the transposed kernel (image box rows = pixels).
ws = rand(8, 3, 7, 7).reshape(-1)
ws[rng.permutation(ws.size)[: int(0.8 * ws.size)]] = 0.0
conv_model("conv7x7_c3_sparse", ["partition-m=16 partition-n=16 partition-k=147"],
           rand(1, 3, 19, 17), ws.reshape(8, 3, 7, 7), rand(8), (2, 2), (3, 3, 3, 3),
           const_w=True)

failed = total = 0
with tempfile.TemporaryDirectory() as work:
    for i, (name, tiling, names, args, body, exp, out_shape) in enumerate(MODELS):
        sig = ", ".join(f"%{n}: {ty(v.shape)} {{accel.name = \"{n}\"}}"
                        for n, v in zip(names, args))
        src = os.path.join(work, f"{name}_{i}.mlir")
        with open(src, "w") as f:
            f.write(f"func.func @main({sig}) -> ({ty(out_shape)} {{accel.name = \"r\"}}) {{\n"
                    f"  {body}\n  return %r : {ty(out_shape)}\n}}\n")
        for df, (ar, ac) in COMBOS:
            total += 1
            tag = f"{name} [{tiling}] {df} [{ar},{ac}]"
            mapped = os.path.join(work, f"{name}_{i}.{df}.{ar}{ac}.mlir")
            error = force_mapping(BIN, src, mapped, HW, tiling, df, (ar, ac))
            if error:
                print(f"FAIL {tag}: {error}")
                failed += 1
                continue
            ok = check_single_output(BIN, mapped, work, f"{name}_{i}_{df}_{ar}{ac}",
                                     dict(zip(names, args)), exp, tag, hw=HW)
            failed += not ok
print(f"{total - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
