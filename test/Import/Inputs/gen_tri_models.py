"""Trilu, CumSum and EyeLike models for test/Import/tri-cumsum-eyelike.test.
Every model is valid ONNX (onnx.checker).

usage: gen_tri_models.py OUTDIR

Writes to OUTDIR:
  trilu_lower.onnx     Trilu(upper = 0) of a FLOAT [2, 3, 4] input, k = 1
                       (an initializer).
  trilu_upper.onnx     Trilu (upper by default, no k) of a FLOAT [3, 3] input.
  trilu_keep_all.onnx  Trilu(upper = 0, k = 5) of [3, 4]: keeps everything.
  trilu_const.onnx     Trilu(upper = 1, k = -1) of an INT64 [3, 3]
                       initializer (folded); output INT64.
  trilu_runtime_k.onnx k is an INT64 graph input 'k'; k1.pb is a k of 1.
  cumsum_last.onnx     CumSum of FLOAT [2, 4] along axis -1 (INT32 constant).
  cumsum_mid.onnx      CumSum(exclusive, reverse) of FLOAT [2, 3, 4] along
                       axis 1.
  cumsum_first.onnx    CumSum(reverse) of FLOAT [3, 2, 2] along axis 0.
  cumsum_const.onnx    CumSum(exclusive) of an INT64 [2, 3] initializer along
                       axis 1 (folded); output INT64.
  cumsum_runtime_axis.onnx  axis is an INT64 graph input 'axis'.
  eyelike_float.onnx   EyeLike of a FLOAT [3, 4] input, default dtype, k = 1.
  eyelike_int.onnx     EyeLike(dtype = INT64, k = -1) of an INT32 [3, 3]
                       graph input (used only through its shape).
  eyelike_bool.onnx    EyeLike(dtype = BOOL) of a FLOAT [2, 3] input, feeding
                       a Where.
  eyelike_3d.onnx      EyeLike of a 3-D input (rejected).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I32, I64, B = TensorProto.FLOAT, TensorProto.INT32, TensorProto.INT64, TensorProto.BOOL
out = sys.argv[1]


def vi(name, t, shape):
    return helper.make_tensor_value_info(name, t, shape)


def save(name, nodes, ins, outs, inits=(), opset=14, check=True):
    g = helper.make_graph(nodes, name, ins, outs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    if check:
        onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


def scalar(name, t, v):
    return helper.make_tensor(name, t, [], [v])


save("trilu_lower", [helper.make_node("Trilu", ["x", "k"], ["y"], name="tril", upper=0)],
     [vi("x", F, [2, 3, 4])], [vi("y", F, [2, 3, 4])], [scalar("k", I64, 1)])
save("trilu_upper", [helper.make_node("Trilu", ["x"], ["y"], name="triu")],
     [vi("x", F, [3, 3])], [vi("y", F, [3, 3])])
save("trilu_keep_all", [helper.make_node("Trilu", ["x", "k"], ["y"], name="tril", upper=0)],
     [vi("x", F, [3, 4])], [vi("y", F, [3, 4])], [scalar("k", I64, 5)])
save("trilu_const", [helper.make_node("Trilu", ["c", "k"], ["y"], name="triu", upper=1)],
     [], [vi("y", I64, [3, 3])],
     [numpy_helper.from_array(np.arange(1, 10, dtype=np.int64).reshape(3, 3), "c"),
      scalar("k", I64, -1)])
save("trilu_runtime_k", [helper.make_node("Trilu", ["x", "k"], ["y"], name="tri_k")],
     [vi("x", F, [3, 4]), vi("k", I64, [])], [vi("y", F, [3, 4])])
with open(os.path.join(out, "k1.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.array(1, dtype=np.int64), "k").SerializeToString())

save("cumsum_last", [helper.make_node("CumSum", ["x", "a"], ["y"], name="cs")],
     [vi("x", F, [2, 4])], [vi("y", F, [2, 4])], [scalar("a", I32, -1)])
save("cumsum_mid",
     [helper.make_node("CumSum", ["x", "a"], ["y"], name="cs", exclusive=1, reverse=1)],
     [vi("x", F, [2, 3, 4])], [vi("y", F, [2, 3, 4])], [scalar("a", I64, 1)])
save("cumsum_first", [helper.make_node("CumSum", ["x", "a"], ["y"], name="cs", reverse=1)],
     [vi("x", F, [3, 2, 2])], [vi("y", F, [3, 2, 2])], [scalar("a", I64, 0)])
save("cumsum_const", [helper.make_node("CumSum", ["c", "a"], ["y"], name="cs", exclusive=1)],
     [], [vi("y", I64, [2, 3])],
     [numpy_helper.from_array(np.array([[1, 2, 3], [10, 20, 30]], dtype=np.int64), "c"),
      scalar("a", I64, 1)])
save("cumsum_runtime_axis", [helper.make_node("CumSum", ["x", "axis"], ["y"], name="cs_axis")],
     [vi("x", F, [2, 3]), vi("axis", I64, [])], [vi("y", F, [2, 3])])

save("eyelike_float", [helper.make_node("EyeLike", ["x"], ["y"], name="eye", k=1)],
     [vi("x", F, [3, 4])], [vi("y", F, [3, 4])])
save("eyelike_int", [helper.make_node("EyeLike", ["x"], ["y"], name="eye", k=-1, dtype=I64)],
     [vi("x", I32, [3, 3])], [vi("y", I64, [3, 3])])
save("eyelike_bool",
     [helper.make_node("EyeLike", ["x"], ["m"], name="eye", dtype=B),
      helper.make_node("Where", ["m", "x", "z"], ["y"], name="where")],
     [vi("x", F, [2, 3])], [vi("y", F, [2, 3])],
     [helper.make_tensor("z", F, [], [0.0])])
save("eyelike_3d", [helper.make_node("EyeLike", ["x"], ["y"], name="eye3")],
     [vi("x", F, [2, 2, 2])], [vi("y", F, [2, 2, 2])], check=False)
