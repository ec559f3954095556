"""Design-space sweeps (docs/python.md "Sweeps").

accel.sweep(models, hardware_variants, options_variants) compiles and
simulates every combination and returns one row per run (a dict: model,
hardware, options, status, cycles, energy_pj, mac_utilisation, dram_bytes,
ideal_bound_cycles, ...; a SweepResult, a list with .frame() and
.pareto()). A run that fails (an impossible machine, a model the options
cannot compile) is reported in its row (status "error", the message in
"error"), never as a failure of the sweep. The runs go to local worker
processes (workers=N, default the CPU count; workers=0 runs them in this
process) or, given scheduler="tcp://host:port" (or a distributed.Client),
to a Dask cluster. plot=PATH writes the Pareto front of cycles vs energy
as a PNG. `accel-sweep SPEC.json -o OUT.csv` is the command line.
"""
import argparse
import concurrent.futures
import csv
import itertools
import json
import multiprocessing
import numbers
import os
import sys
import time
from collections.abc import Iterable, Mapping

import numpy as np

from .errors import OptionError
from .options import path_arg

RESULT_KEYS = ["cycles", "energy_pj", "mac_utilisation", "dram_bytes", "ideal_bound_cycles",
               "ideal_ratio", "macs"]


def _is_list(v):
    return isinstance(v, (list, tuple))


def _listed(v):
    """`v` as a list when it is a list of values: any iterable but a string
    or bytes (taken apart into characters) or a dict (into its keys); a
    numpy array's elements as Python scalars. None otherwise."""
    if isinstance(v, (str, bytes, Mapping)) or not isinstance(v, Iterable):
        return None
    if isinstance(v, np.ndarray):
        return v.tolist() if v.ndim == 1 else None
    return list(v)


def variants(axes, preset="default"):
    """Hardware variants of `preset`: the product of the values of each
    dotted field, e.g. variants({"grid.rows": [1, 2], "pe.mac_lanes": [32, 64]})
    gives 4 dicts {"preset": "default", "grid.rows": 1, "pe.mac_lanes": 32}, ...
    The values: a list, tuple, range, 1-D numpy array or other iterable."""
    if not isinstance(axes, Mapping):
        raise OptionError(f"variants: axes must be a dict of field -> list of values, "
                          f"got {type(axes).__name__}")
    values = {}
    for k, v in axes.items():
        if not isinstance(k, str):
            raise OptionError(f"variants: the field {k!r} is not a string (\"grid.rows\")")
        values[k] = _listed(v)
        if values[k] is None:
            raise OptionError(f"variants: the values of '{k}' must be a list, got {v!r}")
    return [dict({"preset": preset}, **dict(zip(values, combo)))
            for combo in itertools.product(*values.values())]


def _label(variant):
    if variant is None:
        return "default"
    if isinstance(variant, dict):
        return " ".join(f"{k}={v}" for k, v in variant.items()) or "default"
    return str(variant)


def _inputs(program, seed):
    rng = np.random.default_rng(seed)
    values = {}
    for spec in program.inputs:
        if spec.dtype.kind == "f":
            values[spec.name] = rng.standard_normal(spec.shape).astype(spec.dtype)
        else:  # integer inputs (RNN sequence lengths): zeros
            values[spec.name] = np.zeros(spec.shape, spec.dtype)
    return values


def run_one(job):
    """One row: compile job["model"] for job["hw"] with job["options"] and
    simulate it on random inputs (seeded). Runs in a worker."""
    import accel

    row = {"run": job["index"], "model": os.path.basename(str(job["model"])),
           "hardware": _label(job["hw"]), "options": _label(job["options"]),
           "status": "ok", "error": ""}
    if isinstance(job["hw"], dict):
        row.update({f"hw.{k}": v for k, v in job["hw"].items()})
    row.update({f"opt.{k}": v for k, v in job["options"].items()})
    try:
        start = time.perf_counter()
        program = accel.compile(job["model"], hw=job["hw"], **job["options"])
        row["compile_s"] = time.perf_counter() - start
        start = time.perf_counter()
        _, stats = program.run(_inputs(program, job["seed"]))
        row["run_s"] = time.perf_counter() - start
    except Exception as e:  # not only accel.Error: one variant's failure is its row's
        row.update(status="error", error=f"{type(e).__name__}: {e}")
        return row
    row.update(cycles=stats["cycles"], energy_pj=stats["energy_pj"]["total"],
               mac_utilisation=stats["mac_utilisation"],
               dram_bytes=stats["dram_bytes_read"] + stats["dram_bytes_written"],
               ideal_bound_cycles=stats["ideal_bound_cycles"],
               ideal_ratio=stats["ideal_ratio"], macs=stats["macs"])
    return row


class SweepResult(list):
    """The rows of a sweep (dicts, in job order)."""

    def frame(self):
        """The rows as a pandas DataFrame when pandas is installed, else the list."""
        try:
            import pandas
        except ImportError:
            return list(self)
        return pandas.DataFrame(list(self))

    def pareto(self):
        """The successful rows no other row beats in both cycles and energy."""
        return [r for r in self if r.get("pareto")]

    def write_csv(self, path):
        """Writes the rows as CSV to `path` (str or os.PathLike; open() took
        an int as a file descriptor, wrote to it and closed it)."""
        path = path_arg(path, "write_csv: path")
        keys = []
        for row in self:
            keys += [k for k in row if k not in keys]
        try:
            f = open(path, "w", newline="")
        except OSError as e:
            raise OptionError(f"write_csv: cannot write {path}: {e.strerror}") from None
        with f:
            writer = csv.DictWriter(f, fieldnames=keys)
            writer.writeheader()
            writer.writerows(self)


def _measured(row):
    """A successful row with both metrics (a stat overflowed is None)."""
    return (row["status"] == "ok" and row.get("cycles") is not None
            and row.get("energy_pj") is not None)


def _mark_pareto(rows):
    ok = [r for r in rows if _measured(r)]
    for r in rows:
        r["pareto"] = _measured(r) and not any(
            o["cycles"] <= r["cycles"] and o["energy_pj"] <= r["energy_pj"]
            and (o["cycles"], o["energy_pj"]) != (r["cycles"], r["energy_pj"]) for o in ok)


def plot_pareto(rows, path):
    """A PNG of energy vs cycles of every successful run, the front joined."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 5))
    for model in sorted({r["model"] for r in rows}):
        pts = [r for r in rows if r["model"] == model and _measured(r)]
        ax.scatter([r["cycles"] for r in pts], [r["energy_pj"] * 1e-6 for r in pts],
                   label=model, alpha=0.7)
    front = sorted((r for r in rows if r.get("pareto")), key=lambda r: r["cycles"])
    ax.plot([r["cycles"] for r in front], [r["energy_pj"] * 1e-6 for r in front], "k--",
            label="Pareto front")
    ax.set_xscale("log")
    ax.set_xlabel("cycles")
    ax.set_ylabel("energy (uJ)")
    ax.set_title("accel.sweep: cycles vs energy")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _run_local(jobs, workers):
    if workers == 0:
        return [run_one(j) for j in jobs]
    # spawn: a fresh interpreter per worker (the parent's MLIR and LLVM
    # threads are not duplicated into a forked child).
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        futures = [pool.submit(run_one, j) for j in jobs]
        rows = []
        for job, fut in zip(jobs, futures):
            try:
                rows.append(fut.result())
            except Exception as e:  # a worker that died (crash, memory)
                rows.append({"run": job["index"], "model": os.path.basename(str(job["model"])),
                             "hardware": _label(job["hw"]), "options": _label(job["options"]),
                             "status": "error", "error": f"worker failed: {e!r}"})
        return rows


def _run_dask(jobs, scheduler):
    import distributed

    client = scheduler if isinstance(scheduler, distributed.Client) else distributed.Client(scheduler)
    try:
        futures = client.map(run_one, jobs, pure=False)
        return client.gather(futures)
    finally:
        if client is not scheduler:
            client.close()


def _is_count(value):
    """A whole number >= 0 (not a bool, which is an int)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 0


def _models(models):
    """The model paths of sweep(models)."""
    if isinstance(models, (str, os.PathLike)):
        return [os.fspath(models)]
    listed = _listed(models)
    if listed is None:
        raise OptionError(f"sweep: models must be a model path or a list of them, "
                          f"got {models!r}")
    for m in listed:
        if not isinstance(m, (str, os.PathLike)):
            raise OptionError(f"sweep: a model must be a path (str or os.PathLike), got {m!r}")
    return [os.fspath(m) for m in listed]


# Arguments of accel.compile that run_one gives itself.
_NOT_OPTIONS = {"hw": "the machine belongs in hardware_variants",
                "model": "the model belongs in models"}


def _options_variants(value):
    """The dicts of compile options of sweep(options_variants)."""
    listed = [{}] if value is None else _listed(value)
    if listed is None:
        raise OptionError(f"sweep: options_variants must be a list of dicts, got {value!r}")
    for o in listed:
        if not isinstance(o, Mapping) or not all(isinstance(k, str) for k in o):
            raise OptionError(f"sweep: an options variant must be a dict of compile options, "
                              f"got {o!r}")
        # compile(model, hw=..., **options) failed on "multiple values".
        for key, why in _NOT_OPTIONS.items():
            if key in o:
                raise OptionError(f"sweep: '{key}' is not a compile option; {why}")
    return [dict(o) for o in listed]


def _sweep_problem(workers, seed, plot):
    """Why sweep's workers, seed or plot are not valid ("" when they are)."""
    if workers is not None and not _is_count(workers):
        return f"workers must be a whole number >= 0, got {workers!r}"
    if seed is not None and not _is_count(seed):
        return f"seed must be None or a whole number >= 0, got {seed!r}"
    if plot is not None:
        # Before the runs, which may take hours, as accel-sweep does.
        return _writable(path_arg(plot, "sweep: plot"))
    return ""


def sweep(models, hardware_variants=None, options_variants=None, workers=None,
          scheduler=None, plot=None, seed=0):
    """Compiles and simulates every (model, hardware variant, options
    variant); returns a SweepResult (one dict per run, "pareto" marks the
    front of cycles vs energy). hardware_variants: any hw forms of
    accel.compile (typically override dicts, see variants()); default
    [None] (the default preset). options_variants: dicts of compile
    options; default [{}]. The arguments are checked before any run
    (OptionError)."""
    models = _models(models)
    hw = [None] if hardware_variants is None else _listed(hardware_variants)
    if hw is None:
        raise OptionError(f"sweep: hardware_variants must be a list, got {hardware_variants!r}")
    opts = _options_variants(options_variants)
    why = _sweep_problem(workers, seed, plot)
    if why:
        raise OptionError(f"sweep: {why}")
    jobs = [{"index": i, "model": m, "hw": h, "options": o,
             "seed": None if seed is None else int(seed)}
            for i, (m, h, o) in enumerate(itertools.product(models, hw or [None], opts or [{}]))]
    if scheduler is not None:
        rows = _run_dask(jobs, scheduler)
    else:
        rows = _run_local(jobs, os.cpu_count() if workers is None else int(workers))
    rows = SweepResult(rows)
    _mark_pareto(rows)
    if plot is not None:
        plot_pareto(rows, plot)
    return rows


def _spec_hardware(spec):
    hw = spec.get("hardware", [None])
    if isinstance(hw, dict) and "vary" in hw:
        return variants(hw["vary"], hw.get("preset", "default"))
    return hw


SPEC_KEYS = ("models", "hardware", "options", "workers", "scheduler", "plot")


def _spec_problem(spec):
    """Why SPEC cannot be swept ("" when it can): checked before any run."""
    if not isinstance(spec, dict):
        return f"the spec must be a JSON object, got {type(spec).__name__}"
    unknown = [k for k in spec if k not in SPEC_KEYS]
    if unknown:
        return f"unknown key \"{unknown[0]}\" (known: {', '.join(SPEC_KEYS)})"
    models = spec.get("models")
    if not _is_list(models) or not models or not all(isinstance(m, str) and m for m in models):
        return '"models" must be a non-empty list of model paths'
    hw = spec.get("hardware", [None])
    if isinstance(hw, dict):
        if set(hw) - {"preset", "vary"} or not isinstance(hw.get("vary"), dict):
            return '"hardware" must be a list of variants or {"preset": P, "vary": {FIELD: [..]}}'
        bad = [k for k, v in hw["vary"].items() if not _is_list(v) or not v]
        if bad:
            return f'"hardware": "vary" of "{bad[0]}" must be a non-empty list of values'
    elif not _is_list(hw):
        return '"hardware" must be a list of variants or {"preset": P, "vary": {FIELD: [..]}}'
    options = spec.get("options", [{}])
    if not _is_list(options) or not all(isinstance(o, dict) for o in options):
        return '"options" must be a list of dicts of compile options'
    workers = spec.get("workers")
    if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool)
                                or workers < 0):
        return f'"workers" must be a whole number >= 0, got {workers!r}'
    for key in ("scheduler", "plot"):
        if spec.get(key) is not None and not isinstance(spec[key], str):
            return f'"{key}" must be a string'
    return ""


def _writable(path):
    """Why PATH cannot be written ("" when it can): checked before the runs,
    which may take hours."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"{path}: the folder {folder} does not exist"
    if os.path.isdir(path):
        return f"{path} is a directory"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return f"{path}: not writable"
    return ""


def main(argv=None):
    """accel-sweep SPEC.json -o OUT.csv [--workers N] [--scheduler ADDR] [--plot PNG]"""
    ap = argparse.ArgumentParser(
        prog="accel-sweep", description="compile and simulate every model x hardware variant x "
        "options variant of SPEC.json; one CSV row per run (docs/python.md)")
    ap.add_argument("spec", help='JSON: {"models": [...], "hardware": [...] or {"preset": P, '
                    '"vary": {"grid.rows": [..], ...}}, "options": [{...}, ...]}')
    ap.add_argument("-o", "--output", required=True, help="CSV file to write")
    ap.add_argument("--workers", type=int, help="local worker processes (default: spec or CPUs)")
    ap.add_argument("--scheduler", help="Dask scheduler address (tcp://host:port)")
    ap.add_argument("--plot", help="PNG of the Pareto front of cycles vs energy")
    args = ap.parse_args(argv)
    try:
        with open(args.spec) as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        print(f"accel-sweep: error: {args.spec}: {e}", file=sys.stderr)
        return 1
    why = _spec_problem(spec)
    if why:
        print(f"accel-sweep: error: {args.spec}: {why}", file=sys.stderr)
        return 1
    if args.workers is not None and args.workers < 0:
        print(f"accel-sweep: error: --workers must be >= 0, got {args.workers}", file=sys.stderr)
        return 1
    for path in (args.output, args.plot or spec.get("plot")):
        why = _writable(path) if path else ""
        if why:
            print(f"accel-sweep: error: {why}", file=sys.stderr)
            return 1
    base = os.path.dirname(os.path.abspath(args.spec))
    models = [m if os.path.isabs(m) else os.path.join(base, m) for m in spec["models"]]
    start = time.perf_counter()
    try:
        rows = sweep(models, _spec_hardware(spec), spec.get("options"),
                     workers=args.workers if args.workers is not None else spec.get("workers"),
                     scheduler=args.scheduler or spec.get("scheduler"),
                     plot=args.plot or spec.get("plot") or None)
        rows.write_csv(args.output)
    except OptionError as e:  # sweep's checks, made before any run
        print(f"accel-sweep: error: {e}", file=sys.stderr)
        return 1
    failed = sum(r["status"] != "ok" for r in rows)
    print(f"accel-sweep: {len(rows)} runs ({failed} failed) in {time.perf_counter() - start:.1f} s"
          f" -> {args.output}; Pareto front: {len(rows.pareto())} runs")
    return 0
