#!/usr/bin/python3
"""End-to-end tests of sparse constant weights under every (dataflow, array
partition) pair of accel.mapping (27): a gemm with a constant, 80 % zero B
and a bias, and a strided / padded / dilated / grouped convolution with a
constant, 80 % zero filter, bias and fused ReLU (the transposed implicit
GEMM with the filter in the weight queue), with small forced tiles (several
K chunks and N tiles; shapes nothing divides). Each case runs accel-opt
--select-tiling=<tiles> --select-mapping="dataflow=.. array=..", compiles
with the default --sparse-weights=auto, simulates with accel-run
--strict-hazards, compares with numpy (rtol 1e-4) and checks that MACs were
skipped (the sparse lists were used; not for the convolution under [M,M],
whose tiny tiles are too dense for their regions). Exits 1 on any
failure.
Usage: sparse_mapping_e2e.py BIN_DIR"""
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run, conv_ref, force_mapping, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-block16.json")
rng = np.random.default_rng(9)
DATAFLOWS = ["input_stationary", "output_stationary", "weight_stationary"]
ARRAYS = [(r, c) for r in "MNK" for c in "MNK"]


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def sparse(*shape, zeros=0.8):
    w = rand(*shape).reshape(-1)
    w[rng.permutation(w.size)[: int(round(zeros * w.size))]] = 0.0
    return w.reshape(shape)


def const(name, v):
    return (f'%{name} = arith.constant dense<"0x{v.astype("<f4").tobytes().hex().upper()}"> '
            f": {ty(v.shape)}")


MODELS = []
# Gemm with a constant sparse B and a constant bias.
a, b, c = rand(29, 150), sparse(150, 70), rand(70)
MODELS.append(("gemm_bias_29x150x70", "partition-m=16 partition-n=32 partition-k=32", [a],
               f"{const('b', b)}\n  {const('c', c)}\n"
               f"  %r = graph.gemm %a, %b, %c : ({ty(a.shape)}, {ty(b.shape)}, {ty(c.shape)}) "
               f"-> {ty((29, 70))}",
               a.astype(np.float64) @ b + c, (29, 70)))
# Convolution: stride 2, asymmetric padding, dilation, 2 groups, bias, ReLU.
x, w, bias = rand(2, 6, 13, 11), sparse(10, 3, 3, 3), rand(10)
oh, ow = (13 + 1 + 2 - 2 * 2 - 1) // 2 + 1, (11 + 1 + 1 - 2 * 2 - 1) // 2 + 1
MODELS.append(("conv_s2_p_d2_g2_relu", "partition-m=16 partition-n=16 partition-k=16", [x],
               f"{const('b', w)}\n  {const('c', bias)}\n"
               f"  %y = graph.conv2d %a, %b, %c {{strides = array<i64: 2, 2>, "
               f"pads = array<i64: 1, 1, 2, 1>, dilations = array<i64: 2, 2>, groups = 2 : i64}} : "
               f"({ty(x.shape)}, {ty(w.shape)}, {ty(bias.shape)}) -> {ty((2, 10, oh, ow))}\n"
               f"  %r = graph.relu %y : {ty((2, 10, oh, ow))}",
               np.maximum(conv_ref(x, w, bias, (2, 2), (1, 1, 2, 1), (2, 2), 2), 0),
               (2, 10, oh, ow)))

failed = total = 0
with tempfile.TemporaryDirectory() as work:
    for name, tiling, args, body, exp, out_shape in MODELS:
        src = os.path.join(work, name + ".mlir")
        with open(src, "w") as f:
            f.write(f"func.func @main(%a: {ty(args[0].shape)} {{accel.name = \"a\"}}) -> "
                    f"({ty(out_shape)} {{accel.name = \"r\"}}) {{\n"
                    f"  {body}\n  return %r : {ty(out_shape)}\n}}\n")
        for df in DATAFLOWS:
            for ar, ac in ARRAYS:
                total += 1
                tag = f"{name} {df} [{ar},{ac}]"
                mapped = os.path.join(work, f"{name}.{df}.{ar}{ac}.mlir")
                error = force_mapping(BIN, src, mapped, HW, tiling, df, (ar, ac))
                if error:
                    print(f"FAIL {tag}: {error}")
                    failed += 1
                    continue
                run = f"{name}_{df}_{ar}{ac}"
                outs, error = compile_and_run(BIN, mapped, work, run, {"a": args[0]}, ["r"],
                                              hw=HW)
                if error:
                    print(f"FAIL {tag}: {error}")
                    failed += 1
                    continue
                with open(os.path.join(work, run + "_out", "stats.json")) as f:
                    skipped = json.load(f)["skipped_macs"]
                got = outs[0].astype(np.float64)
                # [M,M] gives each cluster 1-2 of a group's 5 output
                # channels; with K chunks of 3 channels (one kernel
                # position) a 3 x 1 tile holds 1 pair, so any tile with 2
                # non-zeros does not fit and the layer stays dense.
                want_sparse = not (name.startswith("conv") and (ar, ac) == ("M", "M"))
                ok = (got.shape == exp.shape and np.allclose(got, exp, rtol=1e-4, atol=1e-3)
                      and (skipped > 0) == want_sparse)
                err = float(np.max(np.abs(got - exp))) if got.shape == exp.shape else float("inf")
                print(f"{'PASS' if ok else 'FAIL'} {tag} (max error {err:.3g}, "
                      f"skipped MACs {skipped})")
                failed += not ok
print(f"{total - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
