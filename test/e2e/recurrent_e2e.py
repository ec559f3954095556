#!/usr/bin/python3
"""End-to-end tests of ONNX RNN / GRU / LSTM attributes the backend suite
does not cover (bidirectional, sequence lengths, clip, input_forget,
linear_before_reset, non-default activations, layout = 1): each model is
built with onnx.helper, compiled, simulated (accel-run --strict-hazards) and
compared with a numpy reference written from the ONNX operator definitions."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BIN = sys.argv[1]
rng = np.random.default_rng(11)
sig = lambda x: 1 / (1 + np.exp(-x))
ACT = {"Sigmoid": lambda x, a, b: sig(x), "Tanh": lambda x, a, b: np.tanh(x),
       "Relu": lambda x, a, b: np.maximum(x, 0),
       "HardSigmoid": lambda x, a, b: np.clip(a * x + b, 0, 1),
       "LeakyRelu": lambda x, a, b: np.where(x < 0, a * x, x),
       "ScaledTanh": lambda x, a, b: a * np.tanh(b * x)}


def reference(kind, X, W, R, Bias, lens, h0, c0, P, hidden, direction, acts, alphas, betas,
              clip, input_forget, lbr):
    T, Bt, _ = X.shape
    dirs = 2 if direction == "bidirectional" else 1
    Y = np.zeros((T, dirs, Bt, hidden))
    Yh = np.zeros((dirs, Bt, hidden))
    Yc = np.zeros((dirs, Bt, hidden))
    nact = {"rnn": 1, "gru": 2, "lstm": 3}[kind]
    for d in range(dirs):
        rev = direction == "reverse" or d == 1
        f = [lambda x, i=i: ACT[acts[d * nact + i]](x, alphas[d * nact + i], betas[d * nact + i])
             for i in range(nact)]
        cl = (lambda x: np.clip(x, -clip, clip)) if clip else (lambda x: x)
        Wd, Rd = W[d], R[d]
        Wb, Rb = (Bias[d][:Wd.shape[0]], Bias[d][Wd.shape[0]:]) if Bias is not None else (0, 0)
        for b in range(Bt):
            h = h0[d, b].copy() if h0 is not None else np.zeros(hidden)
            c = c0[d, b].copy() if c0 is not None else np.zeros(hidden)
            L = lens[b]
            steps = range(L - 1, -1, -1) if rev else range(L)
            for t in steps:
                x = X[t, b]
                H = hidden
                if kind == "rnn":
                    h = f[0](cl(Wd @ x + Rd @ h + Wb + Rb))
                elif kind == "gru":
                    gx = Wd @ x + Wb
                    z = f[0](cl(gx[:H] + Rd[:H] @ h + Rb[:H] if Bias is not None else gx[:H] + Rd[:H] @ h))
                    rb = Rb if Bias is not None else np.zeros(3 * H)
                    z = f[0](cl(gx[:H] + Rd[:H] @ h + rb[:H]))
                    r = f[0](cl(gx[H:2 * H] + Rd[H:2 * H] @ h + rb[H:2 * H]))
                    if lbr:
                        ht = f[1](cl(gx[2 * H:] + r * (Rd[2 * H:] @ h + rb[2 * H:])))
                    else:
                        ht = f[1](cl(gx[2 * H:] + Rd[2 * H:] @ (r * h) + rb[2 * H:]))
                    h = (1 - z) * ht + z * h
                else:
                    g = Wd @ x + Rd @ h + Wb + Rb
                    p = P[d] if P is not None else np.zeros(3 * H)
                    i = f[0](cl(g[:H] + p[:H] * c))
                    fg = 1 - i if input_forget else f[0](cl(g[2 * H:3 * H] + p[2 * H:] * c))
                    ct = f[1](cl(g[3 * H:]))
                    c = fg * c + i * ct
                    o = f[0](cl(g[H:2 * H] + p[H:2 * H] * c))
                    h = o * f[2](c)
                Y[t, d, b] = h
            Yh[d, b], Yc[d, b] = h, c
    return Y, Yh, Yc


CASES = [
    dict(kind="lstm", direction="bidirectional", lens=[4, 2, 3], clip=0.8, peep=True, h0=True),
    dict(kind="lstm", direction="reverse", lens=[4, 4, 4], input_forget=1,
         acts=["HardSigmoid", "Tanh", "Relu"], alphas=[0.3, 0, 0], betas=[0.4, 0, 0]),
    dict(kind="gru", direction="bidirectional", lens=[3, 4, 1], lbr=1, h0=True),
    dict(kind="gru", direction="forward", lens=[4, 4, 4], lbr=0, clip=0.5,
         acts=["Sigmoid", "ScaledTanh"], alphas=[0, 0.7], betas=[0, 1.3]),
    dict(kind="rnn", direction="bidirectional", lens=[2, 4, 3],
         acts=["LeakyRelu"], alphas=[0.1], betas=[0.0]),
]

failed = 0
with tempfile.TemporaryDirectory() as work:
    for n, cs in enumerate(CASES):
        kind, direction = cs["kind"], cs["direction"]
        T, Bt, I, H = 4, 3, 5, 4
        dirs = 2 if direction == "bidirectional" else 1
        G = {"rnn": 1, "gru": 3, "lstm": 4}[kind]
        nact = {"rnn": 1, "gru": 2, "lstm": 3}[kind]
        acts = cs.get("acts", {"rnn": ["Tanh"], "gru": ["Sigmoid", "Tanh"],
                               "lstm": ["Sigmoid", "Tanh", "Tanh"]}[kind]) * dirs
        alphas = cs.get("alphas", [0.0] * nact) * dirs
        betas = cs.get("betas", [0.0] * nact) * dirs
        X = rng.standard_normal((T, Bt, I)).astype(np.float32)
        W = (rng.standard_normal((dirs, G * H, I)) * 0.5).astype(np.float32)
        R = (rng.standard_normal((dirs, G * H, H)) * 0.5).astype(np.float32)
        Bias = (rng.standard_normal((dirs, 2 * G * H)) * 0.3).astype(np.float32)
        lens = np.array(cs["lens"], dtype=np.int32)
        h0 = (rng.standard_normal((dirs, Bt, H)) * 0.5).astype(np.float32) if cs.get("h0") else None
        c0 = (rng.standard_normal((dirs, Bt, H)) * 0.5).astype(np.float32) if cs.get("h0") and kind == "lstm" else None
        P = (rng.standard_normal((dirs, 3 * H)) * 0.5).astype(np.float32) if cs.get("peep") else None
        inits = [numpy_helper.from_array(W, "W"), numpy_helper.from_array(R, "R"),
                 numpy_helper.from_array(Bias, "B"), numpy_helper.from_array(lens, "L")]
        ins = ["X", "W", "R", "B", "L"]
        if h0 is not None:
            inits.append(numpy_helper.from_array(h0, "H0")); ins.append("H0")
        else:
            ins.append("")
        if kind == "lstm":
            if c0 is not None:
                inits.append(numpy_helper.from_array(c0, "C0")); ins.append("C0")
            else:
                ins.append("")
            if P is not None:
                inits.append(numpy_helper.from_array(P, "P")); ins.append("P")
        while ins and ins[-1] == "":
            ins.pop()
        attrs = dict(hidden_size=H, direction=direction, activations=acts)
        if any(alphas):
            al = [a for a, nm in zip(alphas, acts) if nm in ("HardSigmoid", "LeakyRelu", "ScaledTanh")]
            be = [b for b, nm in zip(betas, acts) if nm in ("HardSigmoid", "ScaledTanh")]
            if al:
                attrs["activation_alpha"] = al
            if be:  # an empty list would be typed INTS by onnx.helper
                attrs["activation_beta"] = be
        if cs.get("clip"):
            attrs["clip"] = cs["clip"]
        if cs.get("input_forget"):
            attrs["input_forget"] = 1
        if kind == "gru":
            attrs["linear_before_reset"] = cs.get("lbr", 0)
        outs = ["Y", "Y_h"] + (["Y_c"] if kind == "lstm" else [])
        node = helper.make_node(kind.upper(), ins, outs, name="cell", **attrs)
        vi = lambda nm, shape: helper.make_tensor_value_info(nm, TensorProto.FLOAT, shape)
        graph = helper.make_graph([node], "rec", [vi("X", [T, Bt, I])],
                                  [vi("Y", [T, dirs, Bt, H]), vi("Y_h", [dirs, Bt, H])] +
                                  ([vi("Y_c", [dirs, Bt, H])] if kind == "lstm" else []), inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
        path = os.path.join(work, f"m{n}.onnx")
        onnx.save(model, path)
        ref = reference(kind, X.astype(np.float64), W, R, Bias, lens, h0, c0, P, H, direction,
                        acts, alphas, betas, cs.get("clip"), cs.get("input_forget"), cs.get("lbr"))
        name = f"{kind}_{direction}_{n}"
        p = subprocess.run([os.path.join(BIN, "accel-compile"), path, "-o", path + ".bin"],
                           capture_output=True, text=True)
        if p.returncode:
            print(f"FAIL {name}: compile: {p.stderr.strip()[:300]}")
            failed += 1
            continue
        np.save(os.path.join(work, "x.npy"), X)
        out = os.path.join(work, f"out{n}")
        p = subprocess.run([os.path.join(BIN, "accel-run"), path + ".bin", "--input",
                            f"X={os.path.join(work, 'x.npy')}", "--output-dir", out,
                            "--strict-hazards"],
                           capture_output=True, text=True)
        if p.returncode:
            print(f"FAIL {name}: run: {p.stderr.strip()[:300]}")
            failed += 1
            continue
        errs = []
        for nm, r in zip(outs, ref):
            got = np.load(os.path.join(out, nm + ".npy"))
            if got.shape != r.shape or not np.allclose(got, r, rtol=1e-3, atol=1e-5):
                errs.append(f"{nm} max error {np.max(np.abs(got - r)) if got.shape == r.shape else 'shape'}")
        print(("FAIL " if errs else "PASS ") + name + (": " + "; ".join(errs) if errs else ""))
        failed += bool(errs)
print(f"{len(CASES) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
