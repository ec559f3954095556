#!/usr/bin/python3
"""accel-run --stream end to end: an LSTM with its state as inputs and
outputs (X, h0, c0 -> Y, Y_h, Y_c), compiled for a chunk of C time steps,
streamed over K chunks with --state h0=Y_h --state c0=Y_c, must give what
one run of the same LSTM compiled for the whole K*C steps gives: the final
state, and the chunks' Y concatenated along time (within tolerance). Also a
GRU (one state), and the state starting from zeros (no h0 / c0 file).

usage: stream_e2e.py BIN_DIR   (prints PASS / FAIL lines and a summary)
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BIN = sys.argv[1]
F = TensorProto.FLOAT
rng = np.random.default_rng(5)


def rnn_model(kind, steps, batch, inp, hidden, weights):
    """ONNX LSTM / GRU with initial state inputs and every output."""
    gates = {"LSTM": 4, "GRU": 3}[kind]
    W, R, B = weights
    ins = ["x", "W", "R", "B", "", "h0"] + (["c0"] if kind == "LSTM" else [])
    outs = ["Y", "Y_h"] + (["Y_c"] if kind == "LSTM" else [])
    state = [1, batch, hidden]
    g = helper.make_graph(
        [helper.make_node(kind, ins, outs, name="rnn", hidden_size=hidden)],
        kind.lower() + "_state",
        [helper.make_tensor_value_info("x", F, [steps, batch, inp]),
         helper.make_tensor_value_info("h0", F, state)] +
        ([helper.make_tensor_value_info("c0", F, state)] if kind == "LSTM" else []),
        [helper.make_tensor_value_info("Y", F, [steps, 1, batch, hidden]),
         helper.make_tensor_value_info("Y_h", F, state)] +
        ([helper.make_tensor_value_info("Y_c", F, state)] if kind == "LSTM" else []),
        initializer=[numpy_helper.from_array(W, "W"), numpy_helper.from_array(R, "R"),
                     numpy_helper.from_array(B, "B")])
    assert W.shape[1] == gates * hidden
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)], ir_version=8)
    onnx.checker.check_model(m)
    return m


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def case(work, name, kind, chunks, steps, batch, inp, hidden, give_state):
    gates = {"LSTM": 4, "GRU": 3}[kind]
    weights = ((0.5 * rng.standard_normal((1, gates * hidden, inp))).astype(np.float32),
               (0.5 * rng.standard_normal((1, gates * hidden, hidden))).astype(np.float32),
               (0.2 * rng.standard_normal((1, 2 * gates * hidden))).astype(np.float32))
    d = os.path.join(work, name)
    os.makedirs(d)
    states = ["h0"] + (["c0"] if kind == "LSTM" else [])
    outs = {"h0": "Y_h", "c0": "Y_c"}
    for tag, t in [("chunk", steps), ("whole", steps * chunks)]:
        onnx.save(rnn_model(kind, t, batch, inp, hidden, weights), f"{d}/{tag}.onnx")
        code, text = run([f"{BIN}/accel-compile", f"{d}/{tag}.onnx", "-o", f"{d}/{tag}.bin"])
        if code:
            return f"accel-compile {tag}: {text}"
    x = rng.standard_normal((steps * chunks, batch, inp)).astype(np.float32)
    init = {s: (rng.standard_normal((1, batch, hidden)).astype(np.float32) if give_state
                else np.zeros((1, batch, hidden), np.float32)) for s in states}
    np.save(f"{d}/x.npy", x)
    for s in states:
        np.save(f"{d}/{s}.npy", init[s])
    files = []
    for k in range(chunks):
        np.save(f"{d}/x.{k}.npy", x[k * steps:(k + 1) * steps])
        files.append(f"{d}/x.{k}.npy")
    cmd = [f"{BIN}/accel-run", f"{d}/chunk.bin", "--stream", "--strict-hazards",
           "--input", "x=" + ",".join(files), "--output-dir", f"{d}/stream"]
    for s in states:
        if give_state:
            cmd += ["--input", f"{s}={d}/{s}.npy"]
        cmd += ["--state", f"{s}={outs[s]}"]
    code, text = run(cmd)
    if code:
        return "accel-run --stream: " + text
    cmd = [f"{BIN}/accel-run", f"{d}/whole.bin", "--strict-hazards", "--input",
           f"x={d}/x.npy", "--output-dir", f"{d}/whole"]
    cmd += [a for s in states for a in ("--input", f"{s}={d}/{s}.npy")]
    code, text = run(cmd)
    if code:
        return "accel-run: " + text
    ys = np.concatenate([np.load(f"{d}/stream/Y.{k}.npy") for k in range(chunks)])
    pairs = [("Y", ys, np.load(f"{d}/whole/Y.npy"))]
    for s in states:
        pairs.append((outs[s], np.load(f"{d}/stream/{outs[s]}.{chunks - 1}.npy"),
                      np.load(f"{d}/whole/{outs[s]}.npy")))
    for n, got, want in pairs:
        if got.shape != want.shape or not np.allclose(got, want, atol=1e-4, rtol=1e-4):
            return f"{n}: streamed differs from the whole run (max abs error " \
                   f"{np.abs(got - want).max() if got.shape == want.shape else 'shape'})"
    import json
    with open(f"{d}/stream/stats.json") as f:
        st = json.load(f)
    if st["chunks"] != chunks or len(st["chunk_cycles"]) != chunks or \
            st["cycles"] != sum(st["chunk_cycles"]):
        return f"stats.json: {st}"
    return None


CASES = [
    ("lstm-3x4", "LSTM", 3, 4, 1, 3, 5, True),
    ("lstm-zero-state", "LSTM", 3, 2, 2, 4, 3, False),
    ("gru-4x3", "GRU", 4, 3, 1, 2, 4, True),
]


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for c in CASES:
            err = case(work, *c)
            print(("PASS " if err is None else "FAIL ") + c[0] + ("" if err is None else ": " + err))
            passed += err is None
            failed += err is not None
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
