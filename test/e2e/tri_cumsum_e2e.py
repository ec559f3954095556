#!/usr/bin/python3
"""ONNX Trilu and CumSum on run-time f32 inputs, compiled (accel-compile),
simulated (accel-run --strict-hazards) and compared with numpy (np.tril /
np.triu, np.cumsum with the exclusive / reverse variants written out).
Trilu is a graph.where with a constant mask over the last two axes
(batched over the leading ones); CumSum a log-step scan (adds of the
running sums shifted by 1, 2, 4, ... along the axis): long axes, and
infinities / NaN that must reach only the sums after them, as in a
sequential sum. Prints one line per case and `N passed, M failed`."""
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run  # noqa: E402

BIN = sys.argv[1]
rng = np.random.default_rng(11)
F = TensorProto.FLOAT


def model(node, shape, inits, path):
    g = helper.make_graph([node], "m", [helper.make_tensor_value_info("x", F, list(shape))],
                          [helper.make_tensor_value_info("y", F, list(shape))], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    onnx.checker.check_model(m)
    onnx.save(m, path)


def cumsum_ref(x, axis, exclusive, reverse):
    v = np.flip(x, axis) if reverse else x
    s = np.cumsum(v.astype(np.float64), axis=axis)
    if exclusive:  # shifted by one, not s - v (inf - inf would be NaN)
        s = np.moveaxis(s, axis, 0)
        s = np.concatenate([np.zeros_like(s[:1]), s[:-1]])
        s = np.moveaxis(s, 0, axis)
    return (np.flip(s, axis) if reverse else s).astype(np.float32)


CASES = []
for shape, upper, k in [((4, 5), 1, None), ((4, 5), 0, None), ((4, 5), 1, 2),
                        ((4, 5), 0, -1), ((2, 3, 6), 1, -2), ((2, 3, 6), 0, 3),
                        ((2, 2, 5, 3), 0, 0), ((3, 7), 1, 9)]:
    x = rng.standard_normal(shape).astype(np.float32)
    kk = 0 if k is None else k
    ref = np.triu(x, kk) if upper else np.tril(x, kk)
    CASES.append((f"trilu_{'upper' if upper else 'lower'}_{'x'.join(map(str, shape))}_k{k}",
                  "Trilu", dict(upper=upper), k, x, ref))
for shape, axis in [((6,), 0), ((3, 7), -1), ((3, 7), 0), ((2, 5, 4), 1),
                    ((4, 3, 5), 0), ((2, 3, 4, 5), 2)]:
    for exclusive in (0, 1):
        for reverse in (0, 1):
            x = rng.standard_normal(shape).astype(np.float32)
            CASES.append((f"cumsum_{'x'.join(map(str, shape))}_axis{axis}_ex{exclusive}_rev{reverse}",
                          "CumSum", dict(exclusive=exclusive, reverse=reverse), axis, x,
                          cumsum_ref(x, axis, exclusive, reverse)))
# A long axis (six steps, not a power of two), and non-finite elements.
for shape, axis in [((2, 37), 1), ((45, 3), 0)]:
    x = rng.standard_normal(shape).astype(np.float32)
    CASES.append((f"cumsum_{'x'.join(map(str, shape))}_axis{axis}", "CumSum", {}, axis, x,
                  cumsum_ref(x, axis, 0, 0)))
special = np.array([[1, 2, np.inf, 4, -1, 3], [1, -np.inf, 2, np.nan, 5, 6]], np.float32)
for exclusive in (0, 1):
    for reverse in (0, 1):
        CASES.append((f"cumsum_nonfinite_ex{exclusive}_rev{reverse}", "CumSum",
                      dict(exclusive=exclusive, reverse=reverse), 1, special,
                      cumsum_ref(special, 1, exclusive, reverse)))

passed = failed = 0
with tempfile.TemporaryDirectory(prefix="tri-cumsum-e2e-") as work:
    for name, op, attrs, param, x, ref in CASES:
        inits, ins = [], ["x"]
        if param is not None:
            ptype = TensorProto.INT64 if op == "Trilu" else TensorProto.INT32
            inits.append(helper.make_tensor("p", ptype, [], [param]))
            ins.append("p")
        path = os.path.join(work, name + ".onnx")
        model(helper.make_node(op, ins, ["y"], name=op.lower(), **attrs), x.shape, inits, path)
        outs, error = compile_and_run(BIN, path, work, name, {"x": x}, ["y"])
        if error:
            print(f"FAIL {name}: {error}")
            failed += 1
            continue
        finite = np.isfinite(ref)
        err = float(np.max(np.abs(outs[0][finite] - ref[finite]))) if finite.any() else 0.0
        ok = outs[0].shape == ref.shape and np.allclose(outs[0], ref, rtol=1e-5, atol=1e-5,
                                                        equal_nan=True)
        print(f"{'PASS' if ok else 'FAIL'} {name} (max error {err:.3g})")
        passed += ok
        failed += not ok
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
