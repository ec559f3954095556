#!/usr/bin/python3
"""ONNX backend-test runner: import -> compile -> simulate -> compare.

For every selected test directory (model.onnx + test_data_set_*/input_*.pb,
output_*.pb) it runs `accel-compile` and then `accel-run` on each data set,
and compares every output with the expected one (rtol 1e-3, atol 1e-5,
NaN-aware). Each test runs in its own processes, so a crash is a failure of
that test only. Prints one line per test, writes a JSON report, and ends with
`N passed, N failed, N unsupported`.

Exit status: 0 when nothing failed (and every --require'd test passed).
"""
import argparse
import fnmatch
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

RTOL, ATOL = 1e-3, 1e-5
DEFAULT_DATA = "/usr/share/libonnx-testdata/data"
SUITES = ["node", "pytorch-converted", "pytorch-operator", "simple"]


def first_line_with(text, words):
    for line in text.splitlines():
        if any(w in line for w in words):
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else "(no message)"


def compare(expected, got):
    """Returns (ok, max_abs_err, message)."""
    if expected.shape != got.shape:
        return False, float("inf"), f"shape {got.shape} != expected {expected.shape}"
    e = expected.astype(np.float64)
    g = got.astype(np.float64)
    nan_e, nan_g = np.isnan(e), np.isnan(g)
    if not np.array_equal(nan_e, nan_g):
        return False, float("inf"), "NaN positions differ"
    mask = ~nan_e
    if not mask.any():
        return True, 0.0, ""
    diff = np.abs(e[mask] - g[mask])
    # infinities must match exactly
    inf_e = np.isinf(e[mask])
    if inf_e.any() and not np.array_equal(e[mask][inf_e], g[mask][inf_e]):
        return False, float("inf"), "infinities differ"
    finite = ~inf_e
    diff = diff[finite]
    tol = ATOL + RTOL * np.abs(e[mask][finite])
    max_err = float(diff.max()) if diff.size else 0.0
    return bool((diff <= tol).all()), max_err, ""


def run_test(test_dir, args, workdir):
    name = os.path.basename(test_dir)
    model_path = os.path.join(test_dir, "model.onnx")
    model = onnx.load(model_path, load_external_data=False)
    inits = {i.name for i in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in inits]
    inputs = [i.name for i in graph_inputs]
    outputs = [o.name for o in model.graph.output]
    datasets = sorted(d for d in os.listdir(test_dir) if d.startswith("test_data_set_"))
    # Inputs that decide shapes or addressing (shapes, axes, indices, scales,
    # sequence lengths; `accel-import --print-constant-inputs` names them)
    # are frozen to the first data set's values at compile time
    # (accel-compile --bind). Integer *data* stays an input, so a test cannot
    # pass by constant folding.
    q = subprocess.run([os.path.join(args.bin_dir, "accel-import"),
                        "--print-constant-inputs", model_path],
                       capture_output=True, text=True, timeout=args.timeout)
    const_names = set(q.stdout.split()) if q.returncode == 0 else set()
    bound = [idx for idx, name in enumerate(inputs) if name in const_names]

    binary = os.path.join(workdir, name + ".bin")
    cmd = [os.path.join(args.bin_dir, "accel-compile"), model_path, "-o", binary]
    if bound and datasets:
        for idx in bound:
            cmd += ["--bind", f"{inputs[idx]}={os.path.join(test_dir, datasets[0], f'input_{idx}.pb')}"]
    if args.hw:
        cmd += ["--hw", args.hw]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    # Inputs the compiler needs at compile time (Resize scales, symbolic
    # dimensions) are given from the first data set, as a user would with
    # --bind / --input-shape, and recorded in the report.
    for _ in range(4):
        if p.returncode == 0 or not datasets:
            break
        m = re.search(r"input \d+ \('([^']+)'\) of .* must be a compile-time constant; it is a graph input", p.stderr) \
            or re.search(r"'([^']+)' must be a compile-time constant", p.stderr)
        d = re.search(r"graph input '([^']+)' has a dynamic dimension", p.stderr)
        if m and m.group(1) in inputs and inputs.index(m.group(1)) not in bound:
            idx = inputs.index(m.group(1))
            bound.append(idx)
            cmd += ["--bind", f"{inputs[idx]}={os.path.join(test_dir, datasets[0], f'input_{idx}.pb')}"]
        elif d and d.group(1) in inputs:
            idx = inputs.index(d.group(1))
            t = onnx.TensorProto()
            with open(os.path.join(test_dir, datasets[0], f"input_{idx}.pb"), "rb") as f:
                t.ParseFromString(f.read())
            cmd += ["--input-shape", f"{inputs[idx]}=" + "x".join(str(x) for x in t.dims)]
        else:
            break
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    compile_s = time.time() - t0
    if p.returncode != 0:
        msg = first_line_with(p.stderr, ["unsupported", "not supported", "error"])
        status = "unsupported" if ("unsupported" in p.stderr or "not supported" in p.stderr) else "fail"
        if p.returncode < 0:
            status, msg = "fail", f"accel-compile crashed (signal {-p.returncode})"
        return {"test": name, "status": status, "reason": msg, "stage": "compile"}

    max_err = 0.0
    if not datasets:
        return {"test": name, "status": "fail", "reason": "no test_data_set_*"}
    sim_s = 0.0
    for ds in datasets:
        ds_dir = os.path.join(test_dir, ds)
        out_dir = os.path.join(workdir, name + "_" + ds)
        os.makedirs(out_dir, exist_ok=True)
        cmd = [os.path.join(args.bin_dir, "accel-run"), binary, "--output-dir", out_dir]
        if args.hw:
            cmd += ["--hw", args.hw]
        for i, inp in enumerate(inputs):
            if i in bound:
                continue
            cmd += ["--input", f"{inp}={os.path.join(ds_dir, f'input_{i}.pb')}"]
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        sim_s += time.time() - t0
        if p.returncode != 0:
            reason = first_line_with(p.stderr, ["error"])
            if p.returncode < 0:
                reason = f"accel-run crashed (signal {-p.returncode})"
            return {"test": name, "status": "fail", "reason": reason, "stage": "run"}
        for i, out in enumerate(outputs):
            exp_t = onnx.TensorProto()
            with open(os.path.join(ds_dir, f"output_{i}.pb"), "rb") as f:
                exp_t.ParseFromString(f.read())
            expected = numpy_helper.to_array(exp_t)
            got = np.load(os.path.join(out_dir, out + ".npy"))
            ok, err, msg = compare(expected, got)
            max_err = max(max_err, err)
            if not ok:
                return {"test": name, "status": "fail", "stage": "compare",
                        "reason": f"{ds} output '{out}': {msg or 'max error %.3g' % err}",
                        "max_error": err}
    stats = {}
    try:
        with open(os.path.join(workdir, name + "_" + datasets[0], "stats.json")) as f:
            stats = json.load(f)
    except (OSError, ValueError):
        pass
    return {"test": name, "status": "pass", "max_error": max_err,
            "bound_inputs": [inputs[i] for i in bound],
            "compile_seconds": round(compile_s, 3), "run_seconds": round(sim_s, 3),
            "cycles": stats.get("cycles", stats.get("total_cycles"))}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin-dir", required=True, help="directory with accel-compile/accel-run")
    ap.add_argument("--data-dir", default=DEFAULT_DATA)
    ap.add_argument("--suite", action="append", choices=SUITES,
                    help="suites to walk (default: all four)")
    ap.add_argument("--filter", action="append",
                    help="glob on test names (repeatable; default: all)")
    ap.add_argument("--require", action="append", default=[],
                    help="glob of tests that must pass (repeatable)")
    ap.add_argument("--hw", help="hardware description JSON")
    ap.add_argument("--report", help="write the JSON report here")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--min-passed", type=int,
                    help="regression mode (CTest): succeed when at least this many "
                         "tests pass and every --require'd one does, even if others fail")
    args = ap.parse_args()

    tests = []
    for suite in args.suite or SUITES:
        root = os.path.join(args.data_dir, suite)
        if not os.path.isdir(root):
            continue
        for name in sorted(os.listdir(root)):
            d = os.path.join(root, name)
            if not os.path.isfile(os.path.join(d, "model.onnx")):
                continue
            pats = (args.filter or ["*"]) + args.require
            if any(fnmatch.fnmatch(name, p) for p in pats):
                tests.append(d)
    if not tests:
        print("no tests selected", file=sys.stderr)
        return 2

    results = []
    with tempfile.TemporaryDirectory(prefix="accel-onnx-") as work:
        for d in tests:
            try:
                r = run_test(d, args, work)
            except subprocess.TimeoutExpired:
                r = {"test": os.path.basename(d), "status": "fail", "reason": "timeout"}
            except Exception as e:  # a broken test must not stop the run
                r = {"test": os.path.basename(d), "status": "fail",
                     "reason": f"runner error: {type(e).__name__}: {e}"}
            r["suite"] = os.path.basename(os.path.dirname(d))
            results.append(r)
            if r["status"] == "pass":
                print(f"PASS        {r['test']}  (max error {r['max_error']:.3g})", flush=True)
            elif r["status"] == "fail":
                print(f"FAIL        {r['test']}: {r.get('reason')}", flush=True)
            else:
                print(f"UNSUPPORTED {r['test']}: {r.get('reason')}", flush=True)

    counts = {s: sum(r["status"] == s for r in results) for s in ("pass", "fail", "unsupported")}
    missing = [r["test"] for r in results if r["status"] != "pass"
               and any(fnmatch.fnmatch(r["test"], p) for p in args.require)]
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"results": results, "passed": counts["pass"], "failed": counts["fail"],
                       "unsupported": counts["unsupported"], "required_not_passing": missing},
                      f, indent=1)
    for m in missing:
        print(f"required test did not pass: {m}")
    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['unsupported']} unsupported")
    if args.min_passed is not None:
        if counts["pass"] < args.min_passed:
            print(f"regression: only {counts['pass']} passed, expected at least {args.min_passed}")
        return 1 if missing or counts["pass"] < args.min_passed else 0
    return 1 if counts["fail"] or missing else 0


if __name__ == "__main__":
    sys.exit(main())
