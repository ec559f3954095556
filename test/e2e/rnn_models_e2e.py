#!/usr/bin/python3
"""End-to-end test of the recurrent models of scripts/rnn_models at their
small size: each is generated, run by onnxruntime (scripts/zoo/ort_run.js;
the VAD's INT64 sample rate is an ordinary input there), compiled with
accel-compile (the sample rate bound with --bind, which selects the If
branch), simulated with accel-run --strict-hazards, and every output
compared with onnxruntime's (|got - ref| <= 1e-4 + 1e-4 |ref|). The VAD and
the keyword spotter are also streamed over three chunks (accel-run --stream
with their --state pairs) against three onnxruntime runs that feed the
state back by hand.

  rnn_models_e2e.py BIN_DIR SRC_ROOT ORT_DIR"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

BIN, SRC, ORT = sys.argv[1:4]
sys.path.insert(0, os.path.join(SRC, "scripts", "rnn_models"))
import make_rnn_models as rm  # noqa: E402

TOL = 1e-4
CHUNKS = 3
# Every interleaving of the RNN tasks (docs/rnn.md): spread over the
# clusters, all on one cluster multithreaded and with one thread context,
# and the plain per-step lowering.
MODES = {
    "engine": [],
    "one cluster": ["--rnn-clusters=1"],
    "one context": ["--rnn-clusters=1", "--rnn-contexts=1"],
    "plain": ["--rnn=plain"],
}


def sh(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, (p.stdout + p.stderr).strip()


def ort(work, tag, model, inputs):
    """onnxruntime's outputs {name: array} for {name: npy path}."""
    out = os.path.join(work, tag + ".ort")
    cmd = ["node", os.path.join(SRC, "scripts", "zoo", "ort_run.js"), model, "--ort", ORT,
           "--output-dir", out, "--repeat", "1"]
    for n, f in inputs.items():
        cmd += ["--input", f"{n}={f}"]
    code, text = sh(cmd)
    if code:
        raise RuntimeError("onnxruntime: " + text)
    names = [o.name for o in onnx.load(model).graph.output]
    return {n: np.load(os.path.join(out, n + ".npy")) for n in names}


def compare(tag, got, want):
    for n, ref in want.items():
        g = got[n]
        if g.shape != ref.shape:
            return f"{tag} {n}: shape {g.shape}, onnxruntime {ref.shape}"
        if not np.allclose(g, ref, atol=TOL, rtol=TOL):
            return f"{tag} {n}: max error {np.abs(g - ref).max():.3g}"
    return None


def single(work, name, build):
    m, inputs, binds = build()
    d = os.path.join(work, name)
    os.makedirs(d)
    path = os.path.join(d, "model.onnx")
    onnx.save(m, path)
    files = {}
    for n, a in {**inputs, **binds}.items():
        files[n] = os.path.join(d, f"{n}.npy")
        np.save(files[n], a)
    compile_cmd = [f"{BIN}/accel-compile", path, "-o", f"{d}/model.bin"]
    for n, a in binds.items():
        with open(f"{d}/{n}.pb", "wb") as f:
            f.write(onnx.numpy_helper.from_array(a, n).SerializeToString())
        compile_cmd += ["--bind", f"{n}={d}/{n}.pb"]
    want = ort(work, name, path, files)
    for mode, flags in MODES.items():
        code, text = sh(compile_cmd + flags)
        if code:
            return f"{mode}: accel-compile: " + text
        code, isa = sh([f"{BIN}/accel-translate", "--binary-to-isa", f"{d}/model.bin"])
        if ("isa.recur" in isa) != (mode != "plain"):
            return f"{mode}: RECUR tasks {'missing' if mode != 'plain' else 'present'}"
        cmd = [f"{BIN}/accel-run", f"{d}/model.bin", "--strict-hazards", "--output-dir",
               f"{d}/out"]
        for n in inputs:
            cmd += ["--input", f"{n}={files[n]}"]
        code, text = sh(cmd)
        if code:
            return f"{mode}: accel-run: " + text
        got = {n: np.load(f"{d}/out/{n}.npy") for n in want}
        err = compare(mode, got, want)
        if err:
            return err
    return None


def streamed(work, name, build):
    """CHUNKS chunks of fresh data through accel-run --stream vs onnxruntime
    with the state fed back by hand."""
    m, inputs, binds = build()
    d = os.path.join(work, name + "-stream")
    os.makedirs(d)
    path = os.path.join(d, "model.onnx")
    onnx.save(m, path)
    base = name.split("-")[0]
    states = rm.STATES[base]
    cmd = [f"{BIN}/accel-compile", path, "-o", f"{d}/model.bin"]
    for n, a in binds.items():
        with open(f"{d}/{n}.pb", "wb") as f:
            f.write(onnx.numpy_helper.from_array(a, n).SerializeToString())
        cmd += ["--bind", f"{n}={d}/{n}.pb"]
    code, text = sh(cmd)
    if code:
        return "accel-compile: " + text
    rng = np.random.default_rng(9)
    xs = []
    for k in range(CHUNKS):
        x = (0.5 * rng.standard_normal(inputs["x"].shape)).astype(np.float32)
        xs.append(f"{d}/x.{k}.npy")
        np.save(xs[-1], x)
    for n, a in binds.items():
        np.save(f"{d}/{n}.npy", a)
    cmd = [f"{BIN}/accel-run", f"{d}/model.bin", "--stream", "--strict-hazards",
           "--input", "x=" + ",".join(xs), "--output-dir", f"{d}/out"]
    for i, o in states:
        cmd += ["--state", f"{i}={o}"]  # zeros before the first chunk
    code, text = sh(cmd)
    if code:
        return "accel-run --stream: " + text
    state = {i: np.zeros(inputs[i].shape, np.float32) for i, _ in states}
    for k in range(CHUNKS):
        files = {"x": xs[k], **{n: f"{d}/{n}.npy" for n in binds}}
        for i in state:
            files[i] = f"{d}/{i}.ort.{k}.npy"
            np.save(files[i], state[i])
        want = ort(work, f"{name}-stream.{k}", path, files)
        got = {n: np.load(f"{d}/out/{n}.{k}.npy") for n in want}
        err = compare(f"chunk {k}", got, want)
        if err:
            return err
        state = {i: want[o] for i, o in states}
    return None


CASES = [
    ("vad-16k", single, lambda: rm.vad("small", 16000)),
    ("vad-8k", single, lambda: rm.vad("small", 8000)),
    ("kws", single, lambda: rm.kws("small")),
    ("bilstm2", single, lambda: rm.bilstm2("small")),
    ("vad-16k", streamed, lambda: rm.vad("small", 16000)),
    ("kws", streamed, lambda: rm.kws("small")),
]


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, run, build in CASES:
            tag = name + (" --stream" if run is streamed else "")
            try:
                err = run(work, name, build)
            except RuntimeError as e:
                err = str(e)
            print(f"PASS {tag}" if err is None else f"FAIL {tag}: {err}")
            passed += err is None
            failed += err is not None
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
