#!/usr/bin/python3
"""ONNX OneHot on run-time f32 indices (and run-time or constant values),
compiled (accel-compile), simulated (accel-run --strict-hazards) and
compared with numpy. Indices include negatives (counted from depth),
out-of-range values (all `off`) and fractions (truncated toward zero, as
ONNX's cast to int64). Prints one line per case and `N passed, M failed`."""
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run  # noqa: E402

BIN = sys.argv[1]
rng = np.random.default_rng(5)
F = TensorProto.FLOAT


def onehot_ref(idx, depth, values, axis):
    t = np.trunc(idx).astype(np.int64)
    t = np.where(t < 0, t + depth, t)
    rank = idx.ndim
    axis = axis + rank + 1 if axis < 0 else axis
    iota = np.arange(depth).reshape([depth] + [1] * (rank - axis))
    eq = np.expand_dims(t, axis) == iota
    return np.where(eq, values[1], values[0]).astype(np.float32)


CASES = []
for shape, depth, axis, const_values in [((5,), 4, -1, False), ((2, 3), 6, 0, False),
                                         ((2, 3), 5, 1, True), ((2, 3, 4), 3, -1, False),
                                         ((2, 3, 4), 7, -2, True), ((1,), 1, 0, False)]:
    idx = rng.integers(-depth - 2, depth + 2, size=shape).astype(np.float32)
    idx += rng.choice([0.0, 0.25, 0.75], size=shape).astype(np.float32) * np.sign(idx)
    values = rng.standard_normal(2).astype(np.float32)
    CASES.append((f"onehot_{'x'.join(map(str, shape))}_d{depth}_axis{axis}"
                  f"{'_const' if const_values else ''}", shape, depth, axis, const_values,
                  idx, values, onehot_ref(idx, depth, values, axis)))

passed = failed = 0
with tempfile.TemporaryDirectory(prefix="onehot-e2e-") as work:
    for name, shape, depth, axis, const_values, idx, values, ref in CASES:
        inits = [helper.make_tensor("d", TensorProto.INT64, [], [depth])]
        ins = [helper.make_tensor_value_info("i", F, list(shape))]
        feeds = {"i": idx}
        if const_values:
            inits.append(helper.make_tensor("v", F, [2], values.tolist()))
        else:
            ins.append(helper.make_tensor_value_info("v", F, [2]))
            feeds["v"] = values
        g = helper.make_graph([helper.make_node("OneHot", ["i", "d", "v"], ["y"], axis=axis)], "m",
                              ins, [helper.make_tensor_value_info("y", F, list(ref.shape))], inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)])
        onnx.checker.check_model(m)
        path = os.path.join(work, name + ".onnx")
        onnx.save(m, path)
        outs, error = compile_and_run(BIN, path, work, name, feeds, ["y"])
        if error:
            print(f"FAIL {name}: {error}")
            failed += 1
            continue
        ok = outs[0].shape == ref.shape and np.array_equal(outs[0], ref)
        print(f"{'PASS' if ok else 'FAIL'} {name}")
        passed += ok
        failed += not ok
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
