"""Shared step of the e2e scripts: compile a model, simulate it with numpy
inputs and return the output arrays (or the tool's error)."""
import os
import subprocess

import numpy as np


def compile_and_run(bin_dir, model, work, name, inputs, outputs, hw=None,
                    run_args=(), compile_args=()):
    """Compiles `model` (.mlir / .onnx) with extra accel-compile flags
    `compile_args` and runs it with `inputs` ({name: array}). Returns (arrays
    for `outputs`, None) or (None, error); the run's stats.json is in
    WORK/NAME_out."""
    binary = os.path.join(work, name + ".bin")
    hw_args = ["--hw", hw] if hw else []
    p = subprocess.run([os.path.join(bin_dir, "accel-compile"), model, "-o", binary] + hw_args
                       + list(compile_args),
                       capture_output=True, text=True)
    if p.returncode:
        return None, "compile: " + (p.stderr.strip() or str(p.returncode))
    out_dir = os.path.join(work, name + "_out")
    cmd = [os.path.join(bin_dir, "accel-run"), binary, "--output-dir", out_dir] + hw_args
    cmd += list(run_args)
    for n, a in inputs.items():
        path = os.path.join(work, f"{name}_{n}.npy")
        np.save(path, a)
        cmd += ["--input", f"{n}={path}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, "run: " + p.stderr.strip()
    return [np.load(os.path.join(out_dir, o + ".npy")) for o in outputs], None
