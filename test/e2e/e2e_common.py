"""Shared step of the e2e scripts: compile a model, simulate it with numpy
inputs and return the output arrays (or the tool's error)."""
import json
import os
import subprocess
import tempfile

import numpy as np


def ty(shape, et="f32"):
    """MLIR ranked tensor type: ty((2, 3)) == "tensor<2x3xf32>"."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def out_hw(h, k, s, p0, p1, d):
    """Output extent of a convolution / pooling window along one axis."""
    return (h + p0 + p1 - d * (k - 1) - 1) // s + 1


def conv_module(n, ci, co, h, w, kh, kw, s, p, d, groups, bias, relu):
    """A graph.conv2d model (inputs "x", "w" and optionally "b"; output "y",
    optionally through graph.relu); pads are top, left, bottom, right.
    Returns (text, x shape, w shape)."""
    oh, ow = out_hw(h, kh, s[0], p[0], p[2], d[0]), out_hw(w, kw, s[1], p[1], p[3], d[1])
    xs, ws, os_ = (n, ci, h, w), (co, ci // groups, kh, kw), (n, co, oh, ow)
    args = [f'%x: {ty(xs)} {{accel.name = "x"}}', f'%w: {ty(ws)} {{accel.name = "w"}}']
    ops = "%x, %w"
    tys = f"{ty(xs)}, {ty(ws)}"
    if bias:
        args.append(f'%b: {ty((co,))} {{accel.name = "b"}}')
        ops += ", %b"
        tys += f", {ty((co,))}"
    attrs = (f"groups = {groups}, strides = array<i64: {s[0]}, {s[1]}>, "
             f"pads = array<i64: {', '.join(map(str, p))}>, dilations = array<i64: {d[0]}, {d[1]}>")
    body = f"  %y = graph.conv2d {ops} {{{attrs}}} : ({tys}) -> {ty(os_)}\n"
    res = "%y"
    if relu:
        body += f"  %r = graph.relu %y : {ty(os_)}\n"
        res = "%r"
    return (f"func.func @main({', '.join(args)}) -> ({ty(os_)} {{accel.name = \"y\"}}) {{\n"
            f"{body}  return {res} : {ty(os_)}\n}}\n"), xs, ws


def force_mapping(bin_dir, src, out, hw, tiling, dataflow, array):
    """accel-opt: select-tiling (options `tiling`) and select-mapping forced to
    `dataflow` and `array` = (rows, cols) on `src`, written to `out`. Returns
    None or the error text."""
    hw_args = [f"--accel-hw={hw}"] if hw else []
    p = subprocess.run([os.path.join(bin_dir, "accel-opt"), src] + hw_args +
                       [f"--select-tiling={tiling}" if tiling else "--select-tiling",
                        f"--select-mapping=dataflow={dataflow} "
                        f"array={array[0]},{array[1]}",
                        "-o", out], capture_output=True, text=True)
    return "select-mapping: " + p.stderr.strip() if p.returncode else None

def compile_and_run(bin_dir, model, work, name, inputs, outputs, hw=None,
                    run_args=(), compile_args=()):
    """Compiles `model` (.mlir / .onnx) with extra accel-compile flags
    `compile_args` and runs it with `inputs` ({name: array}) under
    `accel-run --strict-hazards` (a missing WAIT or BARRIER is an error, not
    a warning). Returns (arrays for `outputs`, None) or (None, error); the
    run's stats.json is in WORK/NAME_out."""
    binary = os.path.join(work, name + ".bin")
    hw_args = ["--hw", hw] if hw else []
    p = subprocess.run([os.path.join(bin_dir, "accel-compile"), model, "-o", binary] + hw_args
                       + list(compile_args),
                       capture_output=True, text=True)
    if p.returncode:
        return None, "compile: " + (p.stderr.strip() or str(p.returncode))
    out_dir = os.path.join(work, name + "_out")
    cmd = [os.path.join(bin_dir, "accel-run"), binary, "--output-dir", out_dir,
           "--strict-hazards"] + hw_args
    cmd += list(run_args)
    for n, a in inputs.items():
        path = os.path.join(work, f"{name}_{n}.npy")
        np.save(path, a)
        cmd += ["--input", f"{n}={path}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, "run: " + p.stderr.strip()
    return [np.load(os.path.join(out_dir, o + ".npy")) for o in outputs], None


def check_single_output(bin_dir, model, work, name, inputs, expected, tag,
                        hw=None, atol=1e-4, compile_args=()):
    """Compiles (with accel-compile flags `compile_args`) and runs `model`
    (compile_and_run) and compares its output "r" with `expected` (rtol 1e-4,
    `atol`); prints PASS / FAIL with `tag` and returns whether it passed."""
    ok, err, error = run_and_compare(bin_dir, model, work, name, inputs, "r", expected,
                                     hw=hw, atol=atol, compile_args=compile_args)
    if error:
        print(f"FAIL {tag}: {error}")
        return False
    print(f"{'PASS' if ok else 'FAIL'} {tag} (max error {err:.3g})")
    return ok


def run_and_compare(bin_dir, model, work, name, inputs, output, expected, hw=None,
                    atol=1e-4, compile_args=()):
    """compile_and_run, then close_to for the output `output`: (ok, max
    error, None), or (False, inf, the compile / run error)."""
    outs, error = compile_and_run(bin_dir, model, work, name, inputs, [output], hw=hw,
                                  compile_args=compile_args)
    if error:
        return False, float("inf"), error
    return (*close_to(outs[0], expected, atol), None)


def layer_names(work, name, marker):
    """The names in run `name`'s layer table (`<name>_out/stats.json`
    `layers`) that contain `marker`."""
    with open(os.path.join(work, name + "_out", "stats.json")) as f:
        return [l["name"] for l in json.load(f)["layers"] if marker in l["name"]]


def check_run(bin_dir, model, work, name, inputs, output, expected, tag, hw=None,
              compile_args=(), marker=None, want_layers=0, atol=1e-4):
    """run_and_compare (tolerance rtol 1e-4, `atol`), and with `marker` that
    exactly `want_layers` layer names contain it; prints PASS / FAIL `tag`
    and returns whether it passed."""
    ok, e, err = run_and_compare(bin_dir, model, work, name, inputs, output, expected,
                                 hw=hw, atol=atol, compile_args=compile_args)
    if err:
        print(f"FAIL {tag}: {err}")
        return False
    note = ""
    if marker is not None:
        layers = layer_names(work, name, marker)
        if len(layers) != want_layers:
            ok = False
            print(f"  {tag}: {len(layers)} layers named '{marker}', expected "
                  f"{want_layers}: {layers}")
        note = f", {len(layers)} layers named '{marker}'"
    print(f"{'PASS' if ok else 'FAIL'} {tag} (max error {e:.3g}{note})")
    return ok


def close_to(got, expected, atol=1e-4):
    """(whether `got` has `expected`'s shape and is within rtol 1e-4, `atol`
    of it, the largest absolute difference or inf)."""
    got = got.astype(np.float64)
    if got.shape != expected.shape:
        return False, float("inf")
    return (bool(np.allclose(got, expected, rtol=1e-4, atol=atol)),
            float(np.max(np.abs(got - expected))) if got.size else 0.0)


def conv_ref(x, w, b, stride, pad, dil, groups):
    """NCHW convolution (pads: top, left, bottom, right) in float64, the
    reference of the conv e2e tests."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    oh = (h + pad[0] + pad[2] - dil[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + pad[1] + pad[3] - dil[1] * (kw - 1) - 1) // stride[1] + 1
    y = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * dil[0]: i * dil[0] + stride[0] * (oh - 1) + 1: stride[0],
                           j * dil[1]: j * dil[1] + stride[1] * (ow - 1) + 1: stride[1]]
                y[:, g * og:(g + 1) * og] += np.einsum("nchw,oc->nohw", patch,
                                                       w[g * og:(g + 1) * og, :, i, j])
    return y + b.reshape(1, -1, 1, 1)


def run_named_checks(names, check):
    """Runs check(work_dir, name) for every name in one temporary directory,
    prints each result line ("PASS ..." or "FAIL ...") and the tally; the
    exit status is 0 when every line is a PASS."""
    passed = 0
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            line = check(work, name)
            print(line, flush=True)
            passed += line.startswith("PASS")
    print(f"{passed} passed, {len(names) - passed} failed")
    return 0 if passed == len(names) else 1
