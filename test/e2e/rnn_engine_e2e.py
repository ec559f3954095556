"""Every RNN / GRU / LSTM node test of ONNX's backend suite on the
column-wise engine (RECUR tasks, docs/rnn.md) with multithreading on (the
hardware's thread contexts) and off (one context), and on the plain
per-step lowering, each under --strict-hazards against the suite's outputs.
Prints one line per run and a summary."""
import glob
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BIN = sys.argv[1]
DATA = "/usr/share/libonnx-testdata/data/node"
MODES = {
    # The tasks (directions x batch rows) spread over the clusters.
    "engine": ["--rnn=engine"],
    # All on one cluster: multithreaded on its contexts, then one context.
    "engine-1cl": ["--rnn=engine", "--rnn-clusters=1"],
    "engine-1cl-1ctx": ["--rnn=engine", "--rnn-clusters=1", "--rnn-contexts=1"],
    "plain": ["--rnn=plain"],
}
TMP = os.environ.get("TMPDIR", "/tmp")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def sig(x):
    return 1 / (1 + np.exp(-x))


def reference(kind, W, R, B, X, H):
    """ONNX LSTM / GRU (default activations, linear_before_reset 0),
    bidirectional, zero initial state: Y_h [2, batch, H]."""
    T, batch, _ = X.shape
    out = np.zeros((2, batch, H))
    for d in range(2):
        wb, rb = B[d, :B.shape[1] // 2], B[d, B.shape[1] // 2:]
        for b in range(batch):
            h, c = np.zeros(H), np.zeros(H)
            for t in (range(T - 1, -1, -1) if d else range(T)):
                x = X[t, b]
                if kind == "LSTM":
                    g = W[d] @ x + R[d] @ h + wb + rb
                    i, o, f = sig(g[:H]), sig(g[H:2 * H]), sig(g[2 * H:3 * H])
                    c = f * c + i * np.tanh(g[3 * H:])
                    h = o * np.tanh(c)
                else:
                    z = sig(W[d, :H] @ x + R[d, :H] @ h + wb[:H] + rb[:H])
                    r = sig(W[d, H:2 * H] @ x + R[d, H:2 * H] @ h
                            + wb[H:2 * H] + rb[H:2 * H])
                    n = np.tanh(W[d, 2 * H:] @ x + R[d, 2 * H:] @ (r * h)
                                + wb[2 * H:] + rb[2 * H:])
                    h = (1 - z) * n + z * h
            out[d, b] = h
    return out


def large_case(kind, H, I, T=3, batch=2):
    """Weights as initializers too large for one storage unit (512 KiB) but
    within the PE weight queues of hw/rnn-npe64k.json (256 x 64 KiB): the
    engine loads them once from DRAM constants, which the channel planner
    relocates. Checked against numpy. On hw/default.json (256 KiB of
    queues) the same layer keeps the plain lowering."""
    rng = np.random.default_rng(7)
    g = 4 if kind == "LSTM" else 3
    W = rng.uniform(-0.1, 0.1, (2, g * H, I)).astype(np.float32)
    R = rng.uniform(-0.1, 0.1, (2, g * H, H)).astype(np.float32)
    B = rng.uniform(-0.1, 0.1, (2, 2 * g * H)).astype(np.float32)
    X = rng.uniform(-1, 1, (T, batch, I)).astype(np.float32)
    node = helper.make_node(kind, ["X", "W", "R", "B"], ["", "Y_h"],
                            hidden_size=H, direction="bidirectional")
    graph = helper.make_graph(
        [node], "large",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [T, batch, I])],
        [helper.make_tensor_value_info("Y_h", TensorProto.FLOAT, [2, batch, H])],
        [numpy_helper.from_array(W, "W"), numpy_helper.from_array(R, "R"),
         numpy_helper.from_array(B, "B")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    path = f"{TMP}/rnn-engine-large-{kind}.onnx"
    onnx.save(model, path)
    np.save(f"{TMP}/rnn-engine-large-X.npy", X)
    want = reference(kind, W.astype(np.float64), R.astype(np.float64),
                     B.astype(np.float64), X.astype(np.float64), H)
    binary = f"{TMP}/rnn-engine-large-{kind}.bin"
    hw = os.path.join(os.path.dirname(__file__), "..", "..", "hw", "rnn-npe64k.json")
    c = run([f"{BIN}/accel-compile", path, "-o", binary, "--rnn-clusters=1", "--hw", hw])
    isa = run([f"{BIN}/accel-translate", "--binary-to-isa", binary]).stdout
    plain = run([f"{BIN}/accel-compile", path, "--emit=isa", "-o", "-"]).stdout
    if "isa.recur" in plain:
        print(f"FAIL large {kind}: the engine streams weights on hw/default.json")
        return False
    r = run([f"{BIN}/accel-run", binary, "--hw", hw, "--strict-hazards", "--output-dir",
             f"{TMP}/rnn-engine-large", "--input",
             f"X={TMP}/rnn-engine-large-X.npy"])
    if c.returncode or r.returncode:
        print(f"FAIL large {kind}: {c.stderr.strip()} {r.stderr.strip()}")
        return False
    got = np.load(f"{TMP}/rnn-engine-large/Y_h.npy")
    err = float(np.abs(got - want).max())
    # The activations and tails pass the cluster's SFU: at least one SFU
    # cycle per step of each of the 4 tasks (docs/rnn.md, "Block-level
    # engine model").
    with open(f"{TMP}/rnn-engine-large/stats.json") as f:
        sfu = json.load(f)["rnn"]["sfu_cycles"]
    ok = (err < 1e-4 and "weights_in_dram" in isa and isa.count("isa.recur ") == 4
          and sfu >= 4 * T)
    print(f"{'ok' if ok else 'FAIL'} large {kind} hidden {H}: 4 RECUR, "
          f"weights in DRAM: {'weights_in_dram' in isa}, SFU cycles {sfu}, "
          f"max error {err:.2g}")
    return ok


def main():
    tests = sorted(
        d for pat in ("lstm", "gru", "rnn", "simple_rnn")
        for d in glob.glob(f"{DATA}/test_{pat}_*"))
    passed = failed = 0
    for d in tests:
        model = onnx.load(f"{d}/model.onnx")
        ins = [i.name for i in model.graph.input]
        outs = [o.name for o in model.graph.output]
        data = f"{d}/test_data_set_0"
        args = []
        for k, name in enumerate(ins):
            args += ["--input", f"{name}={data}/input_{k}.pb"]
        for k, name in enumerate(outs):
            args += ["--expect", f"{name}={data}/output_{k}.pb"]
        for mode, flags in MODES.items():
            name = os.path.basename(d)
            binary = f"{TMP}/rnn-engine-{name}-{mode}.bin"
            c = run([f"{BIN}/accel-compile", f"{d}/model.onnx", "-o", binary] + flags)
            if c.returncode:
                print(f"FAIL {name} {mode}: compile: {c.stderr.strip()}")
                failed += 1
                continue
            isa = run([f"{BIN}/accel-translate", "--binary-to-isa", binary]).stdout
            recur = isa.count("isa.recur ")
            want_recur = mode != "plain"
            r = run([f"{BIN}/accel-run", binary, "--strict-hazards",
                     "--output-dir", f"{TMP}/rnn-engine-out"] + args)
            ok = r.returncode == 0 and (recur > 0) == want_recur
            print(f"{'ok' if ok else 'FAIL'} {name} {mode}: {recur} RECUR"
                  + ("" if ok else f": {r.stderr.strip()}"))
            passed += ok
            failed += not ok
    for kind, H, I in (("LSTM", 256, 128), ("GRU", 160, 96)):
        ok = large_case(kind, H, I)
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")


main()
