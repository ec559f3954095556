#!/usr/bin/python3
"""End-to-end test of the model zoo (scripts/zoo) at its small (CI) size:
each model is generated, run by the reference executor (onnxruntime-node,
scripts/zoo/ort_run.js, one thread), compiled with accel-compile, simulated
with accel-run --strict-hazards and its output compared with the
reference's (|got - ref| <= 1e-4 + 1e-4 |ref|, as the other e2e tests).

  zoo_e2e.py BIN_DIR SRC_ROOT ORT_DIR [--hw FILE] [NAMES...]"""
import os
import subprocess
import sys

import numpy as np

BIN, SRC, ORT = sys.argv[1:4]
ARGS = sys.argv[4:]
HW = None
if ARGS[:1] == ["--hw"]:
    HW, ARGS = ARGS[1], ARGS[2:]
sys.path.insert(0, os.path.join(SRC, "scripts", "zoo"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run, run_named_checks  # noqa: E402
from make_zoo import write_model  # noqa: E402
from zoo_models import MODELS  # noqa: E402

RTOL = ATOL = 1e-4


def reference(work, name, model, inputs):
    """The model's output "output" from onnxruntime, or (None, error)."""
    out = os.path.join(work, name + "_ref")
    cmd = ["node", os.path.join(SRC, "scripts", "zoo", "ort_run.js"), model, "--ort", ORT,
           "--output-dir", out, "--repeat", "1"]
    for n, f in inputs.items():
        cmd += ["--input", f"{n}={f}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, "onnxruntime: " + p.stderr.strip()
    return np.load(os.path.join(out, "output.npy")), None


def check(work, name):
    model, files = write_model(name, "small", work)
    ref, err = reference(work, name, model, files)
    if err:
        return f"FAIL {name}: {err}"
    outs, err = compile_and_run(BIN, model, work, name,
                                {n: np.load(f) for n, f in files.items()}, ["output"], hw=HW)
    if err:
        return f"FAIL {name}: {err}"
    got = outs[0]
    if got.shape != ref.shape:
        return f"FAIL {name}: shape {got.shape}, onnxruntime {ref.shape}"
    err = float(np.max(np.abs(got.astype(np.float64) - ref)))
    ok = np.allclose(got, ref, rtol=RTOL, atol=ATOL)
    return f"{'PASS' if ok else 'FAIL'} {name} {ref.shape} (max error {err:.3g})"


if __name__ == "__main__":
    sys.exit(run_named_checks(ARGS or list(MODELS), check))
