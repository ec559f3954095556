#!/usr/bin/env python3
"""accel-compile --networks end to end (docs/multi-network.md).

Networks of different kinds (the quick-start CNN, the zoo's MLP and
MobileNetV3-Small, a 2-layer bidirectional LSTM) are compiled into one
binary, each on its own clusters (parallel) and as the baseline (every
network on the whole grid, one after the other), simulated with
--strict-hazards, and every network's outputs are compared with the same
network compiled and run alone on the whole machine.

Usage: multinet_e2e.py BIN_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

BIN = sys.argv[1]
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TMP = tempfile.mkdtemp(prefix="multinet-e2e-")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def models():
    """name -> (model path, {input: npy path}) of the networks used."""
    zoo, rnn = f"{TMP}/zoo", f"{TMP}/rnn"
    run(["/usr/bin/python3", f"{SRC}/scripts/zoo/make_zoo.py", "--size", "small",
         "--out", zoo, "mlp3", "mobilenetv3-small"])
    run(["/usr/bin/python3", f"{SRC}/scripts/rnn_models/make_rnn_models.py",
         "--size", "small", "--out", rnn, "bilstm2"])
    image = np.load(f"{SRC}/examples/small_cnn_image.npy")
    np.save(f"{TMP}/image.npy", image)
    return {
        "cnn": (f"{SRC}/examples/small_cnn.onnx", {"image": f"{TMP}/image.npy"}),
        "mlp": (f"{zoo}/mlp3.onnx", {"input": f"{zoo}/mlp3.in.input.npy"}),
        "mbv3": (f"{zoo}/mobilenetv3-small.onnx",
                 {"input": f"{zoo}/mobilenetv3-small.in.input.npy"}),
        "lstm": (f"{rnn}/bilstm2.onnx", {"x": f"{rnn}/bilstm2.in.x.npy"}),
    }


def alone(name, model, inputs, hw):
    """Outputs of the network compiled and run alone on the whole machine."""
    out = f"{TMP}/alone-{name}-{os.path.basename(hw)}"
    binary = out + ".bin"
    c = run([f"{BIN}/accel-compile", model, "-o", binary, "--hw", hw])
    args = sum((["--input", f"{k}={v}"] for k, v in inputs.items()), [])
    r = run([f"{BIN}/accel-run", binary, "--hw", hw, "--output-dir", out] + args)
    if c.returncode or r.returncode:
        raise RuntimeError(f"{name} alone: {c.stderr}{r.stderr}")
    return {f[:-4]: np.load(f"{out}/{f}") for f in os.listdir(out)
            if f.endswith(".npy")}


def cycles_of(stdout):
    for line in stdout.splitlines():
        if line.startswith("cycles: "):
            return int(line.split()[1])
    return -1


def check(case, plan, hw, zoo, refs):
    path = f"{TMP}/{case}.json"
    with open(path, "w") as f:
        json.dump({"networks": plan}, f)
    results, ok = {}, True
    for mode in ("parallel", "baseline"):
        binary = f"{TMP}/{case}-{mode}.bin"
        out = f"{TMP}/{case}-{mode}"
        flags = ["--baseline"] if mode == "baseline" else []
        c = run([f"{BIN}/accel-compile", "--networks", path, "-o", binary,
                 "--hw", hw] + flags)
        args = []
        for n in plan:
            for k, v in zoo[n["name"]][1].items():
                args += ["--input", f"{n['name']}.{k}={v}"]
        r = run([f"{BIN}/accel-run", binary, "--hw", hw, "--strict-hazards",
                 "--output-dir", out] + args)
        if c.returncode or r.returncode:
            print(f"FAIL {case} {mode}: {c.stderr.strip()} {r.stderr.strip()}")
            ok = False
            continue
        worst = 0.0
        for n in plan:
            for tensor, want in refs[n["name"]].items():
                got = np.load(f"{out}/{n['name']}.{tensor}.npy")
                if got.shape != want.shape:
                    print(f"FAIL {case} {mode}: {n['name']}.{tensor} shape "
                          f"{got.shape} != {want.shape}")
                    ok = False
                    continue
                err = float(np.max(np.abs(got - want) / (1e-4 + np.abs(want))))
                worst = max(worst, err)
        if worst > 1e-4:
            print(f"FAIL {case} {mode}: relative error {worst:.2g}")
            ok = False
        results[mode] = cycles_of(r.stdout)
    print(f"{'ok' if ok else 'FAIL'} {case} on {os.path.basename(hw)}: "
          f"{len(plan)} networks, cycles parallel {results.get('parallel')} "
          f"baseline {results.get('baseline')}")
    return ok


def main():
    zoo = models()
    default = f"{SRC}/hw/default.json"
    large = f"{SRC}/hw/large.json"
    refs = {hw: {n: alone(n, m, i, hw) for n, (m, i) in zoo.items()}
            for hw in (default, large)}
    cases = [
        ("two", default, [{"name": "cnn", "model": zoo["cnn"][0]},
                          {"name": "mlp", "model": zoo["mlp"][0]}]),
        ("three", default, [
            {"name": "cnn", "model": zoo["cnn"][0],
             "clusters": {"row": 0, "col": 0, "rows": 1, "cols": 2}},
            {"name": "mlp", "model": zoo["mlp"][0],
             "clusters": {"row": 1, "col": 0, "rows": 1, "cols": 1}},
            {"name": "lstm", "model": zoo["lstm"][0],
             "clusters": {"row": 1, "col": 1, "rows": 1, "cols": 1}}]),
        ("four", large, [{"name": n, "model": zoo[n][0]}
                         for n in ("cnn", "mbv3", "mlp", "lstm")]),
    ]
    passed = failed = 0
    for case, hw, plan in cases:
        ok = check(case, plan, hw, zoo, refs[hw])
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")


main()
