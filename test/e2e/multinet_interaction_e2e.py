#!/usr/bin/env python3
"""Interactions between networks, end to end (docs/multi-network.md
"Interactions").

Each plan is compiled with accel-compile --networks and simulated with
--strict-hazards. The reference is built from pieces run alone:
  - each network's tensor an interaction reads: the network cut after that
    tensor (onnx.utils.extract_model), compiled and run alone;
  - the interaction's result: numpy (sum, product, concat) or onnxruntime-free
    numpy for the small ONNX graph;
  - each consumer network's outputs: the network cut so that the replaced
    tensor is an input, compiled and run alone on the numpy result.
Everything must agree within 1e-4 relative.

Usage: multinet_interaction_e2e.py BIN_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

BIN = sys.argv[1]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TMP = tempfile.mkdtemp(prefix="multinet-ix-")
HW = {"default": f"{SRC}/hw/default.json", "large": f"{SRC}/hw/large.json"}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(" ".join(cmd) + "\n" + r.stderr)
    return r


def accel(model, inputs, hw, tag):
    """Outputs of `model` compiled and run alone on the whole machine."""
    out = f"{TMP}/{tag}"
    run([f"{BIN}/accel-compile", model, "-o", out + ".bin", "--hw", hw])
    args = sum((["--input", f"{k}={v}"] for k, v in inputs.items()), [])
    run([f"{BIN}/accel-run", out + ".bin", "--hw", hw, "--output-dir", out]
        + args)
    return {f[:-4]: np.load(f"{out}/{f}") for f in os.listdir(out)
            if f.endswith(".npy")}


def npy(tag, array):
    path = f"{TMP}/{tag}.npy"
    np.save(path, array.astype(np.float32))
    return path


def cut(model, inputs, outputs, tag):
    path = f"{TMP}/{tag}.onnx"
    onnx.utils.extract_model(model, path, inputs, outputs)
    return path


def file_name(tensor):
    return tensor.replace("/", "_")


def models():
    zoo = f"{TMP}/zoo"
    subprocess.run(["/usr/bin/python3", f"{SRC}/scripts/zoo/make_zoo.py",
                    "--size", "small", "--out", zoo, "mlp3"], check=True,
                   capture_output=True)
    rng = np.random.RandomState(7)
    # A small ONNX combine: relu(x0 + x1) * x2.
    nodes = [helper.make_node("Add", ["x0", "x1"], ["s"]),
             helper.make_node("Relu", ["s"], ["r"]),
             helper.make_node("Mul", ["r", "x2"], ["y"])]
    io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 10])
          for n in ("x0", "x1", "x2", "y")]
    graph = helper.make_graph(nodes, "combine", io[:3], io[3:])
    combine = f"{TMP}/combine.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17)]), combine)
    return {
        "cnn": (f"{SRC}/examples/small_cnn.onnx", "image",
                np.load(f"{SRC}/examples/small_cnn_image.npy")),
        "a": (f"{zoo}/mlp3.onnx", "input",
              rng.randn(1, 64).astype(np.float32)),
        "b": (f"{zoo}/mlp3.onnx", "input",
              rng.randn(1, 64).astype(np.float32)),
    }, combine


def combine_ref(x, values):
    if x["combine"] == "sum":
        return sum(values[1:], values[0])
    if x["combine"] == "product":
        out = values[0]
        for v in values[1:]:
            out = out * v
        return out
    if x["combine"] == "concat":
        return np.concatenate(values, axis=x.get("axis", 1))
    return np.maximum(values[0] + values[1], 0) * values[2]  # combine.onnx


def reference(plan, nets, hw):
    """Per NETWORK.TENSOR the values the plan must produce."""
    want = {}
    for x in plan["interactions"]:
        values = []
        for ref in x["inputs"]:
            net, tensor = ref.split(".", 1)
            model, inp, data = nets[net]
            part = cut(model, [inp], [tensor], f"{net}-upto-{file_name(tensor)}")
            got = accel(part, {inp: npy(f"{net}-in", data)}, hw,
                        f"ref-{net}-{file_name(tensor)}")
            values.append(got[file_name(tensor)])
            want[ref] = values[-1]
        result = combine_ref(x, values)
        want[x["name"] + ".result"] = result
        for ref in x.get("consumers", []):
            net, tensor = ref.split(".", 1)
            model, inp, data = nets[net]
            outs = [o.name for o in onnx.load(model).graph.output]
            part = cut(model, [inp, tensor], outs, f"{net}-from-{file_name(tensor)}")
            feeds = {inp: npy(f"{net}-in", data),
                     tensor: npy(f"{net}-x-{x['name']}", result)}
            used = {i.name for i in onnx.load(part).graph.input}
            got = accel(part, {k: v for k, v in feeds.items() if k in used},
                        hw, f"ref-{net}-after-{x['name']}")
            for o in outs:
                want[f"{net}.{o}"] = got[file_name(o)]
    return want


def check(case, hw, plan, nets):
    """Parallel, and the baseline too when no network reads a result."""
    path = f"{TMP}/{case}.json"
    with open(path, "w") as f:
        json.dump(plan, f)
    modes = ["parallel"]
    if not any(x.get("consumers") for x in plan["interactions"]):
        modes.append("baseline")
    try:
        want = reference(plan, nets, HW[hw])
    except RuntimeError as e:
        print(f"FAIL {case}: {e}")
        return False
    return all([run_mode(case, hw, path, plan, nets, want, m) for m in modes])


def run_mode(case, hw, path, plan, nets, want, mode):
    binary, out = f"{TMP}/{case}-{mode}.bin", f"{TMP}/{case}-{mode}"
    flags = ["--baseline"] if mode == "baseline" else []
    try:
        run([f"{BIN}/accel-compile", "--networks", path, "-o", binary,
             "--hw", HW[hw]] + flags)
        args = []
        for n in plan["networks"]:
            _, inp, data = nets[n["name"]]
            args += ["--input", f"{n['name']}.{inp}={npy(n['name'] + '-in', data)}"]
        r = run([f"{BIN}/accel-run", binary, "--hw", HW[hw], "--strict-hazards",
                 "--output-dir", out] + args)
    except RuntimeError as e:
        print(f"FAIL {case} {mode}: {e}")
        return False
    worst, ok = 0.0, True
    for name, w in want.items():
        got = np.load(f"{out}/{file_name(name)}.npy")
        if got.shape != w.shape:
            print(f"FAIL {case} {mode}: {name} shape {got.shape} != {w.shape}")
            ok = False
            continue
        worst = max(worst, float(np.max(np.abs(got - w) / (1e-4 + np.abs(w)))))
    ok = ok and worst <= 1e-4
    cycles = next((l.split()[1] for l in r.stdout.splitlines()
                   if l.startswith("cycles: ")), "?")
    print(f"{'ok' if ok else 'FAIL'} {case} {mode} on {hw}: {len(want)} tensors "
          f"checked, worst relative error {worst:.1e}, cycles {cycles}")
    return ok


def main():
    nets, combine = models()
    h = "/relu1/Relu_output_0"
    cases = [
        # E1's shape: two networks, X = A.h + B.h, read by both.
        ("two-sum", "default", {
            "networks": [
                {"name": "a", "model": nets["a"][0],
                 "clusters": {"row": 0, "col": 0, "rows": 1, "cols": 1}},
                {"name": "b", "model": nets["b"][0],
                 "clusters": {"row": 0, "col": 1, "rows": 1, "cols": 1}}],
            "interactions": [{"name": "x", "combine": "sum",
                              "inputs": [f"a.{h}", f"b.{h}"],
                              "consumers": [f"a.{h}", f"b.{h}"]}]}),
        # A CNN on two clusters and an MLP: product read by the CNN; a
        # concat read by nobody (its result is an output).
        ("cnn-mlp-product", "default", {
            "networks": [
                {"name": "cnn", "model": nets["cnn"][0],
                 "clusters": {"row": 0, "col": 0, "rows": 1, "cols": 2}},
                {"name": "a", "model": nets["a"][0],
                 "clusters": {"row": 1, "col": 0, "rows": 1, "cols": 1}}],
            "interactions": [
                {"name": "p", "combine": "product",
                 "inputs": ["cnn.fc", "a.output"], "consumers": ["cnn.fc"]}]}),
        # Three networks on the 4x4 preset: a small ONNX graph combines
        # one tensor of each and feeds the CNN; a concat of the MLPs'
        # hidden layers on another cluster.
        ("three-onnx", "large", {
            "networks": [
                {"name": "cnn", "model": nets["cnn"][0],
                 "clusters": {"row": 0, "col": 0, "rows": 2, "cols": 2}},
                {"name": "a", "model": nets["a"][0],
                 "clusters": {"row": 0, "col": 2, "rows": 1, "cols": 1}},
                {"name": "b", "model": nets["b"][0],
                 "clusters": {"row": 0, "col": 3, "rows": 1, "cols": 1}}],
            "interactions": [
                {"name": "g", "combine": "onnx", "model": combine,
                 "inputs": ["cnn.fc", "a.output", "b.output"],
                 "consumers": ["cnn.fc"], "cluster": {"row": 2, "col": 1}},
                {"name": "c", "combine": "concat", "axis": 1,
                 "inputs": [f"a.{h}", f"b.{h}"]}]}),
        # An ensemble nobody reads: parallel and the baseline, where it runs
        # after both networks on the whole grid.
        ("ensemble", "default", {
            "networks": [
                {"name": "a", "model": nets["a"][0],
                 "clusters": {"row": 0, "col": 0, "rows": 1, "cols": 2}},
                {"name": "b", "model": nets["b"][0],
                 "clusters": {"row": 1, "col": 0, "rows": 1, "cols": 1}}],
            "interactions": [{"name": "e", "combine": "sum",
                              "inputs": ["a.output", "b.output"]}]}),
    ]
    passed = sum(check(c, hw, plan, nets) for c, hw, plan in cases)
    print(f"{passed} passed, {len(cases) - passed} failed")


main()
