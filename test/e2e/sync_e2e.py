"""Synchronisation and channel placement end to end (docs/passes.md,
"Synchronisation", "Memory planning on channels"): small networks compiled
with sync=events (default) and sync=barrier, each with dram-placement=
channels (default) and linear, on 1x1, 2x2 (default) and 4x4 (large) grids,
simulated with --strict-hazards and compared with numpy. Also checks that
the events programs hold no BARRIER and, where clusters exchange data on
more than one cluster, SIGNAL / RECV pairs (and none where they do not)."""
import json
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
rng = np.random.default_rng(11)


def mlp():
    x, w1, b1, w2 = (rng.standard_normal(s).astype(np.float32)
                     for s in ((48, 96), (96, 160), (160,), (160, 72)))
    text = (f'func.func @main(%x: {ty((48, 96))} {{accel.name = "x"}}, '
            f'%w1: {ty((96, 160))} {{accel.name = "w1"}}, %b1: {ty((160,))} {{accel.name = "b1"}}, '
            f'%w2: {ty((160, 72))} {{accel.name = "w2"}}) -> ({ty((72, 48))} {{accel.name = "y"}}) {{\n'
            f'  %0 = graph.matmul %x, %w1 : ({ty((48, 96))}, {ty((96, 160))}) -> {ty((48, 160))}\n'
            f'  %1 = graph.add %0, %b1 : ({ty((48, 160))}, {ty((160,))}) -> {ty((48, 160))}\n'
            f'  %2 = graph.relu %1 : {ty((48, 160))}\n'
            f'  %3 = graph.matmul %2, %w2 : ({ty((48, 160))}, {ty((160, 72))}) -> {ty((48, 72))}\n'
            f'  %4 = graph.transpose %3 [1, 0] : ({ty((48, 72))}) -> {ty((72, 48))}\n'
            f'  return %4 : {ty((72, 48))}\n}}\n')
    ref = (np.maximum(x @ w1 + b1, 0) @ w2).T
    return text, {"x": x, "w1": w1, "b1": b1, "w2": w2}, ref


def cnn():
    x = rng.standard_normal((1, 8, 12, 12)).astype(np.float32)
    w = rng.standard_normal((16, 8, 3, 3)).astype(np.float32)
    w2 = rng.standard_normal((16, 16, 1, 1)).astype(np.float32)
    xs, ws, w2s, os1 = (1, 8, 12, 12), (16, 8, 3, 3), (16, 16, 1, 1), (1, 16, 12, 12)
    conv = ("groups = 1, strides = array<i64: 1, 1>, pads = array<i64: {p}, {p}, {p}, {p}>, "
            "dilations = array<i64: 1, 1>")
    text = (f'func.func @main(%x: {ty(xs)} {{accel.name = "x"}}, %w: {ty(ws)} {{accel.name = "w"}}, '
            f'%w2: {ty(w2s)} {{accel.name = "w2"}}) -> ({ty((1, 16))} {{accel.name = "y"}}) {{\n'
            f'  %0 = graph.conv2d %x, %w {{{conv.format(p=1)}}} : ({ty(xs)}, {ty(ws)}) -> {ty(os1)}\n'
            f'  %1 = graph.relu %0 : {ty(os1)}\n'
            f'  %2 = graph.conv2d %1, %w2 {{{conv.format(p=0)}}} : ({ty(os1)}, {ty(w2s)}) -> {ty(os1)}\n'
            f'  %3 = graph.add %2, %1 : ({ty(os1)}, {ty(os1)}) -> {ty(os1)}\n'
            f'  %4 = graph.reduce mean %3 {{axes = array<i64: 2, 3>, keepdims = false}} '
            f': ({ty(os1)}) -> {ty((1, 16))}\n'
            f'  return %4 : {ty((1, 16))}\n}}\n')
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros(os1, np.float32)
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i:i + 12, j:j + 12], w[:, :, i, j])
    r = np.maximum(y, 0)
    z = np.einsum("nchw,oc->nohw", r, w2[:, :, 0, 0]) + r
    return text, {"x": x, "w": w, "w2": w2}, z.mean(axis=(2, 3))


def softmax():
    x = rng.standard_normal((64, 300)).astype(np.float32)
    text = (f'func.func @main(%x: {ty((64, 300))} {{accel.name = "x"}}) -> ({ty((64, 300))} {{accel.name = "y"}}) {{\n'
            f'  %0 = graph.softmax %x {{axis = 1}} : {ty((64, 300))}\n'
            f'  %1 = graph.binary mul %0, %x : ({ty((64, 300))}, {ty((64, 300))}) -> {ty((64, 300))}\n'
            f'  return %1 : {ty((64, 300))}\n}}\n')
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return text, {"x": x}, e / e.sum(axis=1, keepdims=True) * x


def grid_hw(work):
    with open(os.path.join(SRC, "hw", "default.json")) as f:
        d = json.load(f)
    d["name"] = "default-1x1"
    d["grid"] = {"rows": 1, "cols": 1}
    d["memory"]["channels"] = d["memory"]["channels"][:1]
    p = os.path.join(work, "1x1.json")
    with open(p, "w") as f:
        json.dump(d, f)
    return {"1x1": p, "2x2": None, "4x4": os.path.join(SRC, "hw", "large.json")}


def isa_counts(model, hw, args, work):
    out = os.path.join(work, "listing.mlir")
    cmd = [os.path.join(BIN, "accel-compile"), model, "-o", out, "--emit=isa"] + list(args)
    if hw:
        cmd += ["--hw", hw]
    subprocess.run(cmd, check=True, capture_output=True)
    text = open(out).read()
    return {k: len(re.findall(r"isa\." + k + r"\b", text)) for k in ("barrier", "signal", "recv")}


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        grids = grid_hw(work)
        # The softmax keeps every row on one cluster through all its layers:
        # no cluster depends on another, so no SIGNAL / RECV at all.
        for name, make, exchanges in (("mlp", mlp, True), ("cnn", cnn, True),
                                      ("softmax", softmax, False)):
            text, inputs, ref = make()
            model = os.path.join(work, name + ".mlir")
            with open(model, "w") as f:
                f.write(text)
            for grid, hw in grids.items():
                for sync in ("events", "barrier"):
                    for place in ("channels", "linear"):
                        # --split=labels: this checks the layer
                        # synchronisation; the database's partition K-splits
                        # the MLP's layers, whose reduction trees use SIGNAL /
                        # RECV under either sync mode (split-strategy-e2e
                        # and split-reduction.mlir test those).
                        args = (f"--sync={sync}", f"--dram-placement={place}",
                                "--split=labels")
                        tag = f"{name} {grid} sync={sync} dram-placement={place}"
                        got, err = compile_and_run(BIN, model, work, f"{name}_{grid}_{sync}_{place}",
                                                   inputs, ["y"], hw=hw, compile_args=args)
                        if err is None:
                            c = isa_counts(model, hw, args, work)
                            if sync == "events" and c["barrier"]:
                                err = f"{c['barrier']} BARRIERs under sync=events"
                            elif sync == "events" and (grid != "1x1" and exchanges) != bool(c["recv"]):
                                err = f"{c['recv']} RECVs"
                            elif sync == "barrier" and (c["signal"] or c["recv"]):
                                err = "SIGNAL / RECV under sync=barrier"
                        if err is None:
                            e = float(np.max(np.abs(got[0] - ref)))
                            if e > 1e-3 * max(1.0, float(np.max(np.abs(ref)))):
                                err = f"max error {e:.3g}"
                        if err is None:
                            passed += 1
                            print(f"PASS {tag} (signals {c['signal']}, recvs {c['recv']})")
                        else:
                            failed += 1
                            print(f"FAIL {tag}: {err}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
