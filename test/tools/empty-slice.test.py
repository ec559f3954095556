# Builds the model of empty-slice.test: y = Relu(Slice(x, rows 2:2) + b).
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 3])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 3])
inits = [numpy_helper.from_array(np.array(v, dtype=np.int64), n)
         for n, v in [("starts", [2]), ("ends", [2]), ("axes", [0])]]
inits.append(numpy_helper.from_array(np.array([1, 2, 3], np.float32), "b"))
nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes"], ["e"]),
         helper.make_node("Add", ["e", "b"], ["s"]),
         helper.make_node("Relu", ["s"], ["y"])]
graph = helper.make_graph(nodes, "empty_slice_add", [x], [y], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
