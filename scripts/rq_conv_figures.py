#!/usr/bin/python3
"""Simulated cycles of regular convolutions with --conv=gemm vs --conv=rq
(docs/depthwise.md "Regular convolutions with RQ"): ResNet-like layers,
batch 1, bias, compiled with accel-compile (default pipeline), simulated
with accel-run and checked against numpy. Prints two markdown tables per
hardware file: cycles, and DRAM bytes read (accel-run's stats.json).

usage: rq_conv_figures.py BIN_DIR [hw.json ...]   (none = built-in default)"""
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "e2e"))
from e2e_common import compile_and_run, conv_ref  # noqa: E402

BIN = sys.argv[1]
HWS = sys.argv[2:] or [None]
# (label, Cin, Cout, H = W, K, stride, pad)
LAYERS = [
    ("64 -> 64, 3x3, 56x56", 64, 64, 56, 3, 1, 1),
    ("128 -> 128, 3x3, 28x28", 128, 128, 28, 3, 1, 1),
    ("256 -> 256, 3x3, 14x14", 256, 256, 14, 3, 1, 1),
    ("512 -> 512, 3x3, 7x7", 512, 512, 7, 3, 1, 1),
    ("64 -> 128, 3x3 s2, 56x56", 64, 128, 56, 3, 2, 1),
    ("256 -> 64, 1x1, 56x56", 256, 64, 56, 1, 1, 0),
]


def ty(s):
    return "tensor<" + "".join(f"{d}x" for d in s) + "f32>"


rng = np.random.default_rng(0)
bad = 0
with tempfile.TemporaryDirectory() as work:
    for hw in HWS:
        print(f"\n**{os.path.basename(hw) if hw else 'default'}**\n")
        print("| layer | gemm cycles | rq cycles | rq / gemm |")
        print("|---|---|---|---|")
        dram = []
        for label, ci, co, h, k, s, p in LAYERS:
            oh = (h + 2 * p - k) // s + 1
            xs, ws, os_ = (1, ci, h, h), (co, ci, k, k), (1, co, oh, oh)
            src = os.path.join(work, f"l{ci}_{co}_{h}_{k}_{s}.mlir")
            with open(src, "w") as f:
                f.write(f'func.func @main(%x: {ty(xs)} {{accel.name = "x"}}, '
                        f'%w: {ty(ws)} {{accel.name = "w"}}, %b: {ty((co,))} {{accel.name = "b"}}) '
                        f'-> ({ty(os_)} {{accel.name = "y"}}) {{\n'
                        f'  %y = graph.conv2d %x, %w, %b {{groups = 1, strides = array<i64: {s}, {s}>, '
                        f'pads = array<i64: {p}, {p}, {p}, {p}>, dilations = array<i64: 1, 1>}} : '
                        f'({ty(xs)}, {ty(ws)}, {ty((co,))}) -> {ty(os_)}\n  return %y : {ty(os_)}\n}}\n')
            x = rng.standard_normal(xs).astype(np.float32)
            w = (rng.standard_normal(ws) * 0.1).astype(np.float32)
            b = rng.standard_normal(co).astype(np.float32)
            exp = conv_ref(x.astype(np.float64), w.astype(np.float64), b, (s, s), (p, p, p, p), (1, 1), 1)
            cyc, mb = {}, {}
            for mode in ("gemm", "rq"):
                name = f"l{ci}_{co}_{h}_{k}_{s}_{mode}"
                outs, err = compile_and_run(BIN, src, work, name, {"x": x, "w": w, "b": b}, ["y"],
                                            hw=hw, compile_args=["--conv", mode])
                if err or not np.allclose(outs[0], exp, rtol=1e-4, atol=1e-3):
                    bad += 1
                    cyc[mode] = None
                    print(f"MISMATCH {label} conv={mode}: {err}", file=sys.stderr)
                    continue
                with open(os.path.join(work, name + "_out", "stats.json")) as f:
                    stats = json.load(f)
                cyc[mode] = stats["cycles"]
                mb[mode] = stats["dram_bytes_read"] / 1e6
            g, r = cyc["gemm"], cyc["rq"]
            ratio = f"{r / g:.2f}" if g and r else "-"
            print(f"| {label} | {g} | {r} | {ratio} |")
            dram.append((label, mb.get("gemm"), mb.get("rq")))
        print("\n| layer | gemm: DRAM MB read | rq: DRAM MB read |")
        print("|---|---|---|")
        for label, g, r in dram:
            print(f"| {label} | {g:.1f} | {r:.1f} |" if g and r else f"| {label} | - | - |")
sys.exit(1 if bad else 0)
