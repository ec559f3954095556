#!/usr/bin/python3
"""End-to-end numerical tests of the mapping (issue 5, items 1-2): every one
of the 27 (dataflow, array partition) pairs (and the 21 with an unsplit
grid dimension; on batched matmuls also the 21 with the batch dimension B)
on a matmul, a gemm with a bias
row and alpha, a batched matmul, a batched matmul with a broadcast operand, a strided / padded / dilated / grouped
convolution with bias and fused ReLU, a matmul with fused ReLU, a gemm on a
3 x 2 grid, and a matmul with select-tiling's own (split-K) tiles on the
bandwidth-starved machine, all with
shapes that neither the tiles nor the 2 x 2 grid divide (hardware: the
default machine with 16-element blocks, test/e2e/Inputs/mapping-block16.json,
so that small forced tiles are legal). Each case runs
accel-opt --select-tiling=<small tiles> --select-mapping="dataflow=.. array=..",
checks the accel.mapping attribute, compiles, simulates with
accel-run --strict-hazards and compares with numpy. Exits 1 on any failure.
Usage: mapping_e2e.py BIN_DIR [--quick]"""
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import check_single_output, conv_ref, force_mapping, ty  # noqa: E402

BIN = sys.argv[1]
QUICK = "--quick" in sys.argv
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-block16.json")
rng = np.random.default_rng(5)
DATAFLOWS = ["input_stationary", "output_stationary", "weight_stationary"]
# The spec's nine, then the seven that leave a grid dimension unsplit
# ("none": only its first clusters work).
ARRAYS = [(r, c) for r in "MNK" for c in "MNK"] + [
    (r, c) for r in ("M", "N", "K", "none") for c in ("M", "N", "K", "none")
    if "none" in (r, c)]
# Batched matmuls also take the seven with the batch dimension B (whole
# instances per cluster).
BATCH_ARRAYS = [("B", c) for c in ("B", "M", "N", "none")] + [
    (r, "B") for r in ("M", "N", "none")]


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


MODELS = []
HW3x2 = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-grid3x2.json")


def model(name, tiling, args, body, ref, out_shape, hw=HW, arrays=ARRAYS):
    MODELS.append((name, tiling, args, body, ref, out_shape, hw, arrays))


# Matmul, nothing divides: 2 x 2 grid slices of 37 / 45 / 333, tiles 16.
a, b = rand(37, 333), rand(333, 45)
model("matmul_37x333x45", "partition-m=16 partition-n=16 partition-k=64", [a, b],
      f"%r = graph.matmul %a, %b : ({ty(a.shape)}, {ty(b.shape)}) -> {ty((37, 45))}",
      lambda x, y: x @ y, (37, 45))
# Gemm with a bias row and alpha (bias initialises K part 0 only).
a, b, c = rand(29, 150), rand(150, 70), rand(70)
model("gemm_bias_29x150x70", "partition-m=16 partition-n=32 partition-k=32", [a, b, c],
      f"%r = graph.gemm %a, %b, %c {{alpha = 0.5 : f32, beta = 1.0 : f32}} : "
      f"({ty(a.shape)}, {ty(b.shape)}, {ty(c.shape)}) -> {ty((29, 70))}",
      lambda x, y, z: 0.5 * (x @ y) + z, (29, 70))
# Fused ReLU (applied by the combine layer under a K split).
a, b = rand(20, 130), rand(130, 33)
model("matmul_relu_20x130x33", "partition-m=16 partition-n=16 partition-k=32", [a, b],
      f"%m = graph.matmul %a, %b : ({ty(a.shape)}, {ty(b.shape)}) -> {ty((20, 33))}\n"
      f"  %r = graph.relu %m : {ty((20, 33))}",
      lambda x, y: np.maximum(x @ y, 0), (20, 33))
# Batched matmul (count 2).
a, b = rand(2, 18, 70), rand(2, 70, 21)
model("batched_2x18x70x21", "partition-m=16 partition-n=16 partition-k=32", [a, b],
      f"%r = graph.matmul %a, %b : ({ty(a.shape)}, {ty(b.shape)}) -> {ty((2, 18, 21))}",
      lambda x, y: x @ y, (2, 18, 21), arrays=ARRAYS + BATCH_ARRAYS)
# Batched matmul, 5 instances (the 2 x 2 grid does not divide them; [B,B]
# gives cluster 0 two), the right operand broadcast over the batch.
a, b = rand(5, 19, 40), rand(40, 23)
model("batched_bcast_5x19x40x23", "partition-m=16 partition-n=16 partition-k=16", [a, b],
      f"%r = graph.matmul %a, %b : ({ty(a.shape)}, {ty(b.shape)}) -> {ty((5, 19, 23))}",
      lambda x, y: x @ y, (5, 19, 23), arrays=BATCH_ARRAYS)
# Convolution: stride 2, asymmetric padding, dilation, 2 groups, bias, ReLU.
x, w, bias = rand(2, 6, 13, 11), rand(10, 3, 3, 3), rand(10)
oh, ow = (13 + 1 + 2 - 2 * 2 - 1) // 2 + 1, (11 + 1 + 1 - 2 * 2 - 1) // 2 + 1
model("conv_s2_p_d2_g2_relu", "partition-m=16 partition-n=16 partition-k=16", [x, w, bias],
      f"%y = graph.conv2d %a, %b, %c {{strides = array<i64: 2, 2>, "
      f"pads = array<i64: 1, 1, 2, 1>, dilations = array<i64: 2, 2>, groups = 2 : i64}} : "
      f"({ty(x.shape)}, {ty(w.shape)}, {ty(bias.shape)}) -> {ty((2, 10, oh, ow))}\n"
      f"  %r = graph.relu %y : {ty((2, 10, oh, ow))}",
      lambda x, w, b: np.maximum(conv_ref(x, w, b, (2, 2), (1, 1, 2, 1), (2, 2), 2), 0),
      (2, 10, oh, ow))

# A 3 x 2 grid: three K parts per column ([K,M]), six for [K,K] (one add
# layer across each row, then two across the rows).
a, b, c = rand(23, 200), rand(200, 41), rand(41)
model("grid3x2_gemm_bias_23x200x41", "partition-m=16 partition-n=16 partition-k=32",
      [a, b, c],
      f"%r = graph.gemm %a, %b, %c : ({ty(a.shape)}, {ty(b.shape)}, {ty((41,))}) -> {ty((23, 41))}",
      lambda x, y, z: x @ y + z, (23, 41), hw=HW3x2)

# Realistic tiles: select-tiling's own decision (split-K chunks of 128) on
# the bandwidth-starved machine, 300x700x260.
a, b = rand(300, 700), rand(700, 260)
model("starved_selected_300x700x260", "", [a, b],
      f"%r = graph.matmul %a, %b : ({ty(a.shape)}, {ty(b.shape)}) -> {ty((300, 260))}",
      lambda x, y: x @ y, (300, 260), hw=os.path.join(SRC, "hw", "bandwidth-starved.json"))

failed = total = 0
with tempfile.TemporaryDirectory() as work:
    for name, tiling, args, body, ref, out_shape, hw, arrays in MODELS:
        names = ["a", "b", "c"][:len(args)]
        sig = ", ".join(f"%{n}: {ty(v.shape)} {{accel.name = \"{n}\"}}"
                        for n, v in zip(names, args))
        src = os.path.join(work, name + ".mlir")
        with open(src, "w") as f:
            f.write(f"func.func @main({sig}) -> ({ty(out_shape)} {{accel.name = \"r\"}}) {{\n"
                    f"  {body}\n  return %r : {ty(out_shape)}\n}}\n")
        exp = np.asarray(ref(*[v.astype(np.float64) for v in args]), dtype=np.float64)
        combos = [(d, a) for d in DATAFLOWS for a in arrays]
        if QUICK:
            combos = combos[::4]
        for df, (ar, ac) in combos:
            total += 1
            tag = f"{name} {df} [{ar},{ac}]"
            mapped = os.path.join(work, f"{name}.{df}.{ar}{ac}.mlir")
            error = force_mapping(BIN, src, mapped, hw, tiling, df, (ar, ac))
            if error:
                print(f"FAIL {tag}: {error}")
                failed += 1
                continue
            text = open(mapped).read()
            want = f'accel.mapping = #accel.mapping<dataflow = {df}, array = [{ar}, {ac}], cycles = '
            if want not in text:
                print(f"FAIL {tag}: attribute not as forced")
                failed += 1
                continue
            ok = check_single_output(BIN, mapped, work, f"{name}_{df}_{ar}{ac}",
                                     dict(zip(names, args)), exp, tag, hw=hw, atol=1e-3)
            failed += not ok
print(f"{total - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
