#!/usr/bin/python3
"""Run-time sequence_lens of ONNX LSTM / GRU: sequence_lens is a graph input
(int32 or int64), so one compiled binary serves every length vector. Each
model is compiled once, then run (accel-run --strict-hazards) with several
lens tensors and compared with a numpy reference of the ONNX equations with
sequence_lens written here, independently of the compiler. Also checks the
errors accel-run gives for a float lens tensor, a wrong shape and a value
too large for f32, the compile error for a FLOAT sequence_lens input, and
that a length above seq_length acts as seq_length
(the documented clamp)."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BIN = sys.argv[1]
rng = np.random.default_rng(23)
T, BATCH, I, H = 4, 3, 5, 4


def sig(x):
    return 1 / (1 + np.exp(-x))


def lstm_step(x, h, c, W, R, Wb, Rb):
    """ONNX LSTM (gates i, o, f, c; default activations, no peepholes)."""
    g = W @ x + R @ h + Wb + Rb
    i, o, f, ct = sig(g[:H]), sig(g[H:2 * H]), sig(g[2 * H:3 * H]), np.tanh(g[3 * H:])
    c = f * c + i * ct
    return o * np.tanh(c), c


def gru_step(x, h, c, W, R, Wb, Rb):
    """ONNX GRU (gates z, r, h; linear_before_reset = 0)."""
    z = sig(W[:H] @ x + R[:H] @ h + Wb[:H] + Rb[:H])
    r = sig(W[H:2 * H] @ x + R[H:2 * H] @ h + Wb[H:2 * H] + Rb[H:2 * H])
    ht = np.tanh(W[2 * H:] @ x + R[2 * H:] @ (r * h) + Wb[2 * H:] + Rb[2 * H:])
    return (1 - z) * ht + z * h, c


def reference(kind, direction, X, W, R, Bias, lens, h0, c0, dirs):
    """Y, Y_h (and Y_c): a batch entry b runs steps 0 .. lens[b] - 1 (the
    reverse direction lens[b] - 1 .. 0); Y is 0 past its length and the
    final states are those of its last step."""
    step = lstm_step if kind == "lstm" else gru_step
    G = Bias.shape[1] // 2
    Y = np.zeros((T, dirs, BATCH, H))
    Yh = np.zeros((dirs, BATCH, H))
    Yc = np.zeros((dirs, BATCH, H))
    for d in range(dirs):
        for b in range(BATCH):
            h, c = h0[d, b].copy(), c0[d, b].copy()
            L = min(int(lens[b]), T)
            reverse = direction == "reverse" or d == 1
            for t in (range(L - 1, -1, -1) if reverse else range(L)):
                h, c = step(X[t, b], h, c, W[d], R[d], Bias[d, :G], Bias[d, G:])
                Y[t, d, b] = h
            Yh[d, b], Yc[d, b] = h, c
    return [Y, Yh, Yc] if kind == "lstm" else [Y, Yh]


def build(kind, direction, lens_type, work):
    """A one-node model whose inputs are X and L (the lengths); weights,
    bias and initial states are initializers. Returns (path, arrays)."""
    dirs = 2 if direction == "bidirectional" else 1
    G = 4 if kind == "lstm" else 3
    a = dict(W=(rng.standard_normal((dirs, G * H, I)) * 0.5).astype(np.float32),
             R=(rng.standard_normal((dirs, G * H, H)) * 0.5).astype(np.float32),
             B=(rng.standard_normal((dirs, 2 * G * H)) * 0.3).astype(np.float32),
             H0=(rng.standard_normal((dirs, BATCH, H)) * 0.5).astype(np.float32),
             C0=(rng.standard_normal((dirs, BATCH, H)) * 0.5).astype(np.float32))
    ins = ["X", "W", "R", "B", "L", "H0"] + (["C0"] if kind == "lstm" else [])
    outs = ["Y", "Y_h"] + (["Y_c"] if kind == "lstm" else [])
    node = helper.make_node(kind.upper(), ins, outs, hidden_size=H, direction=direction)
    f32 = lambda nm, shape: helper.make_tensor_value_info(nm, TensorProto.FLOAT, shape)
    inputs = [f32("X", [T, BATCH, I]), helper.make_tensor_value_info("L", lens_type, [BATCH])]
    results = [f32("Y", [T, dirs, BATCH, H]), f32("Y_h", [dirs, BATCH, H])]
    if kind == "lstm":
        results.append(f32("Y_c", [dirs, BATCH, H]))
    inits = [numpy_helper.from_array(a[k], k) for k in ins if k in a]
    graph = helper.make_graph([node], "seqlens", inputs, results, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    path = os.path.join(work, f"{kind}_{direction}.onnx")
    onnx.save(model, path)
    return path, a, outs, dirs


def run(binary, work, X, lens_file):
    """accel-run on X and the lens file: (outputs dir, None) or (None, error)."""
    np.save(os.path.join(work, "x.npy"), X)
    out = os.path.join(work, "out")
    p = subprocess.run([os.path.join(BIN, "accel-run"), binary, "--input",
                        f"X={os.path.join(work, 'x.npy')}", "--input", f"L={lens_file}",
                        "--output-dir", out, "--strict-hazards"],
                       capture_output=True, text=True)
    return (None, p.stderr.strip()) if p.returncode else (out, None)


passed = failed = 0


def report(ok, name, why=""):
    global passed, failed
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why))
    passed += ok
    failed += not ok


# (kind, direction, ONNX type of L, lens vectors run on the same binary).
# [5, 4, 6] exceeds seq_length 4: clamped, so it must equal [4, 4, 4]; a
# length 0 outputs zeros and keeps the initial state.
CASES = [
    ("lstm", "forward", TensorProto.INT32, [[3, 1, 2], [2, 2, 2], [4, 4, 4]]),
    ("lstm", "bidirectional", TensorProto.INT32, [[3, 1, 2], [2, 2, 2], [5, 4, 6]]),
    ("gru", "forward", TensorProto.INT64, [[3, 1, 2], [2, 2, 2], [0, 3, 2]]),
    ("gru", "bidirectional", TensorProto.INT32, [[3, 1, 2], [2, 2, 2], [1, 4, 3]]),
    ("lstm", "reverse", TensorProto.INT64, [[3, 1, 2], [4, 2, 1]]),
]

with tempfile.TemporaryDirectory() as work:
    for kind, direction, lens_type, all_lens in CASES:
        path, a, outs, dirs = build(kind, direction, lens_type, work)
        name = f"{kind}_{direction}"
        p = subprocess.run([os.path.join(BIN, "accel-compile"), path, "-o", path + ".bin"],
                           capture_output=True, text=True)
        if p.returncode:
            report(False, name, "compile: " + p.stderr.strip()[:300])
            continue
        X = rng.standard_normal((T, BATCH, I)).astype(np.float32)
        np_type = np.int32 if lens_type == TensorProto.INT32 else np.int64
        for lens in all_lens:
            lens_file = os.path.join(work, "lens.npy")
            np.save(lens_file, np.array(lens, dtype=np_type))
            out, err = run(path + ".bin", work, X, lens_file)
            tag = f"{name} lens={lens}"
            if err:
                report(False, tag, "run: " + err[:300])
                continue
            ref = reference(kind, direction, X.astype(np.float64), a["W"], a["R"], a["B"],
                            lens, a["H0"], a["C0"], dirs)
            errs = []
            for nm, r in zip(outs, ref):
                got = np.load(os.path.join(out, nm + ".npy"))
                if got.shape != r.shape or not np.allclose(got, r, rtol=1e-3, atol=1e-5):
                    errs.append(f"{nm} max error "
                                f"{np.max(np.abs(got - r)) if got.shape == r.shape else 'shape'}")
            report(not errs, tag, "; ".join(errs))

    # Errors, on the first binary (an LSTM with int32 lengths).
    binary = os.path.join(work, "lstm_forward.onnx.bin")
    X = np.zeros((T, BATCH, I), np.float32)
    ERRORS = [
        ("float lens", np.array([3, 1, 2], np.float32),
         "input 'L' is an integer input (i32) but was given a f32 tensor"),
        ("wrong shape", np.array([3, 1], np.int32),
         "input 'L' has shape [2] but the program expects [3]"),
        ("too large for f32", np.array([3, 1, 1 << 24], np.int64),
         "input 'L': value at index 2 is outside (-2^24, 2^24)"),
    ]
    for what, lens, want in ERRORS:
        lens_file = os.path.join(work, "bad.npy")
        np.save(lens_file, lens)
        out, err = run(binary, work, X, lens_file)
        report(err is not None and want in err, f"error: {what}",
               f"expected '{want}', got {err!r}")
    # Any integer width is accepted: an int64 file for the int32 input.
    lens_file = os.path.join(work, "wide.npy")
    np.save(lens_file, np.array([3, 1, 2], np.int64))
    out, err = run(binary, work, X, lens_file)
    report(err is None, "int64 lens for an int32 input", f"got {err!r}")
    # The float check through an ONNX TensorProto file.
    lens_pb = os.path.join(work, "lens.pb")
    with open(lens_pb, "wb") as f:
        f.write(numpy_helper.from_array(np.array([3.0, 1.0, 2.0], np.float32), "L")
                .SerializeToString())
    out, err = run(binary, work, X, lens_pb)
    want = "input 'L' is an integer input (i32) but was given a f32 tensor"
    report(err is not None and want in err, "error: float lens (.pb)",
           f"expected '{want}', got {err!r}")

    # A FLOAT graph input as sequence_lens is refused at compile time.
    path, _, _, _ = build("gru", "forward", TensorProto.FLOAT, work)
    p = subprocess.run([os.path.join(BIN, "accel-compile"), path, "-o", path + ".bin"],
                       capture_output=True, text=True)
    want = "sequence_lens must be an integer tensor"
    report(p.returncode != 0 and want in p.stderr, "error: float sequence_lens input",
           f"expected '{want}', got {p.stderr.strip()!r}")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
