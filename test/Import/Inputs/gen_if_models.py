"""ONNX `If` models as exporters write them, for test/Import/if.test and
test/tools/accel-run-stream.test (the LSTM). Deterministic weights; every
model is valid ONNX (onnx.checker).

usage: gen_if_models.py OUTDIR

Writes to OUTDIR:
  if_sr.onnx       Silero-VAD style: cond = Equal(sr, 16000) on a scalar
                   INT64 input; the then branch (16 kHz) is Mul by an outer
                   initializer + Relu, the else branch (8 kHz) Sigmoid; both
                   read the outer graph input 'x' by name.
  sr16k.pb, sr8k.pb  the scalar sample rates to --bind.
  if_nested.onnx   the outer condition comes from static shapes
                   (Shape -> Gather -> Greater); its then branch holds an If
                   on Not(Equal(sr, 8000)) whose branches both define
                   'local' (branch scopes are separate) and read the outer
                   't'. The untaken outer branch uses Unique, which the
                   importer does not support. (The ONNX checker refuses a
                   branch that redefines an outer name, so no model
                   shadows one.)
  if_lstm.onnx     an LSTM (weights inside the branch) with state inputs
                   h0 / c0 from the outer scope, chosen by a constant
                   initializer condition; outputs Y, Y_h, Y_c. Nodes are
                   named like exporter paths ("/If", "/lstm/LSTM").
  if_runtime.onnx  cond = Greater(ReduceSum(x), 0): a runtime condition.
  if_runtime_nested.onnx  the same condition computed in the main graph and
                   tested by an If inside the branch of a constant If.
  if_sr_ref_*.npy  x, and the numpy results of if_sr for both rates.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
rng = np.random.default_rng(7)


def save(m, out, name):
    m.producer_name = "accel-test-gen"
    onnx.checker.check_model(m)
    onnx.save_model(m, os.path.join(out, name))


def model(graph, opset=17):
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=8)


def const(name, value, dtype=np.int64):
    return helper.make_node("Constant", [], [name], name=name + "_const",
                            value=numpy_helper.from_array(np.asarray(value, dtype=dtype)))


def sr_model():
    w = rng.standard_normal((2, 8)).astype(np.float32)
    then_g = helper.make_graph(
        [helper.make_node("Mul", ["x", "w"], ["m"], name="scale"),
         helper.make_node("Relu", ["m"], ["y16"], name="relu")],
        "sr16k", [], [helper.make_tensor_value_info("y16", F, [2, 8])])
    else_g = helper.make_graph(
        [helper.make_node("Sigmoid", ["x"], ["y8"], name="sigmoid")],
        "sr8k", [], [helper.make_tensor_value_info("y8", F, [2, 8])])
    g = helper.make_graph(
        [const("k16000", 16000),
         helper.make_node("Equal", ["sr", "k16000"], ["cond"], name="is16k"),
         helper.make_node("If", ["cond"], ["y"], name="sr_check",
                          then_branch=then_g, else_branch=else_g)],
        "if_sr",
        [helper.make_tensor_value_info("x", F, [2, 8]),
         helper.make_tensor_value_info("sr", I64, [])],
        [helper.make_tensor_value_info("y", F, [2, 8])],
        initializer=[numpy_helper.from_array(w, "w")])
    return g, w


def nested_model():
    inner_then = helper.make_graph(
        [helper.make_node("Neg", ["t"], ["local"], name="neg"),      # outer 't'
         helper.make_node("Add", ["local", "x"], ["v1"], name="add")],
        "inner_then", [], [helper.make_tensor_value_info("v1", F, [2, 8])])
    inner_else = helper.make_graph(
        [helper.make_node("Tanh", ["t"], ["local"], name="tanh")],  # same local name
        "inner_else", [], [helper.make_tensor_value_info("local", F, [2, 8])])
    outer_then = helper.make_graph(
        [const("k8000", 8000),
         helper.make_node("Equal", ["sr", "k8000"], ["is8k"], name="is8k"),
         helper.make_node("Not", ["is8k"], ["not8k"], name="not8k"),
         helper.make_node("If", ["not8k"], ["v"], name="inner",
                          then_branch=inner_then, else_branch=inner_else)],
        "outer_then", [], [helper.make_tensor_value_info("v", F, [2, 8])])
    outer_else = helper.make_graph(
        [helper.make_node("Unique", ["x"], ["uniq"], name="unique")],
        "outer_else", [], [helper.make_tensor_value_info("uniq", F, [2, 8])])
    g = helper.make_graph(
        [helper.make_node("Exp", ["x"], ["t"], name="exp"),
         helper.make_node("Shape", ["x"], ["shape"], name="shape"),
         const("one", 1),
         helper.make_node("Gather", ["shape", "one"], ["width"], name="width"),
         const("four", 4),
         helper.make_node("Greater", ["width", "four"], ["wide"], name="wide"),
         helper.make_node("If", ["wide"], ["y"], name="outer",
                          then_branch=outer_then, else_branch=outer_else)],
        "if_nested",
        [helper.make_tensor_value_info("x", F, [2, 8]),
         helper.make_tensor_value_info("sr", I64, [])],
        [helper.make_tensor_value_info("y", F, [2, 8])])
    return g


def lstm_model():
    T, N, I, H = 5, 1, 3, 4
    W = (0.5 * rng.standard_normal((1, 4 * H, I))).astype(np.float32)
    R = (0.5 * rng.standard_normal((1, 4 * H, H))).astype(np.float32)
    Bb = (0.1 * rng.standard_normal((1, 8 * H))).astype(np.float32)
    then_g = helper.make_graph(
        [helper.make_node("LSTM", ["x", "W", "R", "B", "", "h0", "c0"],
                          ["Yb", "Yhb", "Ycb"], name="/lstm/LSTM", hidden_size=H)],
        "lstm_branch", [],
        [helper.make_tensor_value_info("Yb", F, [T, 1, N, H]),
         helper.make_tensor_value_info("Yhb", F, [1, N, H]),
         helper.make_tensor_value_info("Ycb", F, [1, N, H])],
        initializer=[numpy_helper.from_array(W, "W"), numpy_helper.from_array(R, "R"),
                     numpy_helper.from_array(Bb, "B")])
    else_g = helper.make_graph(
        [helper.make_node("Identity", ["h0"], ["eh"], name="eh"),
         helper.make_node("Identity", ["c0"], ["ec"], name="ec"),
         helper.make_node("Unsqueeze", ["h0", "zero"], ["ey"], name="ey")],
        "skip", [],
        [helper.make_tensor_value_info("ey", F, [1, 1, N, H]),
         helper.make_tensor_value_info("eh", F, [1, N, H]),
         helper.make_tensor_value_info("ec", F, [1, N, H])])
    g = helper.make_graph(
        [helper.make_node("If", ["use_lstm"], ["Y", "Y_h", "Y_c"], name="/If",
                          then_branch=then_g, else_branch=else_g)],
        "if_lstm",
        [helper.make_tensor_value_info("x", F, [T, N, I]),
         helper.make_tensor_value_info("h0", F, [1, N, H]),
         helper.make_tensor_value_info("c0", F, [1, N, H])],
        [helper.make_tensor_value_info("Y", F, [T, 1, N, H]),
         helper.make_tensor_value_info("Y_h", F, [1, N, H]),
         helper.make_tensor_value_info("Y_c", F, [1, N, H])],
        initializer=[numpy_helper.from_array(np.array(True), "use_lstm"),
                     numpy_helper.from_array(np.array([0], np.int64), "zero")])
    return g


def runtime_model():
    then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["a"], name="r")],
                               "t", [], [helper.make_tensor_value_info("a", F, [2, 8])])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["b"], name="n")],
                               "e", [], [helper.make_tensor_value_info("b", F, [2, 8])])
    g = helper.make_graph(
        [helper.make_node("ReduceSum", ["x"], ["s"], name="sum", keepdims=0),
         const("zero", 0.0, np.float32),
         helper.make_node("Greater", ["s", "zero"], ["positive"], name="positive"),
         helper.make_node("If", ["positive"], ["y"], name="sign_check",
                          then_branch=then_g, else_branch=else_g)],
        "if_runtime", [helper.make_tensor_value_info("x", F, [2, 8])],
        [helper.make_tensor_value_info("y", F, [2, 8])])
    return g


def runtime_nested_model():
    """A branch whose If tests a runtime value of the outer graph: no graph
    input of the branch's own nodes is behind it."""
    inner = runtime_model().node[3]
    outer_then = helper.make_graph([inner], "outer_then", [],
                                   [helper.make_tensor_value_info("y", F, [2, 8])])
    outer_else = helper.make_graph([helper.make_node("Identity", ["x"], ["z"], name="id")],
                                   "outer_else", [],
                                   [helper.make_tensor_value_info("z", F, [2, 8])])
    g = runtime_model()
    del g.node[3]
    g.node.extend([helper.make_node("If", ["always"], ["y"], name="outer",
                                    then_branch=outer_then, else_branch=outer_else)])
    g.initializer.extend([numpy_helper.from_array(np.array(True), "always")])
    g.name = "if_runtime_nested"
    return g


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    g, w = sr_model()
    save(model(g), out, "if_sr.onnx")
    for rate, name in [(16000, "sr16k.pb"), (8000, "sr8k.pb")]:
        t = numpy_helper.from_array(np.array(rate, np.int64), "sr")
        with open(os.path.join(out, name), "wb") as f:
            f.write(t.SerializeToString())
    x = rng.standard_normal((2, 8)).astype(np.float32)
    np.save(os.path.join(out, "if_sr_ref_x.npy"), x)
    np.save(os.path.join(out, "if_sr_ref_16k.npy"), np.maximum(x * w, 0))
    np.save(os.path.join(out, "if_sr_ref_8k.npy"), 1 / (1 + np.exp(-x)))
    save(model(nested_model()), out, "if_nested.onnx")
    save(model(lstm_model()), out, "if_lstm.onnx")
    save(model(runtime_model()), out, "if_runtime.onnx")
    save(model(runtime_nested_model()), out, "if_runtime_nested.onnx")


if __name__ == "__main__":
    main()
