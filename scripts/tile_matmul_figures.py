#!/usr/bin/python3
"""Simulated cycles of one matmul under several select-tiling decisions
(docs/tiling.md, "First simulator figures" and "One partition, one
cluster"): the spec's selection, a forced split-K mapping, the naive
baselines and refine=machine, each lowered twice: by the default pipeline
(accel-compile: select-mapping then the mapped kernel) and without
select-mapping (select-tiling + convert-graph-to-isa: the kernel that deals
partitions over the clusters). Every result is checked against numpy.

usage: tile_matmul_figures.py BIN_DIR [--hw FILE] [--shape MxKxN]
       (defaults: hw/bandwidth-starved.json, 256x1024x256)"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("bin")
ap.add_argument("--hw", default="hw/bandwidth-starved.json")
ap.add_argument("--shape", default="256x1024x256")
args = ap.parse_args()
m, k, n = (int(v) for v in args.shape.split("x"))
VARIANTS = [  # label, select-tiling options
    ("selected (spec procedure)", ""),
    ("forced split-K 128x128x128", "partition-m=128 partition-n=128 partition-k=128 split-k=on"),
    ("naive-order", "baseline=naive-order"),
    ("naive-64", "baseline=naive-64"),
    ("refine=machine", "refine=machine"),
]


def tool(name, *a):
    return subprocess.run([os.path.join(args.bin, name)] + list(a), check=True,
                          capture_output=True, text=True).stdout


def field(text, key):
    # A field of the op's #accel.tiling<...> (the module's #accel.hw has
    # fields with the same endings, e.g. latency_cycles).
    tiling = re.search(r"#accel\.tiling<([^>]*)>", text)
    text = tiling.group(1) if tiling else ""
    mm = re.search(r"\b" + key + r" = (\w+|\"\w+\")", text)
    return mm.group(1).strip('"') if mm else "?"


rng = np.random.default_rng(1)
a = rng.standard_normal((m, k)).astype(np.float32)
b = rng.standard_normal((k, n)).astype(np.float32)
exp = a.astype(np.float64) @ b.astype(np.float64)
print(f"matmul {m}x{k}x{n} f32 on {os.path.basename(args.hw)}\n")
print("| tiling | partition m x n x k | split-K | modelled cycles (one cluster) "
      "| simulated, default pipeline (mapped) | simulated, without select-mapping (dealt) |")
print("|---|---|---|---|---|---|")
with tempfile.TemporaryDirectory() as work:
    src = os.path.join(work, "mm.mlir")
    t = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    with open(src, "w") as f:
        f.write(f'func.func @main(%a: {t[0]} {{accel.name = "a"}}, %b: {t[1]} {{accel.name = "b"}}) '
                f'-> ({t[2]} {{accel.name = "c"}}) {{\n'
                f"  %c = graph.matmul %a, %b : ({t[0]}, {t[1]}) -> {t[2]}\n  return %c : {t[2]}\n}}\n")
    inputs = []
    for name, arr in (("a", a), ("b", b)):
        p = os.path.join(work, name + ".npy")
        np.save(p, arr)
        inputs += ["--input", f"{name}={p}"]

    def simulate(binary):
        out = os.path.join(work, "out")
        tool("accel-run", binary, "--hw", args.hw, "--strict-hazards", "--output-dir", out, *inputs)
        if not np.allclose(np.load(os.path.join(out, "c.npy")), exp, rtol=1e-4, atol=1e-3):
            sys.exit(f"MISMATCH {binary}")
        with open(os.path.join(out, "stats.json")) as f:
            return json.load(f)["cycles"]

    for label, opts in VARIANTS:
        tiled = os.path.join(work, "tiled.mlir")
        text = tool("accel-opt", src, f"--accel-hw={args.hw}",
                    f"--select-tiling={opts}" if opts else "--select-tiling", "-o", tiled)
        with open(tiled) as f:
            text = f.read()
        part = "x".join(field(text, "partition_" + d) for d in "mnk")
        mapped = os.path.join(work, "mapped.bin")
        tool("accel-compile", tiled, "--hw", args.hw, "-o", mapped)
        isa = os.path.join(work, "dealt.isa.mlir")
        tool("accel-opt", tiled, "--convert-graph-to-isa", "-o", isa)
        dealt = os.path.join(work, "dealt.bin")
        tool("accel-translate", "--isa-to-binary", isa, "-o", dealt)
        print(f"| {label} | {part} | {field(text, 'split_k')} | {field(text, 'cycles')} "
              f"| {simulate(mapped)} | {simulate(dealt)} |", flush=True)
