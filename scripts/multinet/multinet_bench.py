"""accel-multinet-bench: several networks at once on the cluster grid
(docs/multi-network.md), against the conventional accelerator.

  accel-multinet-bench [--quick] [--hw FILE] [--work DIR] [--bin DIR]

Mixes of two to four networks (a ResNet-style CNN, a MobileNet-style CNN,
an MLP, a bidirectional LSTM; --quick: the small sizes of the zoo, default:
the real ones) are compiled with `accel-compile --networks`:
- parallel: each network on its own rectangle of clusters, chosen by
  Placer (below): every network simulated alone on every rectangle shape,
  then the guillotine partition of the grid with the smallest largest
  latency, by exhaustive search ("makespan predicted"), and within 1 % of
  it the one that uses the fewest clusters (the unused ones are off);
- baseline (`--baseline`): every network on the whole grid, one after the
  other, each loading its weights again.
Both run with `accel-run --power-gating`; the ungated energy is the same
run's with the static energy of every cluster for every cycle (stats.json
energy_pj static_ungated). Per mix: makespan, per-network latency (the last
cycle of the network's layers), energy gated and ungated.

The last line is
  multinet: 4 networks makespan X.XX of baseline (4x4 grid), gated energy Y.YY of ungated
for the four-network mix: X = parallel makespan / baseline makespan, Y =
parallel energy with power gating / without (the makespan is the same:
gating never switches a cluster on again), of the four independent networks.
One more row runs the four with an interaction: the ensemble of the two
CNNs' logits (their sum) on the first cluster no network uses; in the
baseline it runs after the four, on the whole grid."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SRC, "scripts", "zoo"))
from zoo_bench import count_macs  # noqa: E402

sys.path.insert(0, os.path.join(SRC, "scripts"))
from progress import Progress  # noqa: E402

import onnx  # noqa: E402


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"accel-multinet-bench: {' '.join(cmd)} failed:\n{r.stderr}")
    return r.stdout


def networks(work, size):
    """name -> (kind, model path, {input: npy})."""
    zoo, rnn = f"{work}/zoo", f"{work}/rnn"
    py = "/usr/bin/python3"
    run([py, f"{SRC}/scripts/zoo/make_zoo.py", "--size", size, "--out", zoo,
         "resnet18", "mobilenetv3-small", "mlp3"])
    run([py, f"{SRC}/scripts/rnn_models/make_rnn_models.py", "--size", size,
         "--out", rnn, "bilstm2"])
    return {
        "resnet": ("ResNet-18", f"{zoo}/resnet18.onnx",
                   {"input": f"{zoo}/resnet18.in.input.npy"}),
        "mobilenet": ("MobileNetV3-Small", f"{zoo}/mobilenetv3-small.onnx",
                      {"input": f"{zoo}/mobilenetv3-small.in.input.npy"}),
        "mlp": ("MLP", f"{zoo}/mlp3.onnx", {"input": f"{zoo}/mlp3.in.input.npy"}),
        "lstm": ("BiLSTM", f"{rnn}/bilstm2.onnx", {"x": f"{rnn}/bilstm2.in.x.npy"}),
    }


class Placer:
    """Chooses each network's rectangle: every network is first simulated
    alone on every rectangle shape of the grid (rows x cols, placed at the
    origin), then the guillotine partition of the grid (cut a rectangle
    across, give each side a subset of the networks, recurse) that minimises
    the largest of the networks' latencies on their shapes is found by
    exhaustive search (memoised on shape and subset). The latencies alone
    ignore the DRAM bandwidth the networks share: the run measures it."""

    def __init__(self, work, hw, grid, nets):
        self.work, self.hw, self.grid, self.nets = work, hw, grid, nets
        self.lat, self.memo = {}, {}
        self.progress = Progress("simulating networks alone per shape")

    def latency(self, n, rows, cols):
        key = (n, rows, cols)
        if key not in self.lat:
            self.progress.step(len(self.lat), f"{n} on {rows}x{cols}")
            tag = f"{self.work}/alone-{n}-{rows}x{cols}"
            plan = {"networks": [{"name": n, "model": self.nets[n][1],
                                  "clusters": {"row": 0, "col": 0,
                                               "rows": rows, "cols": cols}}]}
            with open(tag + ".json", "w") as f:
                json.dump(plan, f)
            run([ACCEL["compile"], "--networks", tag + ".json", "-o",
                 tag + ".bin", "--hw", self.hw])
            st = simulate(tag + ".bin", self.hw, {n: self.nets[n][2]}, tag)
            self.lat[key] = st["cycles"]
            self.progress.clear()
        return self.lat[key]

    def solo(self, rows, cols, n, limit):
        """Network n alone in a rows x cols region: (latency, clusters,
        shape) of the fewest clusters whose latency is within `limit`
        (None: the fastest shape); the rest of the region stays unused."""
        shapes = [(self.latency(n, h, w), h * w, (h, w))
                  for h in range(1, rows + 1) for w in range(1, cols + 1)]
        if limit is None:
            return min(shapes)
        fits = [s for s in shapes if s[0] <= limit]
        return min(fits, key=lambda s: (s[1], s[0])) if fits else None

    def search(self, rows, cols, nets, limit):
        """Guillotine partitions of a rows x cols region among `nets`.
        limit None: (smallest largest latency, 0, placement); otherwise
        (largest latency, clusters used, placement) with the fewest
        clusters among those whose every latency is within limit (None
        when there is none)."""
        key = (rows, cols, nets, limit)
        if key in self.memo:
            return self.memo[key]
        if len(nets) == 1:
            s = self.solo(rows, cols, nets[0], limit)
            res = None if s is None else (
                s[0], 0 if limit is None else s[1],
                [(nets[0], (0, 0) + s[2])])
            self.memo[key] = res
            return res
        res = None
        for mask in range(1, (1 << len(nets)) - 1):
            a = tuple(n for i, n in enumerate(nets) if mask >> i & 1)
            b = tuple(n for i, n in enumerate(nets) if not mask >> i & 1)
            for across in (True, False):
                for k in range(1, rows if across else cols):
                    ra = (k, cols) if across else (rows, k)
                    rb = (rows - k, cols) if across else (rows, cols - k)
                    if ra[0] * ra[1] < len(a) or rb[0] * rb[1] < len(b):
                        continue
                    pa = self.search(ra[0], ra[1], a, limit)
                    pb = self.search(rb[0], rb[1], b, limit)
                    if pa is None or pb is None:
                        continue
                    cand = (max(pa[0], pb[0]), pa[1] + pb[1])
                    if res is None or (cand[::-1] if limit else cand) < (
                            (res[1], res[0]) if limit else res[:2]):
                        dr, dc = (k, 0) if across else (0, k)
                        moved = [(n, (r0 + dr, c0 + dc, h, w))
                                 for n, (r0, c0, h, w) in pb[2]]
                        res = cand + (pa[2] + moved,)
        self.memo[key] = res
        return res

    def best(self, rows, cols, nets):
        """The smallest predicted makespan, then, within 1 % of it, the
        placement that uses the fewest clusters (the others stay off)."""
        fastest = self.search(rows, cols, nets, None)
        lat, _, placed = self.search(rows, cols, nets, int(fastest[0] * 1.01))
        return lat, placed


def simulate(binary, hw, inputs, out, gating=True):
    args = []
    for name, files in inputs.items():
        for k, v in files.items():
            args += ["--input", f"{name}.{k}={v}"]
    run([ACCEL["run"], binary, "--hw", hw, "--output-dir", out, "--quiet"]
        + (["--power-gating"] if gating else []) + args)
    with open(f"{out}/stats.json") as f:
        return json.load(f)


def latencies(stats, names):
    lat = {}
    for n in names:
        last = [l["last_cycle"] for l in stats["layers"] if l["name"].startswith(n + ".")]
        lat[n] = max(last) if last else 0
    return lat


def energy(stats):
    e = stats["energy_pj"]
    gated = e["total"]
    ungated = gated - e["static_gated"] + e["static_ungated"]
    return gated, ungated


def energies(binary, hw, inputs, out, gated_stats):
    """(gated, ungated, makespan change of gating). A run where gating woke
    a cluster (its wake latency changes the cycles) is simulated again
    without gating for the ungated figure."""
    gated, ungated = energy(gated_stats)
    if not gated_stats["power"]["wakes"]:
        return gated, ungated, 0.0
    plain = simulate(binary, hw, inputs, out + "-ungated", gating=False)
    return (gated, plain["energy_pj"]["total"],
            gated_stats["cycles"] / plain["cycles"] - 1)


def first_free(grid, rects):
    used = {(r + y, c + x) for (r, c, h, w) in rects.values()
            for y in range(h) for x in range(w)}
    return next((r, c) for r in range(grid[0]) for c in range(grid[1])
                if (r, c) not in used)


def mix(work, hw, grid, nets, chosen, placer, interactions=()):
    predicted, placed = placer.best(grid[0], grid[1], tuple(chosen))
    rects = dict(placed)
    plan = {"networks": [{"name": n, "model": nets[n][1],
                          "clusters": dict(zip(("row", "col", "rows", "cols"),
                                               rects[n]))} for n in chosen],
            "interactions": list(interactions)}
    tag = "-".join(chosen) + ("-ix" if interactions else "")
    path = f"{work}/{tag}.json"
    with open(path, "w") as f:
        json.dump(plan, f)
    res = {}
    progress = Progress(f"mix {tag}", 2)
    for k, mode in enumerate(("parallel", "baseline")):
        progress.step(k, mode)
        binary = f"{work}/{tag}-{mode}.bin"
        run([ACCEL["compile"], "--networks", path, "-o", binary, "--hw", hw]
            + (["--baseline"] if mode == "baseline" else []))
        inputs = {n: nets[n][2] for n in chosen}
        st = simulate(binary, hw, inputs, f"{work}/{tag}-{mode}")
        names = chosen + [x["name"] for x in interactions]
        res[mode] = (st["cycles"], latencies(st, names),
                     energies(binary, hw, inputs, f"{work}/{tag}-{mode}", st))
    progress.clear()
    for x in interactions:
        r, c = first_free(grid, rects)
        rects[x["name"]] = (r, c, 1, 1)
    return rects, predicted, res


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="docs/multi-network.md \"Benchmark\" explains the figures.")
    ap.add_argument("--quick", action="store_true",
                    help="the zoo's small sizes (the figure check's run; "
                         "about 20 s) instead of the real ones (minutes)")
    ap.add_argument("--hw", default=os.path.join(SRC, "hw", "large.json"),
                    metavar="FILE",
                    help="hardware description JSON (default: hw/large.json, "
                         "the 4x4 grid)")
    ap.add_argument("--work", default="", metavar="DIR",
                    help="keep the models, plans, binaries and outputs in DIR "
                         "(default: a new temporary directory)")
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "bin"),
                    metavar="DIR",
                    help="directory of accel-compile and accel-run (default: "
                         "build/bin)")
    a = ap.parse_args()
    ACCEL["compile"] = os.path.join(a.bin, "accel-compile")
    ACCEL["run"] = os.path.join(a.bin, "accel-run")
    work = a.work or tempfile.mkdtemp(prefix="multinet-bench-")
    os.makedirs(work, exist_ok=True)
    with open(a.hw) as f:
        g = json.load(f)["grid"]
    grid = (g["rows"], g["cols"])
    nets = networks(work, "small" if a.quick else "real")
    macs = {n: max(1, count_macs(onnx.load(m))) for n, (_, m, _) in nets.items()}
    placer = Placer(work, a.hw, grid, nets)
    print(f"networks ({'small' if a.quick else 'real'} sizes) on "
          f"{os.path.basename(a.hw)} ({grid[0]}x{grid[1]} grid):")
    for n, (kind, _, _) in nets.items():
        print(f"  {n:10s} {kind:18s} {macs[n] / 1e6:10.2f} M MACs")
    print()
    print("| mix | network: clusters | latency parallel / baseline | "
          "makespan predicted | parallel | baseline | ratio | energy gated / "
          "ungated (parallel) | energy baseline |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    ensemble = {"name": "ensemble", "combine": "sum",
                "inputs": ["resnet.output", "mobilenet.output"]}
    four = ["resnet", "mobilenet", "mlp", "lstm"]
    last = None
    for chosen, ix in ((["resnet", "mlp"], ()), (["resnet", "mlp", "lstm"], ()),
                       (four, ()), (four, (ensemble,))):
        rects, predicted, res = mix(work, a.hw, grid, nets, chosen, placer, ix)
        (pc, pl, (pg, pu, slower)), (bc, bl, (bg, _, _)) = (res["parallel"],
                                                             res["baseline"])
        where = ", ".join(f"{n}: {r[2]}x{r[3]}@({r[0]},{r[1]})"
                          for n, r in rects.items())
        lat = ", ".join(f"{n} {pl[n]} / {bl[n]}" for n in pl)
        label = f"{len(chosen)} networks" + (" + ensemble" if ix else "")
        print(f"| {label} | {where} | {lat} | {predicted} | {pc} | {bc} | "
              f"{pc / bc:.2f} | {pg / 1e6:.3f} / {pu / 1e6:.3f} uJ ({pg / pu:.2f}"
              f"{f', makespan {slower:+.1%} gated' if slower else ''}) "
              f"| {bg / 1e6:.3f} uJ |")
        if not ix:
            last = (len(chosen), pc / bc, pg / pu)
    print()
    print(f"multinet: {last[0]} networks makespan {last[1]:.2f} of baseline "
          f"({grid[0]}x{grid[1]} grid), gated energy {last[2]:.2f} of ungated")
    return 0


ACCEL = {}

if __name__ == "__main__":
    sys.exit(main())
