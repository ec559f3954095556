#!/usr/bin/python3
"""Writes the model of test/tools/typed-outputs.test into OUTDIR:
typed.onnx, x [2, 3] float -> mask = Not(x > 0) (BOOL [2, 3]),
idx = ArgMax(x, axis 1) (INT64 [2]) and r = Relu(x) (FLOAT [2, 3]), with
the inputs x0.npy / x1.npy (two chunks for --stream)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)

graph = helper.make_graph(
    [helper.make_node("Greater", ["x", "zero"], ["g"], name="gt"),
     helper.make_node("Not", ["g"], ["mask"], name="not"),
     helper.make_node("ArgMax", ["x"], ["idx"], name="am", axis=1, keepdims=0),
     helper.make_node("Relu", ["x"], ["r"], name="relu")],
    "typed", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
    [helper.make_tensor_value_info("mask", TensorProto.BOOL, [2, 3]),
     helper.make_tensor_value_info("idx", TensorProto.INT64, [2]),
     helper.make_tensor_value_info("r", TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(np.array(0, np.float32), "zero")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(OUT, "typed.onnx"))
np.save(os.path.join(OUT, "x0.npy"), np.array([[1, -1, 2], [-3, 4, 0]], np.float32))
np.save(os.path.join(OUT, "x1.npy"), np.array([[0.5, 7, -2], [6, -1, 2.5]], np.float32))
