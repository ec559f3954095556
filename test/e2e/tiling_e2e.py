#!/usr/bin/python3
"""End-to-end numerical tests of the tiling decision (issue 4): matmul /
gemm / batched matmul with split-K, non-divisible shapes (m, n, k not
multiples of 64 nor of the partitions), bias / gemm C, outer-n order and
the naive baselines, on the default and bandwidth-starved presets. Each
case runs accel-opt [--accel-hw=FILE] --select-tiling=<options> (which writes the accel.tiling
attribute the lowering then keeps), checks the attribute (e.g. split_k =
true), compiles with accel-compile --hw, simulates with accel-run --hw
--strict-hazards and compares with numpy. Exits 1 on any failure."""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = {"default": None, "starved": os.path.join(SRC, "hw", "bandwidth-starved.json")}
rng = np.random.default_rng(4)


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


CASES = []


def case(name, hw, opts, expect, body, args, ref, out_shape):
    """expect: regexes the accel.tiling attribute must match."""
    CASES.append((name, hw, opts, expect, body, args, ref, out_shape))


def matmul(name, m, k, n, hw, opts="", expect=(), batch=None):
    a = rand(*((batch,) if batch else ()), m, k)
    b = rand(*((batch,) if batch else ()), k, n)
    out = ((batch,) if batch else ()) + (m, n)
    case(name, hw, opts, expect,
         f"%r = graph.matmul %a, %b : ({ty(a.shape)}, {ty(b.shape)}) -> {ty(out)}",
         [a, b], lambda x, y: x @ y, out)


def gemm(name, m, k, n, hw, opts="", expect=(), c_shape=None, alpha=1.0, beta=1.0):
    a, b = rand(m, k), rand(k, n)
    c = rand(*(c_shape or (n,)))
    case(name, hw, opts, expect,
         f"%r = graph.gemm %a, %b, %c {{alpha = {alpha} : f32, beta = {beta} : f32}} : "
         f"({ty(a.shape)}, {ty(b.shape)}, {ty(c.shape)}) -> {ty((m, n))}",
         [a, b, c], lambda x, y, z: alpha * (x @ y) + beta * z, (m, n))


SPLIT = r"split_k = true"
NOSPLIT = r"split_k = false"
OUTER_N = r'outer = n'
for hw in ("default", "starved"):
    # Split-K chosen by the selection (divisible and not).
    matmul(f"{hw}_split_256x1024x256", 256, 1024, 256, hw, "", [SPLIT])
    # The selection refined under the machine prediction (refine=machine).
    matmul(f"{hw}_refined_256x1024x256", 256, 1024, 256, hw, "refine=machine",
           [r"partition_m = (64|128)"])
    gemm(f"{hw}_refined_gemm_300x500x260", 300, 500, 260, hw, "refine=machine")
    matmul(f"{hw}_split_odd_200x700x300", 200, 700, 300, hw, "", [SPLIT])
    # Forced split-K with a chunk that does not divide k, odd m / n.
    matmul(f"{hw}_forced_split_100x333x77", 100, 333, 77, hw,
           "split-k=on partition-k=128", [SPLIT, r"partition_k = 128"])
    # Split-K with several m and n partitions, none dividing the dimension.
    matmul(f"{hw}_split_parts_150x300x170", 150, 300, 170, hw,
           "partition-m=64 partition-n=64 partition-k=64",
           [SPLIT, r"partition_m = 64", r"partition_n = 64"])
    # Outer-n order, with and without split.
    matmul(f"{hw}_outer_n_130x96x270", 130, 96, 270, hw,
           "outer=n partition-m=64 partition-n=64", [OUTER_N])
    matmul(f"{hw}_outer_n_split_190x500x140", 190, 500, 140, hw,
           "outer=n partition-m=64 partition-n=64 partition-k=128", [OUTER_N, SPLIT])
    # No split: K whole.
    matmul(f"{hw}_nosplit_70x200x90", 70, 200, 90, hw, "split-k=off", [NOSPLIT])
    # Bias (gemm C as a row) and a full C matrix, with split-K.
    gemm(f"{hw}_gemm_bias_split_120x400x100", 120, 400, 100, hw,
         "split-k=on partition-k=128", [SPLIT])
    gemm(f"{hw}_gemm_c_outer_n_split_99x260x130", 99, 260, 130, hw,
         "outer=n partition-m=64 partition-n=64 partition-k=64", [OUTER_N, SPLIT],
         c_shape=(99, 130), alpha=0.5, beta=2.0)
    gemm(f"{hw}_gemm_bias_selected_300x500x200", 300, 500, 200, hw)
    # Batched (count > 1) with split-K.
    matmul(f"{hw}_batched_split_3x80x300x72", 80, 300, 72, hw,
           "split-k=on partition-k=64", [SPLIT], batch=3)
    # Naive baselines (the benchmark's comparisons) stay correct.
    for base in ("naive-order", "naive-64", "square-sk"):
        matmul(f"{hw}_{base}_210x650x190", 210, 650, 190, hw, f"baseline={base}")

failed = 0
with tempfile.TemporaryDirectory() as work:
    for name, hw, opts, expect, body, args, ref, out_shape in CASES:
        names = ["a", "b", "c"][:len(args)]
        sig = ", ".join(f"%{n}: {ty(a.shape)} {{accel.name = \"{n}\"}}"
                        for n, a in zip(names, args))
        mlir = (f"func.func @main({sig}) -> ({ty(out_shape)} {{accel.name = \"r\"}}) {{\n"
                f"  {body}\n  return %r : {ty(out_shape)}\n}}\n")
        src = os.path.join(work, name + ".mlir")
        with open(src, "w") as f:
            f.write(mlir)
        hwfile = HW[hw]
        hw_args = [f"--accel-hw={hwfile}"] if hwfile else []
        tiled = os.path.join(work, name + ".tiled.mlir")
        p = subprocess.run([os.path.join(BIN, "accel-opt"), src] + hw_args +
                           ["--select-tiling" + (f"={opts}" if opts else ""), "-o", tiled],
                           capture_output=True, text=True)
        if p.returncode:
            print(f"FAIL {name}: select-tiling: {p.stderr.strip()}")
            failed += 1
            continue
        attr = re.search(r"accel\.tiling = #accel\.tiling<[^>]*>", open(tiled).read())
        attr = attr.group(0) if attr else ""
        missing = [e for e in expect if not re.search(e, attr)]
        if not attr or missing:
            print(f"FAIL {name}: attribute {attr!r} does not match {missing}")
            failed += 1
            continue
        # --split=labels: this tests select-tiling's and select-mapping's cost
        # model (the cycle and utilisation figures below), not the strategy
        # database's partition (split-strategy-e2e tests that).
        outs, error = compile_and_run(BIN, tiled, work, name, dict(zip(names, args)), ["r"],
                                      hw=hwfile, compile_args=["--split=labels"])
        if error:
            print(f"FAIL {name}: {error}")
            failed += 1
            continue
        got = outs[0].astype(np.float64)
        exp = np.asarray(ref(*[a.astype(np.float64) for a in args]), dtype=np.float64)
        ok = got.shape == exp.shape and np.allclose(got, exp, rtol=1e-4, atol=1e-3)
        err = float(np.max(np.abs(got - exp))) if got.shape == exp.shape else float("inf")
        short = attr[len("accel.tiling = "):]
        print(f"{'PASS' if ok else 'FAIL'} {name} (max error {err:.3g}) {short}")
        failed += not ok
print(f"{len(CASES) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
