"""accel-zoo-bench: the model zoo (scripts/zoo) compiled and simulated on
each hardware description, against the onnxruntime reference.

  accel-zoo-bench [--quick] [--hw FILE]... [--models A,B,...] [--work DIR]
                  [--timeout S] [--ort DIR] [--bin DIR]

--quick uses the small (CI) sizes, the default the real ones (224x224
ImageNet models, BERT-base seq 128, ...). --hw is repeatable (default
hw/default.json and hw/bandwidth-starved.json). Per model and machine:
MACs, modelled cycles, ideal bound and cycles / ideal, DRAM bytes and DRAM /
compulsory, MAC utilisation, compile time, accel-run wall time, the
reference's single-thread wall time and sim / reference, then the top 3
layers by cycles and by exclusive cycles (when stats.json has `layers`).

Definitions (docs/zoo.md):
- MACs: the network's multiply-accumulates counted from the ONNX graph
  (Conv, ConvTranspose, Gemm, MatMul, LSTM gate products);
- compulsory bytes = every float initializer + every network input and
  output, each moved once, counted from the ONNX model; when the simulator
  reports stats.json `compulsory_bytes` (the weights as lowered), the
  smaller of the two;
- ideal bound = max(MACs / peak MACs per cycle, compulsory bytes / DRAM
  bytes per cycle), the MACs stats.json's `ideal_macs` when present;
- DRAM bytes = bytes read + written by the simulated program;
- compile s / accel-run s = the whole `accel-compile` / `accel-run` process
  (load, simulate, write), min(wall, CPU time) so that a loaded machine
  does not inflate it (`seconds`); accel-run s is the fastest of RUNS
  processes; reference = the fastest of RUNS onnxruntime `run` calls after a
  warm-up, one intra-op and one inter-op thread (session creation
  excluded), also min(wall, CPU); sim / reference = accel-run s /
  reference.

The last line is
  zoo: worst cycles/ideal X.XX, worst DRAM/compulsory Y.YY, worst sim/reference Z.Z
with all three worst cases taken over the convolutional networks of the zoo
(zoo_models.CNNS) on the default machine (the --hw file whose machine is
named "default", else the first --hw): the issue's goals are stated for
"every CNN of the zoo" on default hardware. The line before it gives the
same three figures over every model run."""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from progress import Progress  # noqa: E402
from onnx import shape_inference

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_zoo import write_model  # noqa: E402
from zoo_models import CNNS, MODELS  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --- counting from the ONNX graph -----------------------------------------

def _shapes(model):
    """value name -> static shape, from ONNX shape inference (with data
    propagation, so Shape -> Gather -> Concat -> Reshape chains resolve)."""
    inferred = shape_inference.infer_shapes(model, data_prop=True)
    g = inferred.graph
    shapes = {}
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        shapes[vi.name] = tuple(d.dim_value for d in vi.type.tensor_type.shape.dim)
    for t in g.initializer:
        shapes[t.name] = tuple(t.dims)
    return shapes


def count_macs(model):
    """Multiply-accumulates of the network's compute operators."""
    shapes = _shapes(model)
    total = 0
    for n in model.graph.node:
        if n.op_type in ("Conv", "ConvTranspose", "MatMul", "Gemm", "LSTM", "GRU", "RNN"):
            unknown = [v for v in list(n.input[:2]) + [n.output[0]]
                       if not shapes.get(v) or 0 in shapes[v]]
            if unknown:
                raise RuntimeError(f"cannot count the MACs of {n.op_type} node '{n.name}': "
                                   f"no static shape for {', '.join(unknown)}")
        out = shapes.get(n.output[0]) if n.output else None
        if n.op_type == "Conv":
            w = shapes[n.input[1]]
            total += int(np.prod(out)) * int(np.prod(w[1:]))
        elif n.op_type == "ConvTranspose":
            # weight [C, O / group, k...]: every input element meets O / group * k... taps
            x, w = shapes[n.input[0]], shapes[n.input[1]]
            total += int(np.prod(x)) * int(np.prod(w[1:]))
        elif n.op_type in ("MatMul", "Gemm"):
            a = shapes[n.input[0]]
            trans_a = next((x.i for x in n.attribute if x.name == "transA"), 0)
            k = a[-2] if (n.op_type == "Gemm" and trans_a) else a[-1]
            total += int(np.prod(out)) * k
        elif n.op_type in ("LSTM", "GRU", "RNN"):
            x, w, r = shapes[n.input[0]], shapes[n.input[1]], shapes[n.input[2]]
            dirs, gates_h, inp = w
            hidden = r[2]
            total += dirs * x[0] * x[1] * gates_h * (inp + hidden)
    return total


def count_compulsory(model):
    """Bytes of every float initializer + network inputs + outputs (f32)."""
    shapes = _shapes(model)
    weights = sum(int(np.prod(t.dims)) * 4 for t in model.graph.initializer
                  if t.data_type == onnx.TensorProto.FLOAT)
    inits = {t.name for t in model.graph.initializer}
    io = sum(int(np.prod(shapes[v.name])) * 4 for v in list(model.graph.input) +
             list(model.graph.output) if v.name not in inits)
    return weights + io


def _merge(base, over):
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(base[k], v) if isinstance(v, dict) and isinstance(base.get(k), dict) else v
    return out


def machine(hw_file):
    """(name, peak MACs per cycle, DRAM bytes per cycle) of a hardware
    description; keys it leaves out take hw/default.json's values (the
    built-in default preset)."""
    with open(os.path.join(SRC, "hw", "default.json")) as f:
        base = json.load(f)
    with open(hw_file) as f:
        own = json.load(f)
    hw = _merge(base, own)
    peak = hw["grid"]["rows"] * hw["grid"]["cols"] * hw["cluster"]["pes"] * hw["pe"]["mac_lanes"]
    bw = sum(c["bytes_per_cycle"] for c in hw["memory"]["channels"])
    return own.get("name", os.path.splitext(os.path.basename(hw_file))[0]), peak, bw


# --- running -------------------------------------------------------------

# Timed runs of each side of sim / reference, the fastest counted (a single
# accel-run process made the last line move between 15.9 and 20.3 from one
# bench run to the next on an idle host, while the reference was already the
# best of 3).
RUNS = 5


def run_reference(ort_dir, model, inputs, out_dir):
    cmd = ["node", os.path.join(SRC, "scripts", "zoo", "ort_run.js"), model, "--ort", ort_dir,
           "--output-dir", out_dir, "--repeat", str(RUNS)]
    for n, f in inputs.items():
        cmd += ["--input", f"{n}={f}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("onnxruntime: " + p.stderr.strip())
    t = json.loads(p.stdout.strip().splitlines()[-1])
    return seconds(t["wall_ms"], t["cpu_ms"]) / 1e3


def timed(cmd, timeout=None):
    """Runs `cmd`; returns (CompletedProcess, wall s, CPU s). The CPU time
    (user + system of the child) is what the run takes on an idle core when
    the machine is shared; see `seconds`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p, wall, cpu


def seconds(wall, cpu):
    """The time a tool takes: min(wall, CPU). A single-threaded tool's wall
    time on a loaded machine includes waiting for a core (CPU time does
    not); a multi-threaded tool's CPU time exceeds its wall time."""
    return min(wall, cpu)


def run_accel(bin_dir, model, inputs, hw, work, tag, timeout):
    """Compiles and simulates; returns (result dict, None) or (None, error)."""
    binary = os.path.join(work, tag + ".bin")
    p, wall, cpu = timed([os.path.join(bin_dir, "accel-compile"), model, "-o", binary,
                          "--hw", hw])
    compile_s = seconds(wall, cpu)
    if p.returncode:
        return None, "compile: " + p.stderr.strip()[-400:]
    out_dir = os.path.join(work, tag + "_out")
    cmd = [os.path.join(bin_dir, "accel-run"), binary, "--hw", hw, "--output-dir", out_dir,
           "--quiet"]
    for n, f in inputs.items():
        cmd += ["--input", f"{n}={f}"]
    run_s = run_wall = float("inf")
    for _ in range(RUNS):
        try:
            p, wall, cpu = timed(cmd, timeout)
        except subprocess.TimeoutExpired:
            return None, f"run: longer than {timeout} s"
        if p.returncode:
            return None, "run: " + p.stderr.strip()[-400:]
        if seconds(wall, cpu) < run_s:
            run_s, run_wall = seconds(wall, cpu), wall
    with open(os.path.join(out_dir, "stats.json")) as f:
        stats = json.load(f)
    os.remove(binary)
    return {"compile_s": compile_s, "run_s": run_s, "run_wall_s": run_wall, "stats": stats,
            "output": np.load(os.path.join(out_dir, "output.npy"))}, None


def bounds(stats, macs, compulsory, peak, bw):
    """(ideal bound cycles, compulsory bytes): the simulator's
    `ideal_bound_cycles` / `compulsory_bytes` when stats.json has them
    (non-zero), else max(macs / peak, compulsory / bw) from the model.
    The compulsory bytes are the smaller of the program's (weights as
    lowered: BatchNormalization folded) and the model's: a rewrite may
    store more weight bytes than the model has (fold-upsampled-merge's
    phase kernels), which must not lower DRAM / compulsory; the ideal
    bound's byte term follows (its MAC term is the program's,
    `ideal_macs`)."""
    program = stats.get("compulsory_bytes")
    if not program:
        return max(macs / peak, compulsory / bw), compulsory
    compulsory = min(program, compulsory)
    ideal = stats.get("ideal_bound_cycles") or 0
    if stats.get("ideal_macs"):
        ideal = max(stats["ideal_macs"] / peak, compulsory / bw)
    return ideal or max(macs / peak, compulsory / bw), compulsory


def top_layers(stats, n=3, key="cycles"):
    """[(name, op, share of the total)] of the `n` layers with the most
    `key` (stats.json `cycles` or `exclusive_cycles`) in stats.json `layers`
    (plus its `unattributed` row, the commands of no layer, when present);
    [] without per-layer statistics or without that key."""
    rows = list(stats.get("layers", []))
    if stats.get("unattributed"):
        rows.append(dict(stats["unattributed"], name="(unattributed)", op="-"))
    if not rows or key not in rows[0]:
        return []
    rows.sort(key=lambda l: -l.get(key, 0))
    total = stats["cycles"] or 1
    return [(l.get("name", "?"), l.get("op", "?"), l.get(key, 0) / total)
            for l in rows[:n]]


def summarise(name, model_info, res, ref, mach):
    """One table row (dict) from a run's stats.json and the model counts."""
    _, peak, bw = mach
    s = res["stats"]
    macs = model_info["macs"]
    ideal, compulsory = bounds(s, macs, model_info["compulsory"], peak, bw)
    dram = s["dram_bytes_read"] + s["dram_bytes_written"]
    err = float(np.max(np.abs(res["output"].astype(np.float64) - ref["output"]))) \
        if res["output"].shape == ref["output"].shape else float("inf")
    return {"model": name, "macs": macs, "cycles": s["cycles"], "ideal": ideal,
            "ratio": s["cycles"] / ideal if ideal else float("inf"), "dram": dram,
            "compulsory": compulsory, "dram_ratio": dram / compulsory,
            "util": s["mac_utilisation"], "compile_s": res["compile_s"],
            "run_s": res["run_s"], "run_wall_s": res["run_wall_s"],
            "sim_s": s.get("wall_seconds", float("nan")),
            "ref_s": ref["wall_s"], "sim_ref": res["run_s"] / ref["wall_s"],
            "max_err": err,
            "match": bool(np.allclose(res["output"], ref["output"], rtol=1e-4, atol=1e-4))
            if err != float("inf") else False,
            "top": top_layers(s),
            "top_exclusive": top_layers(s, key="exclusive_cycles")}


def _fmt_count(x):
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.2f}{unit}"
    return f"{x:.0f}"


def print_table(hw_name, rows, errors):
    print(f"\n## {hw_name}\n")
    print("| model | MACs | cycles | ideal | cycles/ideal | DRAM B | DRAM/compulsory | MAC util "
          "| compile s | accel-run s | reference ms | sim/reference | output |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        print(f"| {r['model']} | {_fmt_count(r['macs'])} | {_fmt_count(r['cycles'])} "
              f"| {_fmt_count(r['ideal'])} | {r['ratio']:.2f} | {_fmt_count(r['dram'])} "
              f"| {r['dram_ratio']:.2f} | {100 * r['util']:.1f} % | {r['compile_s']:.2f} "
              f"| {r['run_s']:.2f} | {1e3 * r['ref_s']:.2f} | {r['sim_ref']:.1f} "
              f"| {'ok' if r['match'] else 'MISMATCH'} ({r['max_err']:.1e}) |")
    for name, err in errors:
        print(f"| {name} | failed: {err} |")
    for key, title in (("top", "top 3 layers by cycles (share of the total):"),
                       ("top_exclusive", "top 3 layers by exclusive cycles (the "
                        "time the run waited on them; share of the total):")):
        print("\n" + title)
        for r in rows:
            print(f"  {r['model']}: " + (", ".join(f"{n} ({op}) {100 * sh:.0f} %"
                                                   for n, op, sh in r[key])
                                         or "n/a (stats.json has no `layers`)"))


def worst(rows, key):
    return max((r[key] for r in rows), default=float("nan"))


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="accel-zoo-bench",
                                 description="the model zoo on the simulator vs onnxruntime")
    ap.add_argument("--quick", action="store_true", help="small (CI) sizes")
    ap.add_argument("--hw", action="append", metavar="FILE",
                    help="hardware description (repeatable; default hw/default.json and "
                         "hw/bandwidth-starved.json)")
    ap.add_argument("--models", help="comma-separated model names (default: all; "
                    f"known: {', '.join(MODELS)})")
    ap.add_argument("--work", help="keep the models, binaries and outputs in DIR")
    ap.add_argument("--timeout", type=float, default=1800, help="accel-run limit per run (s)")
    ap.add_argument("--ort", default=os.environ.get("ACCEL_ORT_DIR"),
                    help="directory with node_modules/onnxruntime-node (default: "
                         "BIN/../ort)")
    ap.add_argument("--bin", help="directory of accel-compile / accel-run")
    a = ap.parse_args(argv)
    a.hw = a.hw or [os.path.join(SRC, "hw", "default.json"),
                    os.path.join(SRC, "hw", "bandwidth-starved.json")]
    a.models = a.models.split(",") if a.models else list(MODELS)
    unknown = [m for m in a.models if m not in MODELS]
    if unknown:
        ap.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    a.bin = a.bin or os.path.join(SRC, "build", "bin")
    a.ort = a.ort or os.path.join(os.path.dirname(os.path.abspath(a.bin)), "ort")
    return a


def bench(a, work):
    size = "small" if a.quick else "real"
    machines = [(hw, machine(hw)) for hw in a.hw]
    rows = {hw: [] for hw in a.hw}
    errors = {hw: [] for hw in a.hw}
    progress = Progress("models", len(a.models) * len(machines))
    for k, name in enumerate(a.models):
        progress.step(k * len(machines), f"{name}: generating, reference run")
        model_path, inputs = write_model(name, size, work)
        model = onnx.load(model_path)
        info = {"macs": count_macs(model), "compulsory": count_compulsory(model)}
        del model
        ref_dir = os.path.join(work, name + "_ref")
        ref = {"wall_s": run_reference(a.ort, model_path, inputs, ref_dir)}
        ref["output"] = np.load(os.path.join(ref_dir, "output.npy")).astype(np.float64)
        for hw, mach in machines:
            tag = f"{name}.{os.path.splitext(os.path.basename(hw))[0]}"
            progress.step(k * len(machines) + machines.index((hw, mach)),
                          f"{name} on {mach[0]}: compile and simulate")
            res, err = run_accel(a.bin, model_path, inputs, hw, work, tag, a.timeout)
            progress.clear()
            if err:
                errors[hw].append((name, err))
                print(f"# {name} on {mach[0]}: {err}", file=sys.stderr, flush=True)
                continue
            rows[hw].append(summarise(name, info, res, ref, mach))
            r = rows[hw][-1]
            print(f"# {name} on {mach[0]}: {r['cycles']} cycles, accel-run {r['run_s']:.2f} s "
                  f"(wall {r['run_wall_s']:.2f} s, simulation alone {r['sim_s']:.2f} s wall), "
                  f"compile {r['compile_s']:.2f} s, "
                  f"reference {r['ref_s'] * 1e3:.2f} ms", file=sys.stderr, flush=True)
    print(f"# accel-zoo-bench: {size} sizes")
    for hw, mach in machines:
        print_table(f"{mach[0]} ({os.path.relpath(hw, SRC)})", rows[hw], errors[hw])
    default = next((hw for hw, m in machines if m[0] == "default"), a.hw[0])
    cnn = [r for r in rows[default] if r["model"] in CNNS]
    every = rows[default]
    failed = sum(len(e) for e in errors.values())
    mismatched = [r["model"] for hw in a.hw for r in rows[hw] if not r["match"]]
    print()
    if failed or mismatched:
        print(f"# {failed} run(s) failed, output mismatch in: {', '.join(mismatched) or 'none'}")
    print(f"all models: worst cycles/ideal {worst(every, 'ratio'):.2f}, worst DRAM/compulsory "
          f"{worst(every, 'dram_ratio'):.2f}, worst sim/reference {worst(every, 'sim_ref'):.1f}")
    print(f"zoo: worst cycles/ideal {worst(cnn, 'ratio'):.2f}, worst DRAM/compulsory "
          f"{worst(cnn, 'dram_ratio'):.2f}, worst sim/reference {worst(cnn, 'sim_ref'):.1f}")
    return 1 if failed or mismatched else 0


def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    if a.work:
        os.makedirs(a.work, exist_ok=True)
        return bench(a, a.work)
    with tempfile.TemporaryDirectory(prefix="accel-zoo-") as work:
        return bench(a, work)


if __name__ == "__main__":
    sys.exit(main())
