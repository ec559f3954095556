#!/usr/bin/python3
"""The simulator's data lanes (docs/simulator.md, "Eighth round") change
how the host computes a run, never its result: each zoo model at its small
size is compiled for a machine, then simulated with --strict-hazards on one
host thread (ACCEL_HOST_THREADS=1: every byte moved on the simulator's own
thread, in issue order) and on 2 and 5 threads (lanes of clusters running
at the same time). Every output .npy must be byte-identical and stats.json
identical but for its wall time.

  data_lanes_e2e.py BIN_DIR SRC_ROOT HW_FILE [--size small|real] [NAMES...]"""
import json
import os
import subprocess
import sys

BIN, SRC, HW = sys.argv[1:4]
NAMES = sys.argv[4:]
SIZE = "small"
if NAMES[:1] == ["--size"]:
    SIZE, NAMES = NAMES[1], NAMES[2:]
sys.path.insert(0, os.path.join(SRC, "scripts", "zoo"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import run_named_checks  # noqa: E402
from make_zoo import write_model  # noqa: E402
from zoo_models import MODELS  # noqa: E402

LANES = ("1", "2", "5", "default")


def run(binary, files, out, lanes):
    """accel-run's outputs (file name -> bytes) and stats.json without
    wall_seconds, or (None, error)."""
    cmd = [os.path.join(BIN, "accel-run"), binary, "--hw", HW, "--output-dir", out,
           "--quiet", "--strict-hazards"]
    if lanes != "default":
        cmd += ["--data-lanes", lanes]
    for n, f in files.items():
        cmd += ["--input", f"{n}={f}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, f"accel-run (lanes {lanes}): {p.stderr.strip()}"
    result = {}
    for f in sorted(os.listdir(out)):
        path = os.path.join(out, f)
        if f == "stats.json":
            stats = json.load(open(path))
            stats.pop("wall_seconds", None)
            result[f] = json.dumps(stats, sort_keys=True)
        elif f.endswith(".npy"):
            result[f] = open(path, "rb").read()
    return result, None


def check(work, name):
    model, files = write_model(name, SIZE, work)
    binary = os.path.join(work, name + ".bin")
    p = subprocess.run([os.path.join(BIN, "accel-compile"), model, "--hw", HW,
                        "-o", binary], capture_output=True, text=True)
    if p.returncode:
        return f"FAIL {name}: accel-compile: {p.stderr.strip()}"
    first = None
    for lanes in LANES:
        got, err = run(binary, files, os.path.join(work, f"{name}_{lanes}"), lanes)
        if err:
            return f"FAIL {name}: {err}"
        if first is None:
            first = got
            continue
        for f in sorted(set(first) | set(got)):
            if first.get(f) != got.get(f):
                return f"FAIL {name}: {f} differs between 1 and {lanes} lanes"
    outputs = sum(f.endswith(".npy") for f in first)
    return f"PASS {name} ({outputs} outputs and stats.json identical, lanes {', '.join(LANES)})"


if __name__ == "__main__":
    sys.exit(run_named_checks(NAMES or list(MODELS), check))
