#!/usr/bin/python3
"""ONNX backend-test runner: import -> compile -> simulate -> compare.

For every selected test directory (model.onnx + test_data_set_*/input_*.pb,
output_*.pb) it runs `accel-compile` and then `accel-run --strict-hazards` on
each data set (a missing WAIT or BARRIER fails the test), and compares every
output with the expected one (rtol 1e-3, atol 1e-5, NaN-aware; a bool or
integer reference wants an output of that kind, a float one any float). Graph
inputs of a type the accelerator does not hold that the model reads only
through their static shape (EyeLike, Shape) are not program inputs: the runner
leaves out those accel-run reports as unknown. Each test runs
in its own processes, so a crash is a failure of that test only. Prints one
line per test, writes a JSON report, and ends with
`N passed, N failed, N unsupported` and what the passing tests execute (from
the simulator's stats.json of their first data set):
  pe-macs      multiply-adds on the PE array's MAC lanes (stats "macs" > 0)
  pe-no-macs   EXECUTE commands on the PE array without MACs (elementwise
               SPU / SFU work, LD/ST reshuffles)
  dma-only     no EXECUTE at all: DMA copies between DRAM symbols, or an
               output folded to a constant at compile time

Gate mode (CTest `onnx-conformance`): --expected FILE names one test per line
(test/e2e/onnx-expected-pass.txt). The run fails if any listed (and selected)
test does not pass, naming each one; tests that pass but are not listed are
reported as newly passing without failing the run. Update the list after an
improvement with

  ninja -C build update-onnx-expected

(= this script with --write-expected test/e2e/onnx-expected-pass.txt: the
list becomes the sorted names of the passing tests; with --filter / --suite,
entries outside the selection are kept).

Exit status without --expected: 0 when nothing failed.
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts"))
from progress import Progress  # noqa: E402
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


def same_kind(expected, got):
    """A bool / integer reference wants an output of that kind (accel-run
    writes outputs in their declared types); a floating-point one any float
    (the accelerator holds f16 / f64 as f32)."""
    if expected.dtype.kind in "biu":
        return got.dtype.kind == expected.dtype.kind or (
            expected.dtype.kind in "iu" and got.dtype.kind in "iu")
    return got.dtype.kind == "f"


def compare(expected, got):
    """Returns (ok, max_abs_err, message)."""
    if expected.shape != got.shape:
        return False, float("inf"), f"shape {got.shape} != expected {expected.shape}"
    if not same_kind(expected, got):
        return False, float("inf"), f"dtype {got.dtype} != expected {expected.dtype}"
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
    # Inputs that decide shapes or addressing (shapes, axes, indices, scales;
    # `accel-import --print-constant-inputs` names them) are frozen to the
    # first data set's values at compile time (accel-compile --bind).
    # Integer *data* and RNN sequence lengths stay inputs, so a test cannot
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
    # Graph inputs of a type the accelerator does not hold (INT32 data, ...)
    # that the model reads only through their static shape (Shape, Size,
    # EyeLike) are not inputs of the program; found from accel-run's
    # "unknown input" message, they are left out of later runs.
    elem_types = {i.name: i.type.tensor_type.elem_type for i in graph_inputs}
    held = (onnx.TensorProto.FLOAT, onnx.TensorProto.BOOL)
    shape_only = set()
    for ds in datasets:
        ds_dir = os.path.join(test_dir, ds)
        out_dir = os.path.join(workdir, name + "_" + ds)
        os.makedirs(out_dir, exist_ok=True)
        while True:
            cmd = [os.path.join(args.bin_dir, "accel-run"), binary, "--output-dir", out_dir,
                   "--strict-hazards"]
            if args.hw:
                cmd += ["--hw", args.hw]
            for i, inp in enumerate(inputs):
                if i in bound or inp in shape_only:
                    continue
                cmd += ["--input", f"{inp}={os.path.join(ds_dir, f'input_{i}.pb')}"]
            t0 = time.time()
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
            sim_s += time.time() - t0
            u = re.search(r"unknown input '([^']+)' \(program inputs: ", p.stderr)
            if (p.returncode > 0 and u and u.group(1) not in shape_only
                    and elem_types.get(u.group(1)) not in held):
                shape_only.add(u.group(1))
                continue
            break
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
            "shape_only_inputs": sorted(shape_only),
            "compile_seconds": round(compile_s, 3), "run_seconds": round(sim_s, 3),
            "cycles": stats.get("cycles"), "macs": stats.get("macs"),
            "category": category(stats)}


CATEGORIES = ["pe-macs", "pe-no-macs", "dma-only"]


def category(stats):
    """What a passing test executes, from its stats.json (see the module
    docstring); "unknown" when the stats could not be read."""
    if not stats:
        return "unknown"
    if stats.get("macs", 0) > 0:
        return "pe-macs"
    if stats.get("commands", {}).get("EXECUTE", 0) > 0:
        return "pe-no-macs"
    return "dma-only"


def read_expected(path):
    """Test names of an expected-pass list (one a line; '#' comments)."""
    with open(path) as f:
        lines = (l.split("#", 1)[0].strip() for l in f)
        return [l for l in lines if l]


def write_expected(path, results, selected):
    """Writes the sorted names of the passing tests to `path`, keeping the
    entries of an existing list that this run did not select."""
    kept = []
    if os.path.exists(path):
        kept = [t for t in read_expected(path) if t not in selected]
    names = sorted(set(kept) | {r["test"] for r in results if r["status"] == "pass"})
    with open(path, "w") as f:
        f.write("".join(n + "\n" for n in names))
    return len(names)


def select_tests(args):
    """Test directories of the selected suites whose names match --filter."""
    tests = []
    for suite in args.suite or SUITES:
        root = os.path.join(args.data_dir, suite)
        if not os.path.isdir(root):
            continue
        for name in sorted(os.listdir(root)):
            d = os.path.join(root, name)
            if not os.path.isfile(os.path.join(d, "model.onnx")):
                continue
            if any(fnmatch.fnmatch(name, p) for p in args.filter or ["*"]):
                tests.append(d)
    return tests


def run_all(tests, args):
    results = []
    progress = Progress("tests", len(tests))
    with tempfile.TemporaryDirectory(prefix="accel-onnx-") as work:
        for i, d in enumerate(tests):
            progress.step(i, os.path.basename(d))
            try:
                r = run_test(d, args, work)
            except subprocess.TimeoutExpired:
                r = {"test": os.path.basename(d), "status": "fail", "reason": "timeout"}
            except Exception as e:  # a broken test must not stop the run
                r = {"test": os.path.basename(d), "status": "fail",
                     "reason": f"runner error: {type(e).__name__}: {e}"}
            r["suite"] = os.path.basename(os.path.dirname(d))
            results.append(r)
            progress.clear()
            if r["status"] == "pass":
                print(f"PASS        {r['test']}  (max error {r['max_error']:.3g}, "
                      f"{r['category']})", flush=True)
            elif r["status"] == "fail":
                print(f"FAIL        {r['test']}: {r.get('reason')}", flush=True)
            else:
                print(f"UNSUPPORTED {r['test']}: {r.get('reason')}", flush=True)
    return results


def check_expected(expected, results, known):
    """(listed tests that did not pass, with the reason; passing tests that
    are not listed). Listed tests outside the selection (--filter, --suite)
    are not checked, except names that no suite holds (`known`): those are
    always errors (a typo, or test data that changed)."""
    status = {r["test"]: r for r in results}
    listed = set(expected)
    regressions = []
    for t in sorted(listed):
        if t in status:
            if status[t]["status"] != "pass":
                regressions.append((t, f"{status[t]['status']}: {status[t].get('reason')}"))
        elif t not in known:
            regressions.append((t, "no such test in the data directory"))
    new = sorted(r["test"] for r in results if r["status"] == "pass" and r["test"] not in listed)
    return regressions, new


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin-dir", required=True, help="directory with accel-compile/accel-run")
    ap.add_argument("--data-dir", default=DEFAULT_DATA)
    ap.add_argument("--suite", action="append", choices=SUITES,
                    help="suites to walk (default: all four)")
    ap.add_argument("--filter", action="append",
                    help="glob on test names (repeatable; default: all)")
    ap.add_argument("--hw", help="hardware description JSON")
    ap.add_argument("--report", help="write the JSON report here")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--expected", metavar="FILE",
                    help="gate mode: fail when a test listed in FILE does not pass; "
                         "report (without failing) passing tests not in FILE")
    ap.add_argument("--write-expected", metavar="FILE",
                    help="after the run, write the sorted names of the passing tests "
                         "to FILE (the update command of the expected-pass list)")
    args = ap.parse_args()

    tests = select_tests(args)
    if not tests:
        print("no tests selected", file=sys.stderr)
        return 2
    expected = None
    if args.expected:
        try:
            expected = read_expected(args.expected)
        except OSError as e:
            print(f"cannot read the expected-pass list: {e}", file=sys.stderr)
            return 2

    results = run_all(tests, args)
    names = {os.path.basename(d) for d in tests}
    counts = {s: sum(r["status"] == s for r in results) for s in ("pass", "fail", "unsupported")}
    kinds = {c: sum(r.get("category") == c for r in results if r["status"] == "pass")
             for c in CATEGORIES + ["unknown"]}
    report = {"results": results, "passed": counts["pass"], "failed": counts["fail"],
              "unsupported": counts["unsupported"],
              "passing_by_category": kinds}

    regressions, new = [], []
    if expected is not None:
        known = set()
        for suite in SUITES:
            root = os.path.join(args.data_dir, suite)
            if os.path.isdir(root):
                known |= set(os.listdir(root))
        regressions, new = check_expected(expected, results, known)
        report["expected_list"] = args.expected
        report["expected_not_passing"] = [{"test": t, "reason": why} for t, why in regressions]
        report["newly_passing"] = new
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)

    print(f"{counts['pass']} passed, {counts['fail']} failed, {counts['unsupported']} unsupported")
    print(f"passing tests by what they execute: {kinds['pe-macs']} MACs on the PE array, "
          f"{kinds['pe-no-macs']} PE array without MACs (elementwise / SFU), "
          f"{kinds['dma-only']} DMA copies or compile-time constants only"
          + (f", {kinds['unknown']} without stats" if kinds["unknown"] else ""))
    if args.write_expected:
        n = write_expected(args.write_expected, results, names)
        print(f"wrote {n} test names to {args.write_expected}")
    if expected is None:
        return 1 if counts["fail"] else 0
    for t in new:
        print(f"newly passing (not in {os.path.basename(args.expected)}): {t}")
    if new:
        print(f"{len(new)} newly passing tests: add them with `ninja -C build update-onnx-expected`")
    for t, why in regressions:
        print(f"REGRESSION: expected to pass: {t} ({why})")
    if regressions:
        print(f"{len(regressions)} of {len(expected)} expected tests did not pass")
        return 1
    print(f"all {len(expected)} expected tests passed" if not args.filter and not args.suite
          else "every selected expected test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
