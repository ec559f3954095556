#!/usr/bin/python3
"""The Python package's benchmark (docs/python.md "Benchmark"):

  1. compile + run of small models in this process (accel.compile,
     Program.run) against the command-line tools (accel-compile, accel-run,
     one process each, as a script drives them): median wall time of --reps
     repetitions each;
  2. a 64-point sweep (32 variants of the default preset's grid rows / cols,
     MAC lanes, storage and input-buffer bytes, x the zoo's mlp3 and
     resnet18 at --size small): wall time with 1 and 2 local workers and
     with a 2-worker local Dask cluster (processes).

  PYTHONPATH=build/python /usr/bin/python3 scripts/python_bench.py [--reps N] [--skip-sweep]

Not part of CI (it starts worker processes and a Dask cluster)."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "build", "python"))
import accel  # noqa: E402


def median_time(fn, reps):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def overhead(models, bin_dir, reps, work):
    print("compile + run, median of %d (s):" % reps)
    print(f"{'model':<12} {'CLI':>8} {'Python':>8} {'ratio':>7}")
    for name, (onnx_path, inputs) in models.items():
        binary = os.path.join(work, name + ".bin")
        args = [a for n, f in inputs.items() for a in ("--input", f"{n}={f}")]
        arrays = {n: np.load(f) for n, f in inputs.items()}

        def cli():
            subprocess.run([os.path.join(bin_dir, "accel-compile"), onnx_path, "-o", binary],
                           check=True)
            subprocess.run([os.path.join(bin_dir, "accel-run"), binary, "--quiet",
                            "--output-dir", os.path.join(work, name + ".out")] + args,
                           check=True)

        def native():
            accel.compile(onnx_path).run(arrays)

        native()  # the first call registers the dialects
        c, p = median_time(cli, reps), median_time(native, reps)
        print(f"{name:<12} {c:8.3f} {p:8.3f} {p / c:6.2f}x")


def sweep_bench(models):
    hw = accel.variants({"grid.rows": [1, 2], "grid.cols": [2, 4], "pe.mac_lanes": [64, 128],
                         "cluster.storage_bytes": [262144, 524288],
                         "pe.input_buffer_bytes": [32768, 65536]})
    paths = [m[0] for m in models.values()]
    print(f"sweep: {len(paths)} models x {len(hw)} hardware variants = {len(paths) * len(hw)} runs")
    results = {}
    for label, kwargs in (("in this process", {"workers": 0}),
                          ("1 local worker", {"workers": 1}),
                          ("2 local workers", {"workers": 2})):
        start = time.perf_counter()
        rows = accel.sweep(paths, hw, workers=kwargs["workers"])
        results[label] = (time.perf_counter() - start, rows)
    import distributed
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        start = time.perf_counter()
        rows = accel.sweep(paths, hw, scheduler=cluster.scheduler_address)
        results["Dask, 2 workers"] = (time.perf_counter() - start, rows)
    base = results["1 local worker"][0]
    for label, (secs, rows) in results.items():
        failed = sum(r["status"] != "ok" for r in rows)
        print(f"  {label:<16} {secs:7.1f} s  ({base / secs:4.2f}x, {failed} failed runs, "
              f"Pareto front {len(rows.pareto())})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--skip-sweep", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="accel-pybench-") as work:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "zoo", "make_zoo.py"),
                        "--size", "small", "--out", work, "mlp3", "resnet18"],
                       check=True, stdout=subprocess.DEVNULL)
        models = {"small_cnn": (os.path.join(ROOT, "examples", "small_cnn.onnx"),
                                {"image": os.path.join(ROOT, "examples", "small_cnn_image.npy")})}
        for name in ("mlp3", "resnet18"):
            models[name] = (os.path.join(work, name + ".onnx"),
                            {"input": os.path.join(work, f"{name}.in.input.npy")})
        overhead(models, args.bin_dir, args.reps, work)
        if not args.skip_sweep:
            sweep_bench({k: v for k, v in models.items() if k != "small_cnn"})


if __name__ == "__main__":
    main()
