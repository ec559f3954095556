"""GatherND models for test/Import/gathernd.test. Every model is valid ONNX
(onnx.checker).

usage: gen_gathernd_models.py OUTDIR

Writes to OUTDIR:
  gathernd_pairs.onnx    FLOAT [2, 2, 2] data, INT64 indices [[0, 1], [1, 0]]
                         (an initializer): rows 1 and 2 of the [4, 2] view.
  gathernd_batch.onnx    batch_dims = 1, FLOAT [2, 3, 4] data, indices
                         [[2], [0]]: rows 2 and 3 of the [6, 4] view.
  gathernd_scattered.onnx  FLOAT [3, 4] data, indices [[2], [0], [-2]]:
                         rows 2, 0, 1 (two slices and a concat).
  gathernd_full.onnx     FLOAT [2, 3] data, indices [[1, 2], [0, 0], [1, 1]]
                         (k = rank: single elements).
  gathernd_const.onnx    INT64 [2, 2] initializer data, indices [[1], [0]]:
                         folded; output INT64.
  gathernd_runtime.onnx  indices an INT64 graph input 'idx'; idx.pb is
                         [[1], [0]].
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


def idx(values):
    a = np.array(values, np.int64)
    return numpy_helper.from_array(a, "i")


def save(name, dshape, ind, oshape, batch_dims=0, data_init=None, otype=F):
    node = helper.make_node("GatherND", ["x", "i"], ["y"], name="gnd", batch_dims=batch_dims)
    inputs = [] if data_init is not None else [vi("x", F, dshape)]
    inits = [idx(ind)] + ([data_init] if data_init is not None else [])
    g = helper.make_graph([node], name, inputs, [vi("y", otype, oshape)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


save("gathernd_pairs", [2, 2, 2], [[0, 1], [1, 0]], [2, 2])
save("gathernd_batch", [2, 3, 4], [[2], [0]], [2, 4], batch_dims=1)
save("gathernd_scattered", [3, 4], [[2], [0], [-2]], [3, 4])
save("gathernd_full", [2, 3], [[1, 2], [0, 0], [1, 1]], [3])
save("gathernd_const", None, [[1], [0]], [2, 2],
     data_init=numpy_helper.from_array(np.array([[1, 2], [3, 4]], np.int64), "x"), otype=I64)

node = helper.make_node("GatherND", ["x", "idx"], ["y"], name="gnd_rt")
g = helper.make_graph([node], "gathernd_runtime", [vi("x", F, [2, 3]), vi("idx", I64, [2, 1])],
                      [vi("y", F, [2, 3])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(m)
onnx.save(m, os.path.join(out, "gathernd_runtime.onnx"))
with open(os.path.join(out, "idx.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.array([[1], [0]], np.int64), "idx").SerializeToString())
