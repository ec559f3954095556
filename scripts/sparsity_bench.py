#!/usr/bin/python3
"""Sparsity benchmark through the compiler (issue 5, items 4-5): builds
real-sized layers with constant weights pruned to 0..90 % zeros as ONNX
models, compiles each with accel-compile (default pipeline, --sparse-weights
auto / off, --load-balance on / off) and simulates it with accel-run; prints
a markdown table of simulated cycles, skipped MACs and whether the output
equals the dense build's bit for bit.

Layers: a 4096 -> 4096 FC (Gemm + bias + Relu, batch --batch) and the
ResNet-50 layer3 3x3 convolution (256 -> 256 channels, 14x14, pad 1, bias,
Relu).
Usage: sparsity_bench.py BIN_DIR [--hw FILE] [--batch N] [--threshold F]
                         [--sparsities 0,50,90] [--conv-sparsities ...]
                         [--quick]"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ap = argparse.ArgumentParser()
ap.add_argument("bin")
ap.add_argument("--hw", default=None)
ap.add_argument("--batch", type=int, default=16)
ap.add_argument("--threshold", type=float, default=0.5)
ap.add_argument("--sparsities", default="0,10,30,50,60,70,80,90",
                help="weight zero percentages, comma separated")
ap.add_argument("--conv-sparsities", default=None,
                help="for the convolution (default: --sparsities)")
ap.add_argument("--quick", action="store_true")
args = ap.parse_args()
rng = np.random.default_rng(7)


def percents(text):
    return [int(v) / 100.0 for v in text.split(",")]


SPARSITIES = [0.0, 0.5, 0.9] if args.quick else percents(args.sparsities)
CONV_SPARSITIES = (SPARSITIES if args.quick or not args.conv_sparsities
                   else percents(args.conv_sparsities))


def prune(w, s):
    flat = w.reshape(-1).copy()
    flat[rng.permutation(flat.size)[: int(round(s * flat.size))]] = 0.0
    return flat.reshape(w.shape)


def save(nodes, name, x_shape, y_shape, inits, path):
    g = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def run(model, work, name, x, flags):
    hw = ["--hw", args.hw] if args.hw else []
    binary = os.path.join(work, name + ".bin")
    t0 = time.time()
    # Input bands sum a convolution's K chunks band by band (another order
    # than the weight-queue kernel's), so every run goes without them: the
    # columns compare sparsity alone, bit for bit.
    subprocess.run([os.path.join(args.bin, "accel-compile"), model, "-o", binary] + hw +
                   ["--conv-bands=off"] + flags, check=True)
    t1 = time.time()
    xp = os.path.join(work, "x.npy")
    np.save(xp, x)
    out = os.path.join(work, name + "_out")
    subprocess.run([os.path.join(args.bin, "accel-run"), binary, "--input", "x=" + xp,
                    "--output-dir", out] + hw, check=True, capture_output=True)
    with open(os.path.join(out, "stats.json")) as f:
        st = json.load(f)
    return np.load(os.path.join(out, "y.npy")), st, t1 - t0


def layer(title, build, x, sparsities):
    print(f"\n{title}")
    print("| weight zeros % | dense cycles | sparse-weights=auto cycles | auto + load balance "
          "| speed-up | skipped MACs | effective MACs | identical |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for s in sparsities:
            model = os.path.join(work, "m.onnx")
            build(s, model)
            thr = [f"--sparse-threshold={args.threshold}"]
            yd, sd, _ = run(model, work, "dense", x, ["--sparse-weights=off"])
            ya, sa, _ = run(model, work, "auto", x, thr)
            yl, sl, _ = run(model, work, "lb", x, thr + ["--load-balance"])
            same = np.array_equal(yd, ya) and np.array_equal(yd, yl)
            print(f"| {int(s * 100)} | {sd['cycles']} | {sa['cycles']} | {sl['cycles']} | "
                  f"{sd['cycles'] / sl['cycles']:.2f}x | {sl['skipped_macs']} | "
                  f"{sl['effective_macs']} | {'yes' if same else 'NO'} |", flush=True)
            if not same:
                sys.exit(1)


B = args.batch
fc_x = rng.standard_normal((B, 4096)).astype(np.float32)


def fc(s, path):
    w = prune(rng.standard_normal((4096, 4096)).astype(np.float32) * 0.02, s)
    b = rng.standard_normal(4096).astype(np.float32)
    save([helper.make_node("Gemm", ["x", "w", "b"], ["y0"]),
          helper.make_node("Relu", ["y0"], ["y"])], "fc", [B, 4096], [B, 4096],
         [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")], path)


conv_x = rng.standard_normal((1, 256, 14, 14)).astype(np.float32)


def conv(s, path):
    w = prune(rng.standard_normal((256, 256, 3, 3)).astype(np.float32) * 0.02, s)
    b = rng.standard_normal(256).astype(np.float32)
    save([helper.make_node("Conv", ["x", "w", "b"], ["y0"], pads=[1, 1, 1, 1]),
          helper.make_node("Relu", ["y0"], ["y"])], "conv", [1, 256, 14, 14],
         [1, 256, 14, 14],
         [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")], path)


print(f"hardware: {args.hw or 'built-in default (hw/default.json)'}; "
      f"sparse-threshold {args.threshold}")
layer(f"FC 4096 -> 4096, batch {B} (Gemm + bias + Relu)", fc, fc_x, SPARSITIES)
layer("ResNet-50 layer3 conv 3x3, 256 -> 256, 14x14, pad 1 (+ bias + Relu)", conv, conv_x,
      CONV_SPARSITIES)
