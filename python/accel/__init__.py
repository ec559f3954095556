"""Python wrapper of the accel compiler and simulator.

    import numpy as np, accel
    binary = accel.compile("model.onnx", "model.bin")            # path of the binary
    outputs, stats = accel.run(binary, {"x": np.ones((1, 3), np.float32)})

The functions drive the `accel-compile` and `accel-run` executables, found in
$ACCEL_BIN_DIR, else in ../build/bin relative to this package, else on PATH.
Errors from the tools are raised as AccelError with the tool's message.
"""
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

__all__ = ["AccelError", "compile", "run", "tool_path"]


class AccelError(RuntimeError):
    """A compiler or simulator error; the message is the tool's own."""


def tool_path(name):
    candidates = []
    if os.environ.get("ACCEL_BIN_DIR"):
        candidates.append(os.path.join(os.environ["ACCEL_BIN_DIR"], name))
    here = os.path.dirname(os.path.abspath(__file__))
    candidates.append(os.path.join(here, "..", "..", "build", "bin", name))
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    found = shutil.which(name)
    if found:
        return found
    raise AccelError(f"cannot find {name}: set ACCEL_BIN_DIR to the build's bin directory")


def _check(proc, what):
    if proc.returncode != 0:
        raise AccelError(f"{what} failed:\n{proc.stderr.strip()}")


def compile(model, output, hw=None, input_shapes=None, emit="bin"):
    """Compiles an .onnx or .mlir model; returns the output path."""
    cmd = [tool_path("accel-compile"), str(model), "-o", str(output), f"--emit={emit}"]
    if hw:
        cmd += ["--hw", str(hw)]
    for name, shape in (input_shapes or {}).items():
        cmd += ["--input-shape", f"{name}=" + "x".join(str(int(d)) for d in shape)]
    _check(subprocess.run(cmd, capture_output=True, text=True), "accel-compile")
    return str(output)


def run(binary, inputs, hw=None, trace=None):
    """Simulates `binary` with numpy inputs {name: array}.

    Returns (outputs {name: np.ndarray}, stats dict from stats.json)."""
    with tempfile.TemporaryDirectory(prefix="accel-run-") as work:
        cmd = [tool_path("accel-run"), str(binary), "--output-dir", work]
        if hw:
            cmd += ["--hw", str(hw)]
        if trace:
            cmd += ["--trace", str(trace)]
        for name, value in inputs.items():
            path = os.path.join(work, f"in_{len(cmd)}.npy")
            np.save(path, np.ascontiguousarray(np.asarray(value, dtype=np.float32)))
            cmd += ["--input", f"{name}={path}"]
        _check(subprocess.run(cmd, capture_output=True, text=True), "accel-run")
        with open(os.path.join(work, "stats.json")) as f:
            stats = json.load(f)
        outputs = {}
        for fname in os.listdir(work):
            if fname.endswith(".npy") and not fname.startswith("in_"):
                outputs[fname[:-4]] = np.load(os.path.join(work, fname))
        return outputs, stats
