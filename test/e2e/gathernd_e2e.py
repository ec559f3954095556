#!/usr/bin/python3
"""ONNX GatherND with compile-time indices on run-time f32 data, compiled
(accel-compile), simulated (accel-run --strict-hazards) and compared with a
numpy reference (exact: only copies). Covers batch_dims 0 / 1 / 2, k from 1
to rank - batch_dims, negative, repeated and unordered indices. Prints one
line per case and `N passed, M failed`."""
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run  # noqa: E402

BIN = sys.argv[1]
rng = np.random.default_rng(7)
F = TensorProto.FLOAT


def gathernd_ref(data, idx, b):
    bshape = data.shape[:b]
    B = int(np.prod(bshape)) if b else 1
    k = idx.shape[-1]
    d = data.reshape((B,) + data.shape[b:])
    ix = idx.reshape((B, -1, k))
    rows = []
    for bi in range(B):
        for t in ix[bi]:
            rows.append(d[bi][tuple(t)])
    return np.array(rows, np.float32).reshape(idx.shape[:-1] + data.shape[b + k:])


CASES = []
for dshape, ishape, b in [((5, 4), (3, 1), 0), ((3, 4, 5), (2, 2), 0), ((3, 4, 5), (4, 3), 0),
                          ((2, 3, 4), (2, 2, 1), 1), ((2, 3, 4), (2, 5, 2), 1),
                          ((2, 2, 3, 4), (2, 2, 3, 1), 2), ((6,), (4, 1), 0)]:
    data = rng.standard_normal(dshape).astype(np.float32)
    k = ishape[-1]
    hi = np.array(dshape[b:b + k])
    idx = rng.integers(-hi, hi, size=ishape).astype(np.int64)
    CASES.append((f"gathernd_{'x'.join(map(str, dshape))}_i{'x'.join(map(str, ishape))}_b{b}",
                  data, idx, b, gathernd_ref(data, idx, b)))

passed = failed = 0
with tempfile.TemporaryDirectory(prefix="gathernd-e2e-") as work:
    for name, data, idx, b, ref in CASES:
        g = helper.make_graph([helper.make_node("GatherND", ["x", "i"], ["y"], batch_dims=b)], "m",
                              [helper.make_tensor_value_info("x", F, list(data.shape))],
                              [helper.make_tensor_value_info("y", F, list(ref.shape))],
                              [numpy_helper.from_array(idx, "i")])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        onnx.checker.check_model(m)
        path = os.path.join(work, name + ".onnx")
        onnx.save(m, path)
        outs, error = compile_and_run(BIN, path, work, name, {"x": data}, ["y"])
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
