#!/usr/bin/python3
"""Recurrent models as exporters write them, with deterministic random
weights: DIR/<name>.onnx, its inputs DIR/<name>.in.<input>.npy and the
tensors to bind at compile time DIR/<name>.bind.<input>.pb.

  /usr/bin/python3 scripts/rnn_models/make_rnn_models.py --size small|real --out DIR [NAMES...]
  /usr/bin/python3 scripts/rnn_models/make_rnn_models.py --list

Models (inputs -> outputs; the state inputs / outputs are the pairs of
`accel-run --stream --state IN=OUT`, see STATES):
  vad         Silero-VAD style voice activity detector: x [1, 1, L] audio,
              h0 / c0 [1, 1, H] LSTM state, sr (INT64 scalar, bound at
              compile time) -> prob [1, 1], hn, cn. `If(Equal(sr, 16000))`
              picks the 16 kHz network (Conv1d stride 4) or the 8 kHz one
              (stride 2, other weights); each is Conv1d + Relu, Conv1d +
              Relu, Transpose to time-major, LSTM with state, the last step
              through Gemm + Sigmoid.
  kws         GRU keyword spotter: features x [1, T, F] (batch first), h0
              [1, 1, H] -> probs [1, K] (Softmax of a Gemm of the last
              hidden state), hn.
  bilstm2     two stacked bidirectional LSTM layers: x [T, 1, I] -> y
              [T, 2, 1, H] (second layer), hn [2, 1, H]; the first layer's
              Y goes through Transpose + Reshape, as PyTorch exports it.

`small` is the CI size (seconds to simulate), `real` closer to the deployed
models (VAD: 512 samples, H 64; KWS: 49 frames x 40 features, H 64, 12
keywords; BiLSTM: 50 steps, I 40, H 64). The same command always writes the
same bytes (fixed seeds)."""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64 = TensorProto.FLOAT, TensorProto.INT64
SIZES = {
    "vad": {"small": dict(L=64, C=8, H=8), "real": dict(L=512, C=64, H=64)},
    "kws": {"small": dict(T=8, F=10, H=12, K=4), "real": dict(T=49, F=40, H=64, K=12)},
    "bilstm2": {"small": dict(T=6, I=5, H=6), "real": dict(T=50, I=40, H=64)},
}
# State pairs (input, output) for accel-run --stream.
STATES = {"vad": [("h0", "hn"), ("c0", "cn")], "kws": [("h0", "hn")], "bilstm2": []}


class Weights:
    """Deterministic initializers named after their layer."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.inits = []

    def __call__(self, name, shape, scale=None):
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
        scale = scale if scale is not None else 1.0 / np.sqrt(max(fan_in, 1))
        a = (scale * self.rng.standard_normal(shape)).astype(np.float32)
        self.inits.append(numpy_helper.from_array(a, name))
        return name

    def const(self, name, value, dtype):
        self.inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def model(graph, opset=17):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    m.producer_name = "accel-rnn-models"
    onnx.checker.check_model(m)
    return m


def vad_branch(tag, stride, L, C, H, seed):
    """The 8 / 16 kHz network of the VAD: its weights are the branch's own
    initializers, x / h0 / c0 are read from the outer graph by name."""
    w = Weights(seed)
    T = L // stride
    p = f"/{tag}"
    nodes = [
        helper.make_node("Conv", ["x", w(f"{p}/conv1.w", (C, 1, stride)), w(f"{p}/conv1.b", (C,))],
                         [f"{p}/c1"], name=f"{p}/conv1/Conv", strides=[stride]),
        helper.make_node("Relu", [f"{p}/c1"], [f"{p}/r1"], name=f"{p}/relu1/Relu"),
        helper.make_node("Conv", [f"{p}/r1", w(f"{p}/conv2.w", (C, C, 3)), w(f"{p}/conv2.b", (C,))],
                         [f"{p}/c2"], name=f"{p}/conv2/Conv", pads=[1, 1]),
        helper.make_node("Relu", [f"{p}/c2"], [f"{p}/r2"], name=f"{p}/relu2/Relu"),
        helper.make_node("Transpose", [f"{p}/r2"], [f"{p}/seq"], name=f"{p}/Transpose",
                         perm=[2, 0, 1]),                                   # [T, 1, C]
        helper.make_node("LSTM", [f"{p}/seq", w(f"{p}/lstm.W", (1, 4 * H, C)),
                                  w(f"{p}/lstm.R", (1, 4 * H, H)),
                                  w(f"{p}/lstm.B", (1, 8 * H), 0.1), "", "h0", "c0"],
                         [f"{p}/Y", f"{p}/hn", f"{p}/cn"], name=f"{p}/lstm/LSTM", hidden_size=H),
        helper.make_node("Squeeze", [f"{p}/hn", w.const(f"{p}/axes0", [0], np.int64)],
                         [f"{p}/last"], name=f"{p}/Squeeze"),               # [1, H]
        helper.make_node("Gemm", [f"{p}/last", w(f"{p}/fc.w", (1, H)), w(f"{p}/fc.b", (1,))],
                         [f"{p}/logit"], name=f"{p}/fc/Gemm", transB=1),
        helper.make_node("Sigmoid", [f"{p}/logit"], [f"{p}/prob"], name=f"{p}/Sigmoid"),
    ]
    outs = [vi(f"{p}/prob", F, [1, 1]), vi(f"{p}/hn", F, [1, 1, H]), vi(f"{p}/cn", F, [1, 1, H])]
    assert T >= 1
    return helper.make_graph(nodes, tag, [], outs, initializer=w.inits)


def vad(size, rate=16000):
    d = SIZES["vad"][size]
    L, C, H = d["L"], d["C"], d["H"]
    w = Weights(1)
    g = helper.make_graph(
        [helper.make_node("Equal", ["sr", w.const("k16000", 16000, np.int64)], ["is16k"],
                          name="/Equal"),
         helper.make_node("If", ["is16k"], ["prob", "hn", "cn"], name="/If",
                          then_branch=vad_branch("model16k", 4, L, C, H, 16),
                          else_branch=vad_branch("model8k", 2, L, C, H, 8))],
        "silero_vad_like",
        [vi("x", F, [1, 1, L]), vi("sr", I64, []), vi("h0", F, [1, 1, H]), vi("c0", F, [1, 1, H])],
        [vi("prob", F, [1, 1]), vi("hn", F, [1, 1, H]), vi("cn", F, [1, 1, H])],
        initializer=w.inits)
    rng = np.random.default_rng(100)
    inputs = {"x": (0.5 * rng.standard_normal((1, 1, L))).astype(np.float32),
              "h0": np.zeros((1, 1, H), np.float32), "c0": np.zeros((1, 1, H), np.float32)}
    return model(g), inputs, {"sr": np.array(rate, np.int64)}


def kws(size):
    d = SIZES["kws"][size]
    T, Fe, H, K = d["T"], d["F"], d["H"], d["K"]
    w = Weights(2)
    nodes = [
        helper.make_node("Transpose", ["x"], ["seq"], name="/Transpose", perm=[1, 0, 2]),
        helper.make_node("GRU", ["seq", w("gru.W", (1, 3 * H, Fe)), w("gru.R", (1, 3 * H, H)),
                                 w("gru.B", (1, 6 * H), 0.1), "", "h0"],
                         ["Y", "hn"], name="/gru/GRU", hidden_size=H, linear_before_reset=1),
        helper.make_node("Shape", ["hn"], ["hshape"], name="/Shape"),
        helper.make_node("Gather", ["hshape", w.const("idx2", 2, np.int64)], ["hsize"],
                         name="/Gather", axis=0),
        helper.make_node("Unsqueeze", ["hsize", w.const("axes0", [0], np.int64)], ["hsize1"],
                         name="/Unsqueeze"),
        helper.make_node("Concat", [w.const("minus1", [-1], np.int64), "hsize1"], ["flat_shape"],
                         name="/Concat", axis=0),
        helper.make_node("Reshape", ["hn", "flat_shape"], ["last"], name="/Reshape"),
        helper.make_node("Gemm", ["last", w("fc.w", (K, H)), w("fc.b", (K,))], ["logits"],
                         name="/fc/Gemm", transB=1),
        helper.make_node("Softmax", ["logits"], ["probs"], name="/Softmax", axis=-1),
    ]
    g = helper.make_graph(nodes, "gru_kws", [vi("x", F, [1, T, Fe]), vi("h0", F, [1, 1, H])],
                          [vi("probs", F, [1, K]), vi("hn", F, [1, 1, H])], initializer=w.inits)
    rng = np.random.default_rng(200)
    inputs = {"x": rng.standard_normal((1, T, Fe)).astype(np.float32),
              "h0": np.zeros((1, 1, H), np.float32)}
    return model(g), inputs, {}


def bilstm2(size):
    d = SIZES["bilstm2"][size]
    T, I, H = d["T"], d["I"], d["H"]
    w = Weights(3)
    nodes = [
        helper.make_node("LSTM", ["x", w("l0.W", (2, 4 * H, I)), w("l0.R", (2, 4 * H, H)),
                                  w("l0.B", (2, 8 * H), 0.1)],
                         ["Y0", "", ""], name="/lstm/LSTM", hidden_size=H,
                         direction="bidirectional"),
        helper.make_node("Transpose", ["Y0"], ["Y0t"], name="/Transpose", perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["Y0t", w.const("shape1", [0, 0, -1], np.int64)], ["x1"],
                         name="/Reshape"),
        helper.make_node("LSTM", ["x1", w("l1.W", (2, 4 * H, 2 * H)), w("l1.R", (2, 4 * H, H)),
                                  w("l1.B", (2, 8 * H), 0.1)],
                         ["y", "hn"], name="/lstm_1/LSTM", hidden_size=H,
                         direction="bidirectional"),
    ]
    g = helper.make_graph(nodes, "bilstm2", [vi("x", F, [T, 1, I])],
                          [vi("y", F, [T, 2, 1, H]), vi("hn", F, [2, 1, H])], initializer=w.inits)
    rng = np.random.default_rng(300)
    return model(g), {"x": rng.standard_normal((T, 1, I)).astype(np.float32)}, {}


MODELS = {"vad": vad, "kws": kws, "bilstm2": bilstm2}


def write_model(name, size, out_dir):
    """Writes one model, its inputs and its bound tensors; returns (onnx
    path, {input: npy path}, {bound input: pb path})."""
    m, inputs, binds = MODELS[name](size)
    path = os.path.join(out_dir, f"{name}.onnx")
    onnx.save(m, path)
    files, bound = {}, {}
    for n, a in inputs.items():
        files[n] = os.path.join(out_dir, f"{name}.in.{n}.npy")
        np.save(files[n], a)
    for n, a in binds.items():
        bound[n] = os.path.join(out_dir, f"{name}.bind.{n}.pb")
        with open(bound[n], "wb") as f:
            f.write(numpy_helper.from_array(a, n).SerializeToString())
        # The reference executor gets the bound value as an ordinary input.
        np.save(os.path.join(out_dir, f"{name}.in.{n}.npy"), a)
    return path, files, bound


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", choices=["small", "real"], default="small")
    ap.add_argument("--out", help="output directory (created)")
    ap.add_argument("--list", action="store_true", help="print the model names")
    ap.add_argument("names", nargs="*", metavar="NAME")
    a = ap.parse_args()
    if a.list:
        print("\n".join(MODELS))
        return 0
    if not a.out:
        ap.error("--out DIR is required")
    unknown = [n for n in a.names if n not in MODELS]
    if unknown:
        ap.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    os.makedirs(a.out, exist_ok=True)
    for name in a.names or list(MODELS):
        path, _, _ = write_model(name, a.size, a.out)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
