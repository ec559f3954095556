#!/usr/bin/python3
"""End-to-end numerical tests of the convolution padding inside the window
(--conv-padding=window, lib/Codegen/PadWindow.cpp): the image tiles are
loaded from the unpadded input with boxes clipped to it and the padding is
zero-filled in storage, with no padded copy. Padded convolutions with bias
and fused ReLU (1x1 .. 7x7 kernels, stride 1 and 2, dilation, asymmetric
padding, padding wider than the kernel's reach, batch 2, groups, few input
channels so that K chunks span kernel rows) through
  * the default pipeline (mapped implicit GEMM) on 1x1, 2x2 and 4x4 grids,
  * forced (dataflow, array partition) pairs on a 2x2 test machine,
  * the dealt kernel (accel-opt --convert-graph-to-isa without a mapping,
    accel-translate), and
  * the transposed form with the filter in the weight queue (a constant
    filter with 75 % zeros, sparse-weights=auto);
each compiled, simulated with accel-run --strict-hazards and compared with
numpy, and the binary checked to hold no DRAM->DRAM copy. Exits 1 on any
failure.
Usage: conv_pad_window_e2e.py BIN_DIR"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import conv_ref, force_mapping, out_hw, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INPUTS = os.path.join(SRC, "test", "e2e", "Inputs")
GRIDS = [os.path.join(INPUTS, f"split-grid{g}.json") for g in ("1x1", "2x2", "4x4")]
HW_BLOCK = os.path.join(INPUTS, "mapping-block16.json")
FORCED = [("output_stationary", ("N", "N")), ("weight_stationary", ("N", "K")),
          ("output_stationary", ("M", "N"))]
rng = np.random.default_rng(31)


def rand(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def dense(a):
    """A dense f32 literal in MLIR's hex form (raw little-endian bytes)."""
    return f'dense<"0x{a.astype("<f4").tobytes().hex().upper()}"> : {ty(a.shape)}'


def conv_text(x_shape, w, b, stride, pads, dil, groups, const_w=False):
    oh = out_hw(x_shape[2], w.shape[2], stride[0], pads[0], pads[2], dil[0])
    ow = out_hw(x_shape[3], w.shape[3], stride[1], pads[1], pads[3], dil[1])
    os_ = (x_shape[0], w.shape[0], oh, ow)
    args = [f'%x: {ty(x_shape)} {{accel.name = "x"}}']
    body = ""
    if const_w:
        body += f"  %w = arith.constant {dense(w)}\n"
    else:
        args.append(f'%w: {ty(w.shape)} {{accel.name = "w"}}')
    args.append(f'%b: {ty(b.shape)} {{accel.name = "b"}}')
    attrs = (f"strides = array<i64: {stride[0]}, {stride[1]}>, "
             f"pads = array<i64: {', '.join(map(str, pads))}>, "
             f"dilations = array<i64: {dil[0]}, {dil[1]}>, groups = {groups} : i64")
    body += (f"  %y = graph.conv2d %x, %w, %b {{{attrs}}} : "
             f"({ty(x_shape)}, {ty(w.shape)}, {ty(b.shape)}) -> {ty(os_)}\n"
             f"  %r = graph.relu %y : {ty(os_)}\n")
    return (f"func.func @main({', '.join(args)}) -> ({ty(os_)} {{accel.name = \"r\"}}) {{\n"
            f"{body}  return %r : {ty(os_)}\n}}\n")


# (name, x shape, w shape, stride, pads (t, l, b, r), dilation, groups)
CASES = [
    ("k1_p1", (1, 8, 9, 7), (6, 8, 1, 1), (1, 1), (1, 1, 1, 1), (1, 1), 1),
    ("k3_p1", (1, 16, 23, 19), (24, 16, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1),
    ("k3_s2_n2", (2, 12, 21, 17), (20, 12, 3, 3), (2, 2), (1, 1, 1, 1), (1, 1), 1),
    ("k3_asym", (1, 8, 17, 15), (12, 8, 3, 3), (1, 1), (0, 2, 2, 1), (1, 1), 1),
    ("k5_p2_s2", (1, 6, 19, 23), (10, 6, 5, 5), (2, 2), (2, 2, 2, 2), (1, 1), 1),
    ("k7_c3_s2_p3", (1, 3, 37, 29), (16, 3, 7, 7), (2, 2), (3, 3, 3, 3), (1, 1), 1),
    ("k3_d2_p2", (1, 8, 15, 13), (8, 8, 3, 3), (1, 1), (2, 2, 2, 2), (2, 2), 1),
    ("k5_d2_p4_g2", (1, 8, 13, 11), (10, 4, 5, 5), (1, 1), (4, 4, 4, 4), (2, 2), 2),
    ("k3_p3_wide", (1, 4, 6, 5), (8, 4, 3, 3), (1, 2), (3, 3, 2, 3), (1, 1), 1),
]


def run(binary, work, name, inputs, exp, tag, hw):
    out_dir = os.path.join(work, name + "_out")
    cmd = [os.path.join(BIN, "accel-run"), binary, "--output-dir", out_dir,
           "--strict-hazards"] + (["--hw", hw] if hw else [])
    for n, a in inputs.items():
        path = os.path.join(work, f"{name}_{n}.npy")
        np.save(path, a)
        cmd += ["--input", f"{n}={path}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        print(f"FAIL {tag}: run: {p.stderr.strip()}")
        return False
    got = np.load(os.path.join(out_dir, "r.npy")).astype(np.float64)
    ok = got.shape == exp.shape and np.allclose(got, exp, rtol=1e-4, atol=1e-4)
    err = float(np.max(np.abs(got - exp))) if got.shape == exp.shape else float("inf")
    print(f"{'PASS' if ok else 'FAIL'} {tag} (max error {err:.3g})")
    return ok


def no_copy(isa_text, tag):
    if "dram_copy" in isa_text:
        print(f"FAIL {tag}: the program copies DRAM -> DRAM")
        return False
    return True


def compile_isa(args, tag):
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode:
        print(f"FAIL {tag}: {os.path.basename(args[0])}: {p.stderr.strip()[:400]}")
    return p.returncode == 0


failed = total = 0
with tempfile.TemporaryDirectory() as work:
    def check(name, src, inputs, exp, tag, hw, lower, must=None):
        """lower: 'pipeline' (accel-compile) or 'dealt' (accel-opt
        --convert-graph-to-isa, no mapping); `must`: text the ISA must hold."""
        global failed, total
        total += 1
        isa = os.path.join(work, name + ".isa.mlir")
        binary = os.path.join(work, name + ".bin")
        hw_opt = [f"--accel-hw={hw}"] if hw else []
        if lower == "pipeline":
            ok = compile_isa([os.path.join(BIN, "accel-compile"), src, "-o", isa,
                              "--emit=isa", "--conv-padding=window"]
                             + (["--hw", hw] if hw else []), tag)
        else:
            ok = compile_isa([os.path.join(BIN, "accel-opt"), src] + hw_opt +
                             ["--convert-graph-to-isa=conv-padding=window", "-o", isa], tag)
        ok = ok and compile_isa([os.path.join(BIN, "accel-translate"), "--isa-to-binary",
                                 isa, "-o", binary], tag)
        text = open(isa).read() if ok else ""
        if ok and must and must not in text:
            print(f"FAIL {tag}: no '{must}' in the program")
            ok = False
        ok = ok and no_copy(text, tag) and run(binary, work, name, inputs, exp, tag, hw)
        failed += not ok

    for name, xs, wsh, stride, pads, dil, groups in CASES:
        x, w, b = rand(*xs), rand(*wsh), rand(wsh[0])
        exp = np.maximum(conv_ref(x.astype(np.float64), w.astype(np.float64),
                                  b.astype(np.float64), stride, pads, dil, groups), 0)
        src = os.path.join(work, name + ".mlir")
        with open(src, "w") as f:
            f.write(conv_text(xs, w, b, stride, pads, dil, groups))
        inputs = {"x": x, "w": w, "b": b}
        for hw in GRIDS:
            check(f"{name}_{os.path.basename(hw)}", src, inputs, exp,
                  f"{name} {os.path.basename(hw)} default", hw, "pipeline")
        for j, (dataflow, array) in enumerate(FORCED):
            forced = os.path.join(work, f"{name}.f{j}.mlir")
            tag = f"{name} mapping-block16 {dataflow} [{array[0]},{array[1]}]"
            error = force_mapping(BIN, src, forced, HW_BLOCK, None, dataflow, array)
            if error:
                total += 1
                failed += 1
                print(f"FAIL {tag}: {error}")
                continue
            check(f"{name}_f{j}", forced, inputs, exp, tag, HW_BLOCK, "pipeline")
        check(f"{name}_dealt", src, inputs, exp, f"{name} dealt", None, "dealt")

    # The transposed form: a constant filter with 75 % zeros goes to the
    # weight queue (sparse-weights=auto), the image is the A tile.
    for name, xs, wsh, stride, pads in [
            ("sparse_k3_p1", (1, 8, 12, 10), (16, 8, 3, 3), (1, 1), (1, 1, 1, 1)),
            ("sparse_k5_s2_asym", (1, 4, 15, 13), (8, 4, 5, 5), (2, 2), (2, 1, 1, 2))]:
        x, b = rand(*xs), rand(wsh[0])
        w = rand(*wsh) * (rng.random(wsh) < 0.25)
        exp = np.maximum(conv_ref(x.astype(np.float64), w.astype(np.float64),
                                  b.astype(np.float64), stride, pads, (1, 1), 1), 0)
        src = os.path.join(work, name + ".mlir")
        with open(src, "w") as f:
            f.write(conv_text(xs, w.astype(np.float32), b, stride, pads, (1, 1), 1,
                              const_w=True))
        for hw in GRIDS[:2]:
            check(f"{name}_{os.path.basename(hw)}", src, {"x": x, "b": b}, exp,
                  f"{name} {os.path.basename(hw)} weight queue", hw, "pipeline",
                  must="sparse_weights")
print(f"{total - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
