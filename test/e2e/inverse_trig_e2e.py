#!/usr/bin/python3
"""ONNX Atan, Asin, Acos (decomposed into abs / reciprocal / square / affine
/ mul / where / sign / sqrt / div; docs/operators.md "Atan, Asin, Acos") on
run-time f32 inputs, compiled (accel-compile), simulated (accel-run
--strict-hazards) and compared with float64 numpy over a dense grid plus the
edge values (0, -0, +-1, just outside +-1, +-inf, NaN, huge, tiny,
subnormal). NaN must be where numpy has NaN; the absolute error elsewhere
must stay within the bound of each operator. Prints the measured maximum
error per operator and `N passed, M failed`."""
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run  # noqa: E402

BIN = sys.argv[1]
F = TensorProto.FLOAT
f32 = np.float32
EDGES = np.array([0.0, -0.0, 1.0, -1.0, np.nextafter(f32(1), f32(2)), -np.nextafter(f32(1), f32(2)),
                  np.nextafter(f32(1), f32(0)), -np.nextafter(f32(1), f32(0)), 0.5, -0.5,
                  np.inf, -np.inf, np.nan, 3.4e38, -3.4e38, 1e30, -1e30, 1e-30, -1e-30,
                  1e-45, -1e-45, 2.0, -2.0], f32)
dense = np.linspace(-4, 4, 40001, dtype=f32)
unit = np.linspace(-1, 1, 40001, dtype=f32)
near1 = (1 - np.geomspace(6e-8, 0.1, 4000)).astype(f32)
wide = np.geomspace(1e-20, 1e20, 8000).astype(f32)

CASES = [
    ("Atan", np.arctan, np.concatenate([dense, wide, -wide, EDGES]), 2.0e-7),
    ("Asin", np.arcsin, np.concatenate([unit, near1, -near1, dense, EDGES]), 2.5e-7),
    ("Acos", np.arccos, np.concatenate([unit, near1, -near1, dense, EDGES]), 4.0e-7),
]

passed = failed = 0
with tempfile.TemporaryDirectory(prefix="inverse-trig-e2e-") as work:
    for op, ref_fn, x, bound in CASES:
        name = op.lower()
        g = helper.make_graph([helper.make_node(op, ["x"], ["y"])], "m",
                              [helper.make_tensor_value_info("x", F, [x.size])],
                              [helper.make_tensor_value_info("y", F, [x.size])])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
        onnx.checker.check_model(m)
        path = os.path.join(work, name + ".onnx")
        onnx.save(m, path)
        outs, error = compile_and_run(BIN, path, work, name, {"x": x}, ["y"])
        if error:
            print(f"FAIL {name}: {error}")
            failed += 1
            continue
        y = outs[0].astype(np.float64)
        with np.errstate(invalid="ignore"):
            ref = ref_fn(x.astype(np.float64))
        nan_ok = np.array_equal(np.isnan(y), np.isnan(ref))
        fin = ~np.isnan(ref)
        err = np.abs(y[fin] - ref[fin])
        worst = float(err.max())
        at = float(x[fin][err.argmax()])
        ok = nan_ok and worst <= bound
        print(f"{'PASS' if ok else 'FAIL'} {name}: {x.size} values, max abs error {worst:.3g} "
              f"at x = {at:.9g} (bound {bound:g}), NaN where numpy has NaN: {nan_ok}")
        passed += ok
        failed += not ok
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
