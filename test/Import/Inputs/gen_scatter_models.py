"""ScatterElements / Scatter / ScatterND models for test/Import/scatter.test.
Every model but scatter_bad_reduction.onnx is valid ONNX (onnx.checker).

usage: gen_scatter_models.py OUTDIR

Writes to OUTDIR (data 'x' and updates 'u' are FLOAT graph inputs, the
indices 'i' an INT64 initializer unless said otherwise):
  scatter_elements.onnx   ScatterElements(axis = 1), x [2, 4], i [[1, 3],
                          [0, -1]], u [2, 2] (opset 16).
  scatter_add_dup.onnx    ScatterElements(reduction = add), x [3],
                          i [1, 1, 0], u [3]: two rounds (opset 16).
  scatter_none_dup.onnx   ScatterElements, x [3], i [2, 2]: the last update
                          wins (opset 16).
  scatter_legacy.onnx     Scatter(axis = 0), x [3, 2], i [[2, 0]], u [1, 2]
                          (opset 10).
  scatternd.onnx          ScatterND, x [4, 3], i [[2], [0]], u [2, 3]
                          (opset 16).
  scatter_runtime.onnx    ScatterElements with indices an INT64 graph input
                          'idx' (opset 16).
  scatter_bad_reduction.onnx  ScatterND(reduction = 'avg') (not valid ONNX).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64 = TensorProto.FLOAT, TensorProto.INT64
out = sys.argv[1]


def vi(name, t, shape):
    return helper.make_tensor_value_info(name, t, shape)


def save(name, op, xs, ind, us, opset=16, check=True, **attrs):
    node = helper.make_node(op, ["x", "i", "u"], ["y"], name="sc", **attrs)
    g = helper.make_graph([node], name, [vi("x", F, xs), vi("u", F, us)], [vi("y", F, xs)],
                          [numpy_helper.from_array(np.array(ind, np.int64), "i")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    if check:
        onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


save("scatter_elements", "ScatterElements", [2, 4], [[1, 3], [0, -1]], [2, 2], axis=1)
save("scatter_add_dup", "ScatterElements", [3], [1, 1, 0], [3], reduction="add")
save("scatter_none_dup", "ScatterElements", [3], [2, 2], [2])
save("scatter_legacy", "Scatter", [3, 2], [[2, 0]], [1, 2], opset=10, axis=0)
save("scatternd", "ScatterND", [4, 3], [[2], [0]], [2, 3])
save("scatter_bad_reduction", "ScatterND", [2, 2], [[0, 1]], [1], check=False, reduction="avg")

node = helper.make_node("ScatterElements", ["x", "idx", "u"], ["y"], name="sc_rt")
g = helper.make_graph([node], "scatter_runtime",
                      [vi("x", F, [3]), vi("idx", I64, [2]), vi("u", F, [2])], [vi("y", F, [3])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)])
onnx.checker.check_model(m)
onnx.save(m, os.path.join(out, "scatter_runtime.onnx"))
