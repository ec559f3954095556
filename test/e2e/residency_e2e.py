"""On-chip residency end to end (docs/passes.md, "On-chip residency"): an
MLP and a small CNN (sync_e2e's) and a MobileNet-style inverted-residual
block (ONNX: 1x1 expand, ReLU6, depthwise 3x3, ReLU6, 1x1 project, residual
Add), and a stride-2 stem convolution split by rows over the clusters feeding
a stride-2 depthwise conv (its 784 KiB output: pieces cut between the
writers' runs on chip, docs/passes.md "Row-split feature maps"; cut over
both memory channels in DRAM, "Shared buffers over the channels") compiled
with residency=on and off on 1x1, 2x2 and 4x4 grids,
simulated with --strict-hazards and compared with numpy. With residency=on
the 1x1 programs of the first three must keep some intermediate on chip (more local_copy DMAs
than the kernels make themselves with residency=off, e.g. the depthwise
kernel's band expansion), residency=off makes no remote_load, and
no program may move more DRAM bytes than with residency=off."""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run  # noqa: E402
from sync_e2e import cnn, grid_hw, mlp  # noqa: E402

BIN = sys.argv[1]
rng = np.random.default_rng(12)


def conv2d(x, w, b, pad, groups=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    y = np.zeros((n, o, oh, ow), np.float64)
    og = o // groups
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        ws = w[g * og:(g + 1) * og]
        for i in range(kh):
            for j in range(kw):
                y[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", xs[:, :, i:i + oh, j:j + ow], ws[:, :, i, j])
    return y + b.reshape(1, -1, 1, 1)


def mbblock(work):
    """Inverted residual block, 16 -> 48 -> 16 channels on 14 x 14."""
    c, e, hw = 16, 48, 14
    x = rng.standard_normal((1, c, hw, hw)).astype(np.float32)
    w1 = (rng.standard_normal((e, c, 1, 1)) * 0.3).astype(np.float32)
    b1 = (rng.standard_normal(e) * 0.1).astype(np.float32)
    wd = (rng.standard_normal((e, 1, 3, 3)) * 0.3).astype(np.float32)
    bd = (rng.standard_normal(e) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((c, e, 1, 1)) * 0.3).astype(np.float32)
    b2 = (rng.standard_normal(c) * 0.1).astype(np.float32)
    inits = [numpy_helper.from_array(a, n) for a, n in
             ((w1, "w1"), (b1, "b1"), (wd, "wd"), (bd, "bd"), (w2, "w2"), (b2, "b2"),
              (np.array(0, np.float32), "lo"), (np.array(6, np.float32), "hi"))]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["e"], name="expand", kernel_shape=[1, 1]),
        helper.make_node("Clip", ["e", "lo", "hi"], ["e6"], name="relu6_a"),
        helper.make_node("Conv", ["e6", "wd", "bd"], ["d"], name="dw", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], group=e),
        helper.make_node("Clip", ["d", "lo", "hi"], ["d6"], name="relu6_b"),
        helper.make_node("Conv", ["d6", "w2", "b2"], ["p"], name="project", kernel_shape=[1, 1]),
        helper.make_node("Add", ["p", "x"], ["y"], name="residual"),
    ]
    graph = helper.make_graph(
        nodes, "mbblock", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, x.shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    path = os.path.join(work, "mbblock.onnx")
    onnx.save(model, path)
    a = np.clip(conv2d(x.astype(np.float64), w1, b1, 0), 0, 6)
    d = np.clip(conv2d(a, wd, bd, 1, groups=e), 0, 6)
    ref = conv2d(d, w2, b2, 0) + x
    return path, {"x": x}, ref


def stem(work):
    """3 -> 16 channels, 3x3 stride 2 on 224 x 224, then a 3x3 stride-2
    depthwise conv: the 16 x 112 x 112 map between them does not fit one
    cluster's storage."""
    c, hw = 16, 224
    x = rng.standard_normal((1, 3, hw, hw)).astype(np.float32)
    w1 = (rng.standard_normal((c, 3, 3, 3)) * 0.3).astype(np.float32)
    b1 = (rng.standard_normal(c) * 0.1).astype(np.float32)
    wd = (rng.standard_normal((c, 1, 3, 3)) * 0.3).astype(np.float32)
    bd = (rng.standard_normal(c) * 0.1).astype(np.float32)
    inits = [numpy_helper.from_array(a, n) for a, n in
             ((w1, "w1"), (b1, "b1"), (wd, "wd"), (bd, "bd"))]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["f"], name="stem", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Conv", ["f", "wd", "bd"], ["y"], name="dw", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], strides=[2, 2], group=c),
    ]
    graph = helper.make_graph(
        nodes, "stem", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, (1, c, hw // 4, hw // 4))],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    path = os.path.join(work, "stem.onnx")
    onnx.save(model, path)
    # Stride 2 = every other output of the stride-1 convolution.
    f = conv2d(x.astype(np.float64), w1, b1, 1)[:, :, ::2, ::2]
    ref = conv2d(f, wd, bd, 1, groups=c)[:, :, ::2, ::2]
    return path, {"x": x}, ref


def mlir_model(make, work, name):
    text, inputs, ref = make()
    path = os.path.join(work, name + ".mlir")
    with open(path, "w") as f:
        f.write(text)
    return path, inputs, ref


def local_copies(model, hw, args, work):
    out = os.path.join(work, "listing.mlir")
    cmd = [os.path.join(BIN, "accel-compile"), model, "-o", out, "--emit=isa"] + list(args)
    if hw:
        cmd += ["--hw", hw]
    subprocess.run(cmd, check=True, capture_output=True)
    text = open(out).read()
    return len(re.findall(r"isa\.dma\s+local_copy\b", text)), \
        len(re.findall(r"isa\.dma\s+remote_load\b", text))


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        grids = grid_hw(work)
        models = [("mlp",) + mlir_model(mlp, work, "mlp"),
                  ("cnn",) + mlir_model(cnn, work, "cnn"),
                  ("mbblock",) + mbblock(work),
                  ("stem",) + stem(work)]
        for name, model, inputs, ref in models:
            for grid, hw in grids.items():
                dram, kernel_copies = {}, 0
                for mode in ("off", "on"):
                    args = (f"--residency={mode}",)
                    tag = f"{name} {grid} residency={mode}"
                    run = f"{name}_{grid}_{mode}"
                    got, err = compile_and_run(BIN, model, work, run, inputs, ["y"],
                                               hw=hw, compile_args=args)
                    info = ""
                    if err is None:
                        e = float(np.max(np.abs(got[0] - ref)))
                        if e > 1e-3 * max(1.0, float(np.max(np.abs(ref)))):
                            err = f"max error {e:.3g}"
                    if err is None:
                        with open(os.path.join(work, run + "_out", "stats.json")) as f:
                            s = json.load(f)
                        dram[mode] = s["dram_bytes_read"] + s["dram_bytes_written"]
                        local, remote = local_copies(model, hw, args, work)
                        info = (f"DRAM bytes {dram[mode]}, cycles {s['cycles']}, "
                                f"local_copy {local}, remote_load {remote}")
                        # Kernels make local copies of their own (the
                        # depthwise kernel expands its input band on chip):
                        # residency adds to those.
                        if mode == "off":
                            kernel_copies = local
                        if (mode == "on" and grid == "1x1" and name != "stem"
                                and local <= kernel_copies):
                            err = "no residency local_copy on one cluster"
                        elif mode == "off" and remote:
                            err = "remote_load under residency=off"
                        elif mode == "on" and dram[mode] > dram["off"]:
                            err = f"more DRAM bytes than residency=off ({dram['off']})"
                    if err is None:
                        passed += 1
                        print(f"PASS {tag} ({info})")
                    else:
                        failed += 1
                        print(f"FAIL {tag}: {err}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
