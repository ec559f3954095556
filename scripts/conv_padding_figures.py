#!/usr/bin/python3
"""Simulated cycles, DRAM bytes and DMA counts of padded convolutions with
--conv-padding=copy (a zero-padded copy of the input in DRAM first, per
cluster bands under accel.mapping) vs --conv-padding=window (the padding
zero-filled in the image tiles, docs/passes.md graph.conv2d), and which of
the two the default --conv-padding=auto picks: the 3x3 / 7x7
convolutions of ResNet-18 and MobileNet at 224x224 .. 28x28, batch 1, bias,
compiled with accel-compile (default pipeline), simulated with accel-run
--strict-hazards and checked against numpy. Prints one markdown table per
hardware file.

usage: conv_padding_figures.py BIN_DIR [hw.json ...]   (none = built-in default)"""
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
    ("ResNet-18 conv1 3->64 7x7 s2, 224", 3, 64, 224, 7, 2, 3),
    ("MobileNet conv1 3->32 3x3 s2, 224", 3, 32, 224, 3, 2, 1),
    ("32->64 3x3, 112", 32, 64, 112, 3, 1, 1),
    ("ResNet-18 64->64 3x3, 56", 64, 64, 56, 3, 1, 1),
    ("ResNet-18 64->128 3x3 s2, 56", 64, 128, 56, 3, 2, 1),
    ("ResNet-18 128->128 3x3, 28", 128, 128, 28, 3, 1, 1),
]
MODES = ("copy", "window", "auto")


def ty(s):
    return "tensor<" + "".join(f"{d}x" for d in s) + "f32>"


def dmas(stats):
    return sum(c["dma_transfers"] for c in stats["clusters"])


rng = np.random.default_rng(0)
bad = 0
with tempfile.TemporaryDirectory() as work:
    for hw in HWS:
        print(f"\n**{os.path.basename(hw) if hw else 'default'}**\n")
        print("| layer | cycles copy | cycles window | window / copy | auto picks "
              "| DRAM MB copy | DRAM MB window | DMAs copy | DMAs window |")
        print("|---|---|---|---|---|---|---|---|---|")
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
            exp = conv_ref(x.astype(np.float64), w.astype(np.float64), b, (s, s),
                           (p, p, p, p), (1, 1), 1)
            st = {}
            for mode in MODES:
                name = f"{mode}_{ci}_{co}_{h}_{k}_{s}"
                outs, err = compile_and_run(BIN, src, work, name, {"x": x, "w": w, "b": b},
                                            ["y"], hw=hw,
                                            compile_args=[f"--conv-padding={mode}"])
                if err or not np.allclose(outs[0], exp, rtol=1e-3, atol=1e-3):
                    print(f"FAIL {label} {mode}: {err or 'wrong values'}")
                    bad += 1
                    continue
                with open(os.path.join(work, name + "_out", "stats.json")) as f:
                    st[mode] = json.load(f)
            if len(st) != len(MODES):
                continue
            c, wd, au = st["copy"], st["window"], st["auto"]
            pick = ("window" if au["cycles"] == wd["cycles"] else
                    "copy" if au["cycles"] == c["cycles"] else "?")
            mb = {m: (st[m]["dram_bytes_read"] + st[m]["dram_bytes_written"]) / 1e6
                  for m in MODES}
            print(f"| {label} | {c['cycles']} | {wd['cycles']} | "
                  f"{wd['cycles'] / c['cycles']:.3f} | {pick} | {mb['copy']:.2f} | "
                  f"{mb['window']:.2f} | {dmas(c)} | {dmas(wd)} |")
sys.exit(1 if bad else 0)
