#!/usr/bin/python3
"""ONNX ScatterElements / Scatter / ScatterND with compile-time indices on
run-time f32 data and updates, compiled (accel-compile), simulated
(accel-run --strict-hazards) and compared with a numpy reference applying
the updates in order (reduction none: the last duplicate wins; add, mul).
Covers every axis position, negative and duplicate indices and partial
index shapes. Prints one line per case and `N passed, M failed`."""
import itertools
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run  # noqa: E402

BIN = sys.argv[1]
rng = np.random.default_rng(13)
F = TensorProto.FLOAT


def combine(old, new, reduction):
    return new if reduction == "none" else old + new if reduction == "add" else old * new


def scatter_elements_ref(data, idx, upd, axis, reduction):
    out = data.astype(np.float32).copy()
    for pos in itertools.product(*[range(s) for s in idx.shape]):
        t = list(pos)
        t[axis] = idx[pos] % data.shape[axis]
        out[tuple(t)] = combine(out[tuple(t)], upd[pos], reduction)
    return out


def scatter_nd_ref(data, idx, upd, reduction):
    out = data.astype(np.float32).copy()
    k = idx.shape[-1]
    for pos in itertools.product(*[range(s) for s in idx.shape[:-1]]):
        t = tuple(int(v) % data.shape[j] for j, v in enumerate(idx[pos]))
        out[t] = combine(out[t], upd[pos], reduction)
    return out


CASES = []
for dshape, ishape, axis, reduction in [((5,), (3,), 0, "none"), ((3, 4), (2, 4), 0, "none"),
                                        ((3, 4), (3, 2), 1, "add"), ((3, 4), (3, 6), -1, "mul"),
                                        ((2, 3, 4), (2, 2, 4), 1, "add"), ((2, 3, 4), (1, 3, 5), 2, "none"),
                                        ((4, 2, 3), (6, 2, 1), 0, "mul")]:
    data = rng.standard_normal(dshape).astype(np.float32)
    upd = rng.standard_normal(ishape).astype(np.float32)
    n = dshape[axis]
    idx = rng.integers(-n, n, size=ishape).astype(np.int64)
    CASES.append((f"scatter_elements_{'x'.join(map(str, dshape))}_i{'x'.join(map(str, ishape))}"
                  f"_axis{axis}_{reduction}", "ScatterElements", dict(axis=axis, reduction=reduction),
                  16, data, idx, upd, scatter_elements_ref(data, idx, upd, axis, reduction)))
# deprecated Scatter (opset 10): ScatterElements without reduction
data = rng.standard_normal((4, 3)).astype(np.float32)
idx = np.array([[3, 0, 1], [1, 2, 0]], np.int64)
upd = rng.standard_normal((2, 3)).astype(np.float32)
CASES.append(("scatter_legacy_4x3_axis0", "Scatter", dict(axis=0), 10, data, idx, upd,
              scatter_elements_ref(data, idx, upd, 0, "none")))
for dshape, ishape, reduction in [((6,), (4, 1), "none"), ((4, 3), (2, 1), "none"), ((4, 3), (5, 1), "add"),
                                  ((3, 4, 2), (3, 2), "mul"), ((3, 4, 2), (2, 2, 3), "add"),
                                  ((2, 3), (1, 2), "none")]:
    data = rng.standard_normal(dshape).astype(np.float32)
    k = ishape[-1]
    hi = np.array(dshape[:k])
    idx = rng.integers(-hi, hi, size=ishape).astype(np.int64)
    upd = rng.standard_normal(ishape[:-1] + dshape[k:]).astype(np.float32)
    CASES.append((f"scatternd_{'x'.join(map(str, dshape))}_i{'x'.join(map(str, ishape))}_{reduction}",
                  "ScatterND", dict(reduction=reduction), 16, data, idx, upd,
                  scatter_nd_ref(data, idx, upd, reduction)))

passed = failed = 0
with tempfile.TemporaryDirectory(prefix="scatter-e2e-") as work:
    for name, op, attrs, opset, data, idx, upd, ref in CASES:
        g = helper.make_graph([helper.make_node(op, ["x", "i", "u"], ["y"], **attrs)], "m",
                              [helper.make_tensor_value_info("x", F, list(data.shape)),
                               helper.make_tensor_value_info("u", F, list(upd.shape))],
                              [helper.make_tensor_value_info("y", F, list(ref.shape))],
                              [numpy_helper.from_array(idx, "i")])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
        onnx.checker.check_model(m)
        path = os.path.join(work, name + ".onnx")
        onnx.save(m, path)
        outs, error = compile_and_run(BIN, path, work, name, {"x": data, "u": upd}, ["y"])
        if error:
            print(f"FAIL {name}: {error}")
            failed += 1
            continue
        err = float(np.max(np.abs(outs[0] - ref)))
        ok = outs[0].shape == ref.shape and np.array_equal(outs[0], ref)
        print(f"{'PASS' if ok else 'FAIL'} {name} (max error {err:.3g})")
        passed += ok
        failed += not ok
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
