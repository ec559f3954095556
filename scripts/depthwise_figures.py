#!/usr/bin/python3
"""Simulated cycles of MobileNet-like depthwise layers (3x3, pad 1, bias +
relu, as after fold-batch-norm) with convert-graph-to-isa depthwise=sw (the
sliding-window weight-queue kernel) vs depthwise=gemm (implicit GEMM per
group). Both results are checked against numpy. Prints markdown tables
(docs/depthwise.md): cycles, and the SW kernel's MAC and DRAM-channel
utilisation (accel-run's stats.json).

usage: depthwise_figures.py BIN_DIR [HW_JSON ...]"""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "e2e"))
from depthwise_e2e_ref import ref  # noqa: E402

BIN = sys.argv[1]
HWS = sys.argv[2:] or [None]
LAYERS = [  # C, H(=W), stride
    (32, 112, 1), (144, 56, 1), (192, 28, 2), (512, 14, 1), (960, 7, 1)]


def ty(shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def run(src, work, tag, mode, hw, inputs):
    binary = os.path.join(work, tag + ".bin")
    hw_args = ["--hw", hw] if hw else []
    subprocess.run([os.path.join(BIN, "accel-compile"), src, "-o", binary, "--depthwise", mode]
                   + hw_args, check=True, capture_output=True)
    out = os.path.join(work, tag + "_out")
    cmd = [os.path.join(BIN, "accel-run"), binary, "--output-dir", out] + hw_args
    for n, a in inputs.items():
        p = os.path.join(work, f"{tag}_{n}.npy")
        np.save(p, a)
        cmd += ["--input", f"{n}={p}"]
    p = subprocess.run(cmd, check=True, capture_output=True, text=True)
    cycles = int(re.search(r"cycles: (\d+)", p.stdout).group(1))
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    util = (stats["mac_utilisation"],
            sum(c["utilisation"] for c in stats["channels"]) / len(stats["channels"]))
    return cycles, np.load(os.path.join(out, "y.npy")), util


rng = np.random.default_rng(5)
for hw in HWS:
    print(f"\nhardware: {os.path.basename(hw) if hw else 'default'}\n")
    print("| layer (C x H x W, 3x3) | stride | gemm cycles | sw cycles | speed-up "
          "| sw kernel alone (pre-padded input) |")
    print("|---|---|---|---|---|---|")
    utils = []
    with tempfile.TemporaryDirectory() as work:
        for c, h, s in LAYERS:
            oh = (h + 2 - 3) // s + 1
            xs, ws, os_ = (1, c, h, h), (c, 1, 3, 3), (1, c, oh, oh)
            text = (f'func.func @main(%x: {ty(xs)} {{accel.name = "x"}}, %w: {ty(ws)} {{accel.name = "w"}}, '
                    f'%b: {ty((c,))} {{accel.name = "b"}}) -> ({ty(os_)} {{accel.name = "y"}}) {{\n'
                    f"  %y = graph.conv2d %x, %w, %b {{groups = {c}, strides = array<i64: {s}, {s}>, "
                    f"pads = array<i64: 1, 1, 1, 1>}} : ({ty(xs)}, {ty(ws)}, {ty((c,))}) -> {ty(os_)}\n"
                    f"  %r = graph.relu %y : {ty(os_)}\n  return %r : {ty(os_)}\n}}\n")
            src = os.path.join(work, f"dw{c}.mlir")
            with open(src, "w") as f:
                f.write(text)
            x = rng.standard_normal(xs).astype(np.float32)
            w = rng.standard_normal(ws).astype(np.float32)
            b = rng.standard_normal((c,)).astype(np.float32)
            exp = ref(x, w, b, (s, s), (1, 1, 1, 1), (1, 1), True)
            res = {}
            for mode in ("gemm", "sw"):
                cyc, got, util = run(src, work, f"dw{c}_{mode}", mode, hw, {"x": x, "w": w, "b": b})
                if not np.allclose(got, exp, rtol=1e-4, atol=1e-4):
                    sys.exit(f"MISMATCH {c}x{h}x{h} s{s} depthwise={mode}")
                res[mode] = cyc
                if mode == "sw":
                    utils.append((c, h, s, util))
            # The SW kernel alone: the same layer on an already padded input
            # (no DRAM -> DRAM padding copy), checked too.
            hp = h + 2
            xps = (1, c, hp, hp)
            text = (f'func.func @main(%x: {ty(xps)} {{accel.name = "x"}}, %w: {ty(ws)} {{accel.name = "w"}}, '
                    f'%b: {ty((c,))} {{accel.name = "b"}}) -> ({ty(os_)} {{accel.name = "y"}}) {{\n'
                    f"  %y = graph.conv2d %x, %w, %b {{groups = {c}, strides = array<i64: {s}, {s}>}} : "
                    f"({ty(xps)}, {ty(ws)}, {ty((c,))}) -> {ty(os_)}\n"
                    f"  %r = graph.relu %y : {ty(os_)}\n  return %r : {ty(os_)}\n}}\n")
            srcp = os.path.join(work, f"dwp{c}.mlir")
            with open(srcp, "w") as f:
                f.write(text)
            xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
            cyc, got, _ = run(srcp, work, f"dwp{c}_sw", "sw", hw, {"x": xp, "w": w, "b": b})
            if not np.allclose(got, exp, rtol=1e-4, atol=1e-4):
                sys.exit(f"MISMATCH {c}x{h}x{h} s{s} pre-padded")
            print(f"| {c} x {h} x {h} | {s} | {res['gemm']} | {res['sw']} | "
                  f"{res['gemm'] / res['sw']:.2f}x | {cyc} |", flush=True)
    # Where the SW kernel's time goes: MAC array vs DRAM channels.
    print("\n| layer (C x H x W, 3x3) | stride | sw: MAC utilisation | sw: DRAM channel utilisation (mean) |")
    print("|---|---|---|---|")
    for c, h, s, (mac, chan) in utils:
        print(f"| {c} x {h} x {h} | {s} | {100 * mac:.1f} % | {100 * chan:.1f} % |")
