#!/usr/bin/python3
"""Generates the small ONNX models used by the test/Import lit tests.

Run with Debian's python3-onnx:  /usr/bin/python3 gen_models.py [OUTDIR]
(OUTDIR defaults to this script's folder). The outputs are committed; rerun
only when changing a model. Several models are deliberately invalid (cycle,
missing initializer) and are therefore saved without onnx.checker.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
F = TensorProto.FLOAT


def save(model, name, **kw):
    model.producer_name = "accel-test-gen"
    onnx.save_model(model, os.path.join(OUT, name), **kw)


def model(graph, opset=13):
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                             ir_version=8)


def raw(name, arr):
    """Initializer stored in raw_data."""
    return numpy_helper.from_array(np.asarray(arr, dtype=np.float32), name)


def floats(name, arr):
    """Initializer stored in float_data."""
    arr = np.asarray(arr, dtype=np.float32)
    return helper.make_tensor(name, F, arr.shape, arr.flatten().tolist(), raw=False)


# --- cyclic graph: add1 -> relu1 -> add1 -------------------------------------
g = helper.make_graph(
    [helper.make_node("Add", ["x", "t2"], ["t1"], name="add1"),
     helper.make_node("Relu", ["t1"], ["t2"], name="relu1")],
    "cyclic",
    [helper.make_tensor_value_info("x", F, [2, 2])],
    [helper.make_tensor_value_info("t2", F, [2, 2])])
save(model(g), "cyclic.onnx")

# --- missing initializer: conv1 reads 'conv1.weight', which nobody defines ---
g = helper.make_graph(
    [helper.make_node("Conv", ["x", "conv1.weight"], ["y"], name="conv1")],
    "missing_initializer",
    [helper.make_tensor_value_info("x", F, [1, 1, 4, 4])],
    [helper.make_tensor_value_info("y", F, [1, 1, 2, 2])])
save(model(g), "missing_initializer.onnx")

# --- unsupported operator with a node name ------------------------------------
g = helper.make_graph(
    [helper.make_node("Unique", ["x"], ["y"], name="unique_1")],
    "unsupported_named",
    [helper.make_tensor_value_info("x", F, [2, 3])],
    [helper.make_tensor_value_info("y", F, [2, 3])])
save(model(g, opset=14), "unsupported_named.onnx")

# --- MLP with initializers (raw_data and float_data), named nodes ------------
rng = np.random.default_rng(0)
w1 = rng.standard_normal((8, 12)).astype(np.float32)  # [out, in], transB = 1
b1 = np.arange(8, dtype=np.float32) / 8
w2 = rng.standard_normal((8, 3)).astype(np.float32)
g = helper.make_graph(
    [helper.make_node("Flatten", ["image"], ["flat"], name="flatten", axis=1),
     helper.make_node("Gemm", ["flat", "fc1.w", "fc1.b"], ["h"], name="fc1", transB=1),
     helper.make_node("Relu", ["h"], ["hr"], name="relu"),
     helper.make_node("MatMul", ["hr", "fc2.w"], ["logits"], name="fc2")],
    "mlp",
    [helper.make_tensor_value_info("image", F, [2, 3, 2, 2])],
    [helper.make_tensor_value_info("logits", F, [2, 3])],
    initializer=[raw("fc1.w", w1), floats("fc1.b", b1), raw("fc2.w", w2)])
save(model(g), "mlp.onnx")

# --- unsorted graph with a Constant node and Identity -------------------------
g = helper.make_graph(
    [helper.make_node("Add", ["r", "bias"], ["out"], name="add"),
     helper.make_node("Identity", ["m"], ["mid"], name="ident"),
     helper.make_node("Relu", ["mid"], ["r"], name="relu"),
     helper.make_node("Constant", [], ["bias"], name="bias_const",
                      value=helper.make_tensor("bias_value", F, [3], [0.5, -1.0, 2.0])),
     helper.make_node("MatMul", ["a", "b"], ["m"], name="mm")],
    "unsorted",
    [helper.make_tensor_value_info("a", F, [2, 4]),
     helper.make_tensor_value_info("b", F, [4, 3])],
    [helper.make_tensor_value_info("out", F, [2, 3])])
save(model(g), "unsorted.onnx")

# --- symbolic batch dimension --------------------------------------------------
g = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
    "dynamic_batch",
    [helper.make_tensor_value_info("x", F, ["N", 4])],
    [helper.make_tensor_value_info("y", F, ["N", 3])],
    initializer=[raw("w", np.ones((4, 3)))])
save(model(g), "dynamic_batch.onnx")

# --- INT64 initializer used as a tensor operand --------------------------------
g = helper.make_graph(
    [helper.make_node("Add", ["x", "offsets"], ["y"], name="add_offsets")],
    "int_initializer",
    [helper.make_tensor_value_info("x", F, [3])],
    [helper.make_tensor_value_info("y", F, [3])],
    initializer=[numpy_helper.from_array(np.array([1, 2, 3], dtype=np.int64), "offsets")])
save(model(g), "int_initializer.onnx")

# --- 1-D and 3-D convolutions (unsupported) ------------------------------------
g = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["y"], name="conv1d")],
    "conv1d",
    [helper.make_tensor_value_info("x", F, [1, 2, 9])],
    [helper.make_tensor_value_info("y", F, [1, 4, 7])],
    initializer=[raw("w", np.ones((4, 2, 3)))])
save(model(g), "conv1d.onnx")
g = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["y"], name="conv3d")],
    "conv3d",
    [helper.make_tensor_value_info("x", F, [1, 2, 5, 5, 5])],
    [helper.make_tensor_value_info("y", F, [1, 4, 3, 3, 3])],
    initializer=[raw("w", np.ones((4, 2, 3, 3, 3)))])
save(model(g), "conv3d.onnx")

# --- Conv attribute handling: bias, groups, dilations, auto_pad ----------------
g = helper.make_graph(
    [helper.make_node("Conv", ["x", "w_group", "bias"], ["c1"], name="grouped",
                      group=2, dilations=[2, 2], pads=[2, 1, 2, 1], kernel_shape=[3, 3]),
     helper.make_node("Conv", ["c1", "w_same"], ["c2"], name="same_upper",
                      auto_pad="SAME_UPPER", strides=[2, 2]),
     helper.make_node("Conv", ["c1", "w_same"], ["c3"], name="same_lower",
                      auto_pad="SAME_LOWER", strides=[2, 2]),
     helper.make_node("Conv", ["c1", "w_same"], ["c4"], name="valid",
                      auto_pad="VALID", strides=[1, 2])],
    "conv_attrs",
    [helper.make_tensor_value_info("x", F, [1, 4, 8, 8])],
    [helper.make_tensor_value_info("c2", F, None),
     helper.make_tensor_value_info("c3", F, None),
     helper.make_tensor_value_info("c4", F, None)],
    initializer=[raw("w_group", np.ones((6, 2, 3, 3))),
                 floats("bias", np.arange(6)),
                 raw("w_same", np.ones((2, 6, 3, 3)))])
save(model(g, opset=11), "conv_attrs.onnx")

# --- kernel_shape that contradicts the weight ----------------------------------
g = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["y"], name="bad_kernel", kernel_shape=[5, 5])],
    "conv_bad_kernel",
    [helper.make_tensor_value_info("x", F, [1, 1, 8, 8])],
    [helper.make_tensor_value_info("y", F, None)],
    initializer=[raw("w", np.ones((1, 1, 3, 3)))])
save(model(g), "conv_bad_kernel.onnx")

# --- Reshape with a constant shape (0 and -1), then Transpose -----------------
g = helper.make_graph(
    [helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
     helper.make_node("Transpose", ["r"], ["t"], name="transpose", perm=[2, 0, 1])],
    "reshape_transpose",
    [helper.make_tensor_value_info("x", F, [2, 3, 4])],
    [helper.make_tensor_value_info("t", F, [2, 2, 6])],
    initializer=[numpy_helper.from_array(np.array([0, -1, 2], dtype=np.int64), "shape")])
save(model(g), "reshape_transpose.onnx")

# --- Reshape whose shape is computed at run time (not a constant) ---------------
g = helper.make_graph(
    [helper.make_node("Relu", ["s"], ["shape"], name="not_const"),
     helper.make_node("Reshape", ["x", "shape"], ["y"], name="dyn_reshape")],
    "reshape_runtime_shape",
    [helper.make_tensor_value_info("x", F, [2, 3]),
     helper.make_tensor_value_info("s", F, [2])],
    [helper.make_tensor_value_info("y", F, None)])
save(model(g), "reshape_runtime_shape.onnx")

# --- initializer stored as external data -----------------------------------------
g = helper.make_graph(
    [helper.make_node("Add", ["x", "big"], ["y"], name="add_ext")],
    "external_data",
    [helper.make_tensor_value_info("x", F, [2, 2])],
    [helper.make_tensor_value_info("y", F, [2, 2])],
    initializer=[raw("big", [[1.5, 2.5], [3.5, 4.5]])])
if os.path.exists(os.path.join(OUT, "external_data.bin")):
    os.remove(os.path.join(OUT, "external_data.bin"))  # onnx appends to it
save(model(g), "external_data.onnx", save_as_external_data=True,
     all_tensors_to_one_file=True, location="external_data.bin", size_threshold=0)

# --- graph output that nothing defines ------------------------------------------
g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"], name="relu")],
    "undefined_output",
    [helper.make_tensor_value_info("x", F, [2])],
    [helper.make_tensor_value_info("z", F, [2])])
save(model(g), "undefined_output.onnx")

# --- declared output shape that contradicts the computation --------------------
g = helper.make_graph(
    [helper.make_node("MatMul", ["a", "b"], ["c"], name="mm")],
    "wrong_output_shape",
    [helper.make_tensor_value_info("a", F, [2, 4]),
     helper.make_tensor_value_info("b", F, [4, 3])],
    [helper.make_tensor_value_info("c", F, [2, 5])])
save(model(g), "wrong_output_shape.onnx")

# --- inputs that do not fit together ----------------------------------------------
g = helper.make_graph(
    [helper.make_node("MatMul", ["a", "b"], ["c"], name="bad_mm")],
    "matmul_mismatch",
    [helper.make_tensor_value_info("a", F, [2, 4]),
     helper.make_tensor_value_info("b", F, [5, 3])],
    [helper.make_tensor_value_info("c", F, None)])
save(model(g), "matmul_mismatch.onnx")

print("models written to", OUT)

# --- a pytorch-style shape subgraph (x.view(x.size(0), -1) and friends) -------
# Shape -> Gather -> Unsqueeze -> Concat -> Reshape, plus integer arithmetic
# (Mul) and a Cast: all of it folds at compile time.
def shape_subgraph(name, batch):
    i64 = lambda n, v: numpy_helper.from_array(np.asarray(v, dtype=np.int64), n)
    g = helper.make_graph(
        [helper.make_node("Shape", ["x"], ["s"], name="shape"),
         helper.make_node("Gather", ["s", "zero"], ["n"], name="dim0", axis=0),
         helper.make_node("Gather", ["s", "one"], ["c"], name="dim1", axis=0),
         helper.make_node("Gather", ["s", "two"], ["w"], name="dim2", axis=0),
         helper.make_node("Mul", ["c", "w"], ["cw"], name="cw"),
         helper.make_node("Cast", ["cw"], ["cw64"], name="cast", to=TensorProto.INT64),
         helper.make_node("Unsqueeze", ["n", "axes0"], ["n1"], name="unsq_n"),
         helper.make_node("Unsqueeze", ["cw64", "axes0"], ["cw1"], name="unsq_cw"),
         helper.make_node("Concat", ["n1", "cw1"], ["target"], name="cat", axis=0),
         helper.make_node("Reshape", ["x", "target"], ["flat"], name="view"),
         helper.make_node("Relu", ["flat"], ["y"], name="relu")],
        name,
        [helper.make_tensor_value_info("x", F, [batch, 3, 4])],
        [helper.make_tensor_value_info("y", F, [batch, 12])],
        initializer=[i64("zero", 0), i64("one", 1), i64("two", 2), i64("axes0", [0])])
    save(model(g), name + ".onnx")


shape_subgraph("shape_subgraph", 2)
shape_subgraph("shape_subgraph_symbolic", "N")

# --- LpNormalization (no backend node test exists) ----------------------------
g = helper.make_graph(
    [helper.make_node("LpNormalization", ["x"], ["y"], name="lp", axis=1, p=2)],
    "lp_norm",
    [helper.make_tensor_value_info("x", F, [2, 3])],
    [helper.make_tensor_value_info("y", F, [2, 3])])
save(model(g), "lp_norm.onnx")

# --- Einsum, the matmul-like forms (the backend node tests use doubles) -------
g = helper.make_graph(
    [helper.make_node("Einsum", ["a", "b"], ["bmm"], name="bmm", equation="bij,bjk->bik"),
     helper.make_node("Einsum", ["m", "n"], ["mt"], name="mt", equation="ij,kj->ik"),
     helper.make_node("Einsum", ["a"], ["tr"], name="tr", equation="bij->bji"),
     helper.make_node("Einsum", ["a"], ["rs"], name="rs", equation="bij->bi"),
     helper.make_node("Einsum", ["a"], ["diag"], name="diag", equation="bii->bi")],
    "einsum",
    [helper.make_tensor_value_info("a", F, [2, 3, 3]),
     helper.make_tensor_value_info("b", F, [2, 3, 5]),
     helper.make_tensor_value_info("m", F, [4, 6]),
     helper.make_tensor_value_info("n", F, [7, 6])],
    [helper.make_tensor_value_info("bmm", F, [2, 3, 5]),
     helper.make_tensor_value_info("mt", F, [4, 7]),
     helper.make_tensor_value_info("tr", F, [2, 3, 3]),
     helper.make_tensor_value_info("rs", F, [2, 3])])
save(model(g), "einsum_diag.onnx")
g.node.pop()
save(model(g), "einsum.onnx")

# --- wrong types --------------------------------------------------------------
# An attribute of the wrong type.
g = helper.make_graph(
    [helper.make_node("LeakyRelu", ["x"], ["y"], name="leaky", alpha=2)],
    "bad_attr_type",
    [helper.make_tensor_value_info("x", F, [2, 3])],
    [helper.make_tensor_value_info("y", F, [2, 3])])
save(model(g), "bad_attr_type.onnx")
# raw_data of the wrong size for the declared shape.
bad = TensorProto(name="w", data_type=F, dims=[2, 2], raw_data=b"\0" * 12)
g = helper.make_graph(
    [helper.make_node("Add", ["x", "w"], ["y"], name="add_w")],
    "bad_raw_size",
    [helper.make_tensor_value_info("x", F, [2, 2])],
    [helper.make_tensor_value_info("y", F, [2, 2])],
    initializer=[bad])
save(model(g), "bad_raw_size.onnx")
# A float tensor where a BOOL condition is required.
g = helper.make_graph(
    [helper.make_node("Where", ["c", "x", "x"], ["y"], name="where_f")],
    "bad_where_cond",
    [helper.make_tensor_value_info("c", F, [2, 2]),
     helper.make_tensor_value_info("x", F, [2, 2])],
    [helper.make_tensor_value_info("y", F, [2, 2])])
save(model(g), "bad_where_cond.onnx")

# --- a graph input without an element type -------------------------------------
g = helper.make_graph(
    [helper.make_node("Relu", ["x"], ["y"], name="relu")],
    "no_elem_type",
    [helper.make_tensor_value_info("x", TensorProto.UNDEFINED, [2, 2])],
    [helper.make_tensor_value_info("y", F, [2, 2])])
save(model(g), "no_elem_type.onnx")
