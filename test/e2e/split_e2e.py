#!/usr/bin/python3
"""End-to-end numerical tests of the labelled lowering (issue 11 item 4,
docs/labels-and-splits.md "Lowering: reduction trees, constant packets,
materialisation"): split fully-connected, matmul and convolution layers and
a small network (conv -> relu -> fc) with hand-written labels and forced
array partitions, on 1x1, 2x2 and 4x4 grids (variants of default.json) and
the spec's Fig. 5 machine with and without cluster caches. K splits reduce
through the mesh (output swap = core / cluster) or through memory (swap =
mem, or a bus-contention machine); weight constants split by their labels
live in per-cluster slabs with per-core packets. Each case is compiled
(accel-opt --select-tiling --convert-graph-to-isa, accel-translate),
simulated with accel-run --strict-hazards and compared with numpy and with
the same model compiled without labels or partition (the unsplit program).
Exits 1 on any failure. Usage: split_e2e.py BIN_DIR"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import conv_ref, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUTS = os.path.join(SRC, "test", "e2e", "Inputs")
MACHINES = {
    "1x1": (os.path.join(INPUTS, "split-grid1x1.json"), 1, 4),
    "2x2": (os.path.join(SRC, "hw", "default.json"), 4, 4),
    "4x4": (os.path.join(INPUTS, "split-grid4x4.json"), 16, 4),
    "fig5": (os.path.join(SRC, "hw", "labels-example.json"), 2, 2),
    "fig5-nocache": (os.path.join(SRC, "hw", "labels-example-nocache.json"), 2, 2),
}
rng = np.random.default_rng(11)


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def dense(a):
    return "dense<[" + ", ".join(
        "[" + ", ".join(f"{v:.8e}" for v in row) + "]" for row in a.reshape(a.shape[0], -1)
    ) + "]>"


def ranges(extent, pieces):
    length = -(-extent // pieces)
    out = [(b, min(b + length, extent) - 1) for b in range(0, extent, length)]
    return "[" + ", ".join(f"({a}, {b})" for a, b in out) + "]"


def label(cat, shape, order, split=None, pieces=1, swap="none", store="mem"):
    dims = ", ".join(map(str, shape))
    dyn = f'type = "float32", order = "{order}"'
    if split:
        extent = shape[order.index(split)]
        dyn += f', split_dim = "{split}", ranges = {ranges(extent, pieces)}'
    dyn += f', store = "{store}", swap = {swap}'
    return (f'#accel.label<static = #accel.static_label<category = {cat}, type = "float32", '
            f'order = "{order}", dims = [{dims}]>, dynamic = #accel.dynamic_label<{dyn}>>')


def attrs(mapping, labels):
    a = []
    if mapping:
        a.append(f"accel.mapping = #accel.mapping<dataflow = output_stationary, "
                 f"array = [{mapping[0]}, {mapping[1]}]>")
    if labels:
        a.append(f"accel.labels = [{labels}]")
    return "{" + ", ".join(a) + "}" if a else ""


def run(name, text, hw, inputs, work):
    """Compiles and simulates; returns (output array, None) or (None, error)."""
    src, isa, binary = (os.path.join(work, name + e) for e in (".mlir", ".isa.mlir", ".bin"))
    with open(src, "w") as f:
        f.write(text)
    steps = [[os.path.join(BIN, "accel-opt"), src, f"--accel-hw={hw}", "--select-tiling",
              "--convert-graph-to-isa", "-o", isa],
             [os.path.join(BIN, "accel-translate"), "--isa-to-binary", isa, "-o", binary]]
    out_dir = os.path.join(work, name + "_out")
    run_cmd = [os.path.join(BIN, "accel-run"), binary, "--hw", hw, "--strict-hazards",
               "--output-dir", out_dir]
    for n, a in inputs.items():
        path = os.path.join(work, f"{name}_{n}.npy")
        np.save(path, a)
        run_cmd += ["--input", f"{n}={path}"]
    for cmd in steps + [run_cmd]:
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            return None, os.path.basename(cmd[0]) + ": " + p.stderr.strip()[:400]
    with open(isa) as f:
        isa_text = f.read()
    return (np.load(os.path.join(out_dir, "o.npy")), isa_text), None


def fc(K, N, w, mapping, swap, cores, labelled):
    wl = label("cw", (K, N), "cn", "c", cores) if labelled else None
    ol = label("on", (1, N), "nc", swap=swap) if labelled else None
    return (f'func.func @main(%i: {ty((1, K))} {{accel.name = "i"}}) -> ({ty((1, N))} {{accel.name = "o"}}) {{\n'
            f"  %w = arith.constant {attrs(None, wl)} {dense(w)} : {ty((K, N))}\n"
            f"  %o = graph.matmul %i, %w {attrs(mapping if labelled else None, ol)} : "
            f"({ty((1, K))}, {ty((K, N))}) -> {ty((1, N))}\n"
            f"  return %o : {ty((1, N))}\n}}\n")


def matmul(M, K, N, mapping, swap, relu, labelled):
    ol = label("on", (M, N), "nc", swap=swap) if labelled else None
    body = (f"  %o0 = graph.matmul %a, %b {attrs(mapping if labelled else None, ol)} : "
            f"({ty((M, K))}, {ty((K, N))}) -> {ty((M, N))}\n")
    res = "%o0"
    if relu:
        body += f"  %o = graph.relu %o0 : {ty((M, N))}\n"
        res = "%o"
    return (f'func.func @main(%a: {ty((M, K))} {{accel.name = "a"}}, %b: {ty((K, N))} {{accel.name = "b"}})'
            f' -> ({ty((M, N))} {{accel.name = "o"}}) {{\n{body}  return {res} : {ty((M, N))}\n}}\n')


def conv(x_shape, w, mapping, swap, cores, labelled, wsplit):
    n, c, h, wd = x_shape
    o = w.shape[0]
    ys = (n, o, h - w.shape[2] + 1, wd - w.shape[3] + 1)
    wl = label("cw", w.shape, "nchw", wsplit, cores) if labelled else None
    ol = label("on", ys, "nchw", swap=swap) if labelled else None
    return (f'func.func @main(%x: {ty(x_shape)} {{accel.name = "x"}}) -> ({ty(ys)} {{accel.name = "o"}}) {{\n'
            f"  %w = arith.constant {attrs(None, wl)} dense<{w.tolist()}> : {ty(w.shape)}\n"
            f"  %y = graph.conv2d %x, %w {attrs(mapping if labelled else None, ol)} : "
            f"({ty(x_shape)}, {ty(w.shape)}) -> {ty(ys)}\n"
            f"  %o = graph.relu %y : {ty(ys)}\n"
            f"  return %o : {ty(ys)}\n}}\n"), ys


def network(x_shape, w1, w2, swap, cores, labelled):
    """conv (M split, weight slabs) -> relu -> reshape -> fc (K split)."""
    n, c, h, wd = x_shape
    o = w1.shape[0]
    ys = (n, o, h - w1.shape[2] + 1, wd - w1.shape[3] + 1)
    K = int(np.prod(ys[1:]))
    N = w2.shape[1]
    l1 = label("cw", w1.shape, "nchw", "n", cores) if labelled else None
    l2 = label("cw", w2.shape, "cn", "c", cores) if labelled else None
    lo = label("on", (1, N), "nc", swap=swap) if labelled else None
    return (f'func.func @main(%x: {ty(x_shape)} {{accel.name = "x"}}) -> ({ty((1, N))} {{accel.name = "o"}}) {{\n'
            f"  %w1 = arith.constant {attrs(None, l1)} dense<{w1.tolist()}> : {ty(w1.shape)}\n"
            f"  %w2 = arith.constant {attrs(None, l2)} {dense(w2)} : {ty(w2.shape)}\n"
            f"  %y = graph.conv2d %x, %w1 {attrs(('M', 'M') if labelled else None, None)} : "
            f"({ty(x_shape)}, {ty(w1.shape)}) -> {ty(ys)}\n"
            f"  %r = graph.relu %y : {ty(ys)}\n"
            f"  %f = graph.reshape %r : ({ty(ys)}) -> {ty((1, K))}\n"
            f"  %o = graph.matmul %f, %w2 {attrs(('K', 'K') if labelled else None, lo)} : "
            f"({ty((1, K))}, {ty(w2.shape)}) -> {ty((1, N))}\n"
            f"  return %o : {ty((1, N))}\n}}\n")


CASES = []


def case(name, machine, build, inputs, ref, expect):
    CASES.append((name, machine, build, inputs, ref, expect))


for machine, (hw, clusters, pes) in MACHINES.items():
    cores = clusters * pes
    fp16 = machine.startswith("fig5")
    # Application example 1 / 2: FC 1 x 1000 . 1000 x 4, model parallel.
    i, w = rand(1, 1000), rand(1000, 4)
    for swap in ("core", "mem"):
        case(f"fc_{swap}_{machine}", machine,
             lambda lab, w=w, swap=swap: fc(1000, 4, w, ("K", "K"), swap, cores, lab),
             {"i": i}, i @ w,
             {"send": clusters > 1 and swap == "core" and machine != "fig5-nocache",
              "packet": True})
    # Matmul of two inputs, nothing divides, fused ReLU.
    a, b = rand(37, 333), rand(333, 45)
    case(f"matmul_relu_{machine}", machine,
         lambda lab: matmul(37, 333, 45, ("K", "K"), "cluster", True, lab),
         {"a": a, "b": b}, np.maximum(a @ b, 0),
         {"send": clusters > 1 and machine != "fig5-nocache", "packet": False})
    # Convolution with a K split (reduction over input channels x kernel).
    x, wc = rand(1, 24, 7, 7), rand(8, 24, 3, 3)
    case(f"conv_ksplit_{machine}", machine,
         lambda lab, x=x, wc=wc: conv(x.shape, wc, ("K", "K"), "cluster", cores, lab, "c")[0],
         {"x": x}, np.maximum(conv_ref(x, wc, np.zeros(wc.shape[0], np.float32), (1, 1), (0, 0, 0, 0), (1, 1), 1), 0),
         {"send": clusters > 1 and machine != "fig5-nocache", "packet": False})
    # Convolution with an M split: filter slabs and packets.
    x, wc = rand(1, 6, 9, 9), rand(32, 6, 3, 3)
    case(f"conv_msplit_{machine}", machine,
         lambda lab, x=x, wc=wc: conv(x.shape, wc, ("M", "M"), "none", cores, lab, "n")[0],
         {"x": x}, np.maximum(conv_ref(x, wc, np.zeros(wc.shape[0], np.float32), (1, 1), (0, 0, 0, 0), (1, 1), 1), 0),
         {"send": False, "packet": True})
    # conv -> relu -> fc.
    x, w1 = rand(1, 3, 6, 6), rand(16, 3, 3, 3)
    w2 = rand(16 * 4 * 4, 10)
    ref = np.maximum(conv_ref(x, w1, np.zeros(w1.shape[0], np.float32), (1, 1), (0, 0, 0, 0), (1, 1), 1), 0).reshape(1, -1) @ w2
    case(f"network_{machine}", machine,
         lambda lab, x=x, w1=w1, w2=w2: network(x.shape, w1, w2, "core", cores, lab),
         {"x": x}, ref,
         {"send": clusters > 1 and machine != "fig5-nocache", "packet": True})

passed = failed = 0
with tempfile.TemporaryDirectory() as work:
    for name, machine, build, inputs, ref, expect in CASES:
        hw = MACHINES[machine][0]
        fp16 = machine.startswith("fig5")
        split, err = run(name, build(True), hw, inputs, work)
        unsplit, err2 = (None, None) if err else run(name + "_unsplit", build(False), hw, inputs, work)
        why = err or err2
        if not why:
            out, isa = split
            scale = max(1.0, float(np.abs(ref).max()))
            tol = (2e-2 if fp16 else 1e-4) * scale
            if out.shape != ref.shape:
                why = f"shape {out.shape} != {ref.shape}"
            elif np.abs(out - ref).max() > tol:
                why = f"numpy: max error {np.abs(out - ref).max():.3g} > {tol:.3g}"
            elif np.abs(out - unsplit[0]).max() > (1e-3 if fp16 else 1e-5) * scale:
                why = f"unsplit: max difference {np.abs(out - unsplit[0]).max():.3g}"
            elif expect["send"] != ("isa.send" in isa):
                why = f"expected SEND: {expect['send']}"
            elif expect["packet"] and "isa.packet" not in isa:
                why = "expected constant packets"
        if why:
            failed += 1
            print(f"FAIL {name}: {why}")
        else:
            passed += 1
            print(f"ok   {name}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
