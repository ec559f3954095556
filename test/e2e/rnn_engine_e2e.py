"""Every RNN / GRU / LSTM node test of ONNX's backend suite on the
column-wise engine (RECUR tasks, docs/rnn.md) with multithreading on (the
hardware's thread contexts) and off (one context), and on the plain
per-step lowering, each under --strict-hazards against the suite's outputs.
Prints one line per run and a summary."""
import glob
import os
import subprocess
import sys

import onnx

BIN = sys.argv[1]
DATA = "/usr/share/libonnx-testdata/data/node"
MODES = {
    # The tasks (directions x batch rows) spread over the clusters.
    "engine": ["--rnn=engine"],
    # All on one cluster: multithreaded on its contexts, then one context.
    "engine-1cl": ["--rnn=engine", "--rnn-clusters=1"],
    "engine-1cl-1ctx": ["--rnn=engine", "--rnn-clusters=1", "--rnn-contexts=1"],
    "plain": ["--rnn=plain"],
}
TMP = os.environ.get("TMPDIR", "/tmp")


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    tests = sorted(
        d for pat in ("lstm", "gru", "rnn", "simple_rnn")
        for d in glob.glob(f"{DATA}/test_{pat}_*"))
    passed = failed = 0
    for d in tests:
        model = onnx.load(f"{d}/model.onnx")
        ins = [i.name for i in model.graph.input]
        outs = [o.name for o in model.graph.output]
        data = f"{d}/test_data_set_0"
        args = []
        for k, name in enumerate(ins):
            args += ["--input", f"{name}={data}/input_{k}.pb"]
        for k, name in enumerate(outs):
            args += ["--expect", f"{name}={data}/output_{k}.pb"]
        for mode, flags in MODES.items():
            name = os.path.basename(d)
            binary = f"{TMP}/rnn-engine-{name}-{mode}.bin"
            c = run([f"{BIN}/accel-compile", f"{d}/model.onnx", "-o", binary] + flags)
            if c.returncode:
                print(f"FAIL {name} {mode}: compile: {c.stderr.strip()}")
                failed += 1
                continue
            isa = run([f"{BIN}/accel-translate", "--binary-to-isa", binary]).stdout
            recur = isa.count("isa.recur ")
            want_recur = mode != "plain"
            r = run([f"{BIN}/accel-run", binary, "--strict-hazards",
                     "--output-dir", f"{TMP}/rnn-engine-out"] + args)
            ok = r.returncode == 0 and (recur > 0) == want_recur
            print(f"{'ok' if ok else 'FAIL'} {name} {mode}: {recur} RECUR"
                  + ("" if ok else f": {r.stderr.strip()}"))
            passed += ok
            failed += not ok
    print(f"{passed} passed, {failed} failed")


main()
