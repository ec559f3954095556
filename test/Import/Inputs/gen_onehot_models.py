"""OneHot models for test/Import/onehot.test. Every model is valid ONNX
(onnx.checker).

usage: gen_onehot_models.py OUTDIR

Writes to OUTDIR:
  onehot_axis.onnx     OneHot(axis = 1) of FLOAT [2, 3] indices, depth 4 (an
                       INT64 initializer), values a FLOAT [2] graph input.
  onehot_const.onnx    OneHot (axis -1 by default) of FLOAT [3] indices,
                       depth 5.0 (a FLOAT initializer), values [0, 1] an
                       initializer.
  onehot_runtime_depth.onnx  depth is an INT64 graph input 'depth';
                       depth3.pb is a depth of 3.
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


def save(name, nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


save("onehot_axis",
     [helper.make_node("OneHot", ["i", "d", "v"], ["y"], name="oh", axis=1)],
     [vi("i", F, [2, 3]), vi("v", F, [2])], [vi("y", F, [2, 4, 3])],
     [helper.make_tensor("d", I64, [], [4])])
save("onehot_const",
     [helper.make_node("OneHot", ["i", "d", "v"], ["y"], name="oh")],
     [vi("i", F, [3])], [vi("y", F, [3, 5])],
     [helper.make_tensor("d", F, [1], [5.0]),
      helper.make_tensor("v", F, [2], [0.0, 1.0])])
save("onehot_runtime_depth",
     [helper.make_node("OneHot", ["i", "depth", "v"], ["y"], name="oh_d")],
     [vi("i", F, [3]), vi("depth", I64, []), vi("v", F, [2])],
     [vi("y", F, [3, 3])])
with open(os.path.join(out, "depth3.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.array(3, np.int64), "depth").SerializeToString())
