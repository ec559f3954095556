#!/usr/bin/python3
"""End-to-end numerical test of split-strategy's partition (issue 11, item 4:
accel.mapping ranges from the labels' split): a matmul split on K (model
parallel: the weight's reduction dim), on M (data parallel: the input's
rows), a gemm with bias, a convolution split on output channels (model:
the weight's n) and on output rows (data: the input's h), on 1 x 1, 2 x 2
and 4 x 4 grids. Each model is labelled and split with
accel-opt --tensor-labeling --split-strategy=parallel=..., the partition
(array [D, D] and its ranges) is checked, then compiled with accel-compile,
simulated with accel-run --strict-hazards and compared with numpy and with
the same model compiled without the split decision.
Usage: split_strategy_e2e.py BIN_DIR"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run, conv_ref, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
rng = np.random.default_rng(11)


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def module(args, body, out_shape):
    names = "abc"
    params = ", ".join(f'%{names[i]}: {ty(a.shape)} {{accel.name = "{names[i]}"}}'
                       for i, a in enumerate(args))
    return (f"func.func @main({params}) -> ({ty(out_shape)} {{accel.name = \"y\"}}) {{\n"
            f"  {body}\n  return %r : {ty(out_shape)}\n}}\n")


a, b = rand(37, 333), rand(333, 45)
c = rand(45)
x, w, bias = rand(1, 24, 13, 11), rand(20, 24, 3, 3), rand(20)
oh, ow = 13, 11
MODELS = [
    ("matmul_model_K", "model", "K", [a, b],
     f"%r = graph.matmul %a, %b : ({ty(a.shape)}, {ty(b.shape)}) -> {ty((37, 45))}",
     lambda p, q: p @ q, (37, 45)),
    ("matmul_data_M", "data", "M", [a, b],
     f"%r = graph.matmul %a, %b : ({ty(a.shape)}, {ty(b.shape)}) -> {ty((37, 45))}",
     lambda p, q: p @ q, (37, 45)),
    ("gemm_bias_model_K", "model", "K", [a, b, c],
     f"%r = graph.gemm %a, %b, %c : ({ty(a.shape)}, {ty(b.shape)}, {ty(c.shape)}) -> {ty((37, 45))}",
     lambda p, q, s: p @ q + s, (37, 45)),
    ("conv_model_M", "model", "M", [x, w, bias],
     f"%r = graph.conv2d %a, %b, %c {{pads = array<i64: 1, 1, 1, 1>}} : "
     f"({ty(x.shape)}, {ty(w.shape)}, {ty(bias.shape)}) -> {ty((1, 20, oh, ow))}",
     lambda p, q, s: conv_ref(p, q, s, (1, 1), (1, 1, 1, 1), (1, 1), 1), (1, 20, oh, ow)),
    ("conv_data_N", "data", "N", [x, w, bias],
     f"%r = graph.conv2d %a, %b, %c {{pads = array<i64: 1, 1, 1, 1>}} : "
     f"({ty(x.shape)}, {ty(w.shape)}, {ty(bias.shape)}) -> {ty((1, 20, oh, ow))}",
     lambda p, q, s: conv_ref(p, q, s, (1, 1), (1, 1, 1, 1), (1, 1), 1), (1, 20, oh, ow)),
]

passed = failed = 0
with tempfile.TemporaryDirectory() as work:
    for g in (1, 2, 4):
        hw = os.path.join(SRC, "test", "e2e", "Inputs", f"split-grid{g}x{g}.json")
        for name, parallel, dim, args, body, ref, out_shape in MODELS:
            tag = f"{name} [{g}x{g}]"
            src = os.path.join(work, f"{name}_{g}.mlir")
            with open(src, "w") as f:
                f.write(module(args, body, out_shape))
            split = os.path.join(work, f"{name}_{g}_split.mlir")
            p = subprocess.run([os.path.join(BIN, "accel-opt"), src, f"--accel-hw={hw}",
                                "--tensor-labeling", f"--split-strategy=parallel={parallel}",
                                "-o", split], capture_output=True, text=True)
            if p.returncode:
                print(f"FAIL {tag}: split-strategy: {p.stderr.strip()}")
                failed += 1
                continue
            text = open(split).read()
            m = re.search(r"accel.mapping = #accel.mapping<ranges = \[([0-9, ]+)\], "
                          r"array = \[(\w), (\w)\]>", text)
            # One memory channel (1 x 1): the input's batch n (D = 1 >= M = 1)
            # is the target dim, not a GEMM dim: no split decision.
            no_decision = g == 1 and name == "conv_data_N"
            if no_decision and m:
                print(f"FAIL {tag}: expected no split decision, got {m.group(0)}")
                failed += 1
                continue
            if not no_decision and (not m or m.group(2) != dim or m.group(3) != dim):
                print(f"FAIL {tag}: expected a [{dim}, {dim}] split decision, got "
                      f"{m.group(0) if m else 'none'}")
                failed += 1
                continue
            ranges = [int(v) for v in m.group(1).split(",")] if m else "none (batch split)"
            inputs = {"abc"[i]: arr for i, arr in enumerate(args)}
            # The split module already carries the labels and the partition:
            # --split=off compiles it as it is. The baseline is the cost
            # model's partition (--split=labels), i.e. without the decision.
            got, err = compile_and_run(BIN, split, work, f"{name}_{g}_s", inputs, ["y"], hw=hw,
                                       compile_args=["--split=off"])
            base, err2 = compile_and_run(BIN, src, work, f"{name}_{g}_u", inputs, ["y"], hw=hw,
                                         compile_args=["--split=labels"])
            if err or err2:
                print(f"FAIL {tag}: {err or err2}")
                failed += 1
                continue
            want = ref(*[arr.astype(np.float64) for arr in args])
            e = float(np.max(np.abs(got[0] - want)))
            d = float(np.max(np.abs(got[0] - base[0])))
            if got[0].shape != want.shape or e > 1e-3 or d > 1e-3:
                print(f"FAIL {tag} ranges {ranges}: max error {e:.3g}, vs unsplit {d:.3g}")
                failed += 1
                continue
            print(f"PASS {tag} ranges {ranges} (max error {e:.3g}, vs unsplit {d:.3g})")
            passed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
