#!/usr/bin/python3
"""Writes the models of test/tools/resource-limits.test into OUTDIR:
gemm_32768.onnx (a Gemm on 32768x32768 inputs), huge_splat.onnx (a
100000x100000 ConstantOfShape sliced to 4x4), and big_splat.onnx with
big_splat_x.npy / big_splat_y.npy (x + a 256x256 splat of 2.5: large enough
to be filled at run time instead of stored, small enough to run)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
F = TensorProto.FLOAT


def save(nodes, inputs, outputs, name, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)],
                          ir_version=8)
    onnx.save_model(m, os.path.join(OUT, name))


def vi(name, shape):
    return helper.make_tensor_value_info(name, F, shape)


def splat(shape, value, out):
    return [helper.make_node(
        "ConstantOfShape", ["shape_" + out], [out], name="splat_" + out,
        value=helper.make_tensor("v", F, [1], [value]))], [
        numpy_helper.from_array(np.array(shape, dtype=np.int64), "shape_" + out)]


n = 32768
save([helper.make_node("Gemm", ["a", "b"], ["y"], name="big_gemm")],
     [vi("a", [n, n]), vi("b", [n, n])], [vi("y", [n, n])], "gemm_32768.onnx")

nodes, inits = splat([100000, 100000], 1.0, "c")
inits.append(numpy_helper.from_array(np.zeros(2, np.int64), "starts"))
inits.append(numpy_helper.from_array(np.full(2, 4, np.int64), "ends"))
nodes += [helper.make_node("Slice", ["c", "starts", "ends"], ["s"], name="cut"),
          helper.make_node("Add", ["x", "s"], ["y"], name="add")]
save(nodes, [vi("x", [4, 4])], [vi("y", [4, 4])], "huge_splat.onnx", inits)

nodes, inits = splat([256, 256], 2.5, "c")
nodes.append(helper.make_node("Add", ["x", "c"], ["y"], name="add"))
save(nodes, [vi("x", [256, 256])], [vi("y", [256, 256])], "big_splat.onnx",
     inits)
x = np.random.default_rng(0).standard_normal((256, 256)).astype(np.float32)
np.save(os.path.join(OUT, "big_splat_x.npy"), x)
np.save(os.path.join(OUT, "big_splat_y.npy"), x + np.float32(2.5))
