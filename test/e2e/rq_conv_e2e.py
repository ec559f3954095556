#!/usr/bin/python3
"""End-to-end numerical tests of regular graph.conv2d (groups == 1) on the
rotating weight-queue kernel (accel-compile --conv=rq, docs/depthwise.md
"Regular convolutions with RQ"): each case is compiled, simulated with
accel-run and compared with numpy (rtol 1e-4) on the default machine and on
hw/bandwidth-starved.json. Every RQ case checks that the kernel was used
(queue_mode = RQ on a MAC in the ISA, scalar-unit operations in the run's
stats) and that the run had no hazards; the grouped case checks the
fallback to the GEMM path. The suite checks that some case split the input
channels (MAC depth < Cin) and some the output channels (queue columns <
Cout). Prints one line per case and exits 1 on any failure.

usage: rq_conv_e2e.py BIN_DIR SRC_ROOT"""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run, conv_module, conv_ref, ty  # noqa: E402

BIN, SRC = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(23)


# (name, N, Cin, Cout, H, W, KH, KW, strides, pads [t, l, b, r], dilations,
#  groups, bias, relu)
CASES = [
    ("c8o16_10x10_k3_s1_p1_bias", 1, 8, 16, 10, 10, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1, True, False),
    ("c16o24_7x9_k1", 1, 16, 24, 7, 9, 1, 1, (1, 1), (0, 0, 0, 0), (1, 1), 1, False, False),
    ("c6o10_12x11_k5_s1_p2_bias", 1, 6, 10, 12, 11, 5, 5, (1, 1), (2, 2, 2, 2), (1, 1), 1, True, False),
    ("c12o20_13x15_k3_s2_p1_bias_relu", 1, 12, 20, 13, 15, 3, 3, (2, 2), (1, 1, 1, 1), (1, 1), 1, True, True),
    ("c5o7_12x9_k3_dil2_p2_bias", 1, 5, 7, 12, 9, 3, 3, (1, 1), (2, 2, 2, 2), (2, 2), 1, True, False),
    ("c3o5_n2_9x10_k3_dil21_s12_asym", 2, 3, 5, 9, 10, 3, 3, (1, 2), (1, 0, 2, 1), (2, 1), 1, True, True),
    ("c3o13_11x11_k5_s2_p2_dil2", 1, 3, 13, 11, 11, 5, 5, (2, 2), (2, 2, 2, 2), (2, 2), 1, False, False),
    ("c7o9_6x5_k2x3_s1_asym", 1, 7, 9, 6, 5, 2, 3, (1, 1), (0, 1, 1, 0), (1, 1), 1, True, False),
    ("c3o17_32x32_k3_s2_p1_bias_relu", 1, 3, 17, 32, 32, 3, 3, (2, 2), (1, 1, 1, 1), (1, 1), 1, True, True),
    ("c64o64_14x14_k3_s1_p1_bias", 1, 64, 64, 14, 14, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1, True, False),
    ("c100o70_9x9_k3_s1_p1_bias_relu", 1, 100, 70, 9, 9, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1, True, True),
    ("c256o256_7x7_k3_s1_p1_bias", 1, 256, 256, 7, 7, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1, True, False),
    ("c300o40_6x6_k3_s1_p1", 1, 300, 40, 6, 6, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1, False, False),
    ("c130o90_8x8_k1_s2_bias", 1, 130, 90, 8, 8, 1, 1, (2, 2), (0, 0, 0, 0), (1, 1), 1, True, False),
    ("c64o8_5x200_k3_s1_p1_colchunks", 1, 64, 8, 5, 200, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 1, True, False),
    ("c8o8_9x9_k3_g2_fallback", 1, 8, 8, 9, 9, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), 2, True, False),
]
GEMM_CROSSCHECK = {"c12o20_13x15_k3_s2_p1_bias_relu", "c5o7_12x9_k3_dil2_p2_bias"}
HWS = [("default", None), ("bandwidth-starved", os.path.join(SRC, "hw", "bandwidth-starved.json"))]


def module(c):
    name, n, ci, co, h, w, kh, kw, s, p, d, g, bias, relu = c
    return conv_module(n, ci, co, h, w, kh, kw, s, p, d, g, bias, relu)


def rq_macs(isa_text):
    """(depth, cols) of every RQ MAC record in the ISA."""
    out = []
    for line in isa_text.splitlines():
        if "isa.mac" in line and "queue_mode = RQ" in line:
            dm = re.search(r"depth = (\d+)", line)
            cm = re.search(r"cols = (\d+)", line)
            out.append((int(dm.group(1)) if dm else 0, int(cm.group(1)) if cm else 1))
    return out


failed = total = 0
ci_split = co_split = False
with tempfile.TemporaryDirectory() as work:
    for c in CASES:
        name, n, ci, co, h, w, kh, kw, s, p, d, g, bias, relu = c
        text, xs, ws = module(c)
        src = os.path.join(work, name + ".mlir")
        with open(src, "w") as f:
            f.write(text)
        x = rng.standard_normal(xs).astype(np.float32)
        wt = rng.standard_normal(ws).astype(np.float32)
        b = rng.standard_normal((co,)).astype(np.float32) if bias else np.zeros(co)
        inputs = {"x": x, "w": wt}
        if bias:
            inputs["b"] = b
        exp = conv_ref(x.astype(np.float64), wt.astype(np.float64), b, s, p, d, g)
        if relu:
            exp = np.maximum(exp, 0)
        expect_rq = g == 1
        modes = ["rq"] + (["gemm"] if name in GEMM_CROSSCHECK else [])
        for hw_name, hw in HWS:
            hw_args = ["--hw", hw] if hw else []
            isa = subprocess.run([os.path.join(BIN, "accel-compile"), src, "--emit", "isa",
                                  "--conv", "rq", "-o", "-"] + hw_args,
                                 capture_output=True, text=True)
            macs = rq_macs(isa.stdout) if isa.returncode == 0 else []
            if macs and hw is None:
                ci_split |= any(dp < ci for dp, _ in macs)
                co_split |= any(cl < co for _, cl in macs)
            for mode in modes:
                total += 1
                tag = f"{name} [{hw_name}, conv={mode}]"
                run_name = f"{name}_{hw_name}_{mode}"
                outs, err = compile_and_run(BIN, src, work, run_name, inputs, ["y"], hw=hw,
                                            compile_args=["--conv", mode])
                if err:
                    print(f"FAIL {tag}: {err.splitlines()[0]}")
                    failed += 1
                    continue
                got = outs[0].astype(np.float64)
                ok = got.shape == exp.shape and np.allclose(got, exp, rtol=1e-4, atol=1e-4)
                with open(os.path.join(work, run_name + "_out", "stats.json")) as f:
                    st = json.load(f)
                if st["hazards"]["count"]:
                    ok = False
                    print(f"FAIL {tag}: {st['hazards']['count']} hazards")
                su = st["control_unit"]["scalar_unit_ops"]
                if mode == "rq" and expect_rq and (not macs or su == 0):
                    ok = False
                    print(f"FAIL {tag}: the RQ kernel was not used")
                if mode == "rq" and not expect_rq and macs:
                    ok = False
                    print(f"FAIL {tag}: groups != 1 must fall back to the GEMM path")
                e = float(np.max(np.abs(got - exp))) if got.shape == exp.shape else float("inf")
                info = ""
                if mode == "rq" and macs:
                    info = f", RQ depth {macs[0][0]}/{ci} cols {macs[0][1]}/{co}"
                elif mode == "rq":
                    info = ", GEMM fallback"
                print(f"{'PASS' if ok else 'FAIL'} {tag} (max error {e:.3g}, "
                      f"{st['cycles']} cycles{info})")
                failed += not ok
    # Two identical RQ convs back to back (relu between): the second layer's
    # first RQ weight load has the same record as the first layer's, so the
    # kernel's SQ flush must make it refetch.
    t2 = ty((1, 16, 8, 8))
    tw = ty((16, 16, 3, 3))
    attrs = ("groups = 1, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, "
             "dilations = array<i64: 1, 1>")
    src = os.path.join(work, "two_layers.mlir")
    with open(src, "w") as f:
        f.write(f'func.func @main(%x: {t2} {{accel.name = "x"}}, %w1: {tw} {{accel.name = "w1"}}, '
                f'%w2: {tw} {{accel.name = "w2"}}) -> ({t2} {{accel.name = "y"}}) {{\n'
                f'  %a = graph.conv2d %x, %w1 {{{attrs}}} : ({t2}, {tw}) -> {t2}\n'
                f'  %r = graph.relu %a : {t2}\n'
                f'  %y = graph.conv2d %r, %w2 {{{attrs}}} : ({t2}, {tw}) -> {t2}\n'
                f'  return %y : {t2}\n}}\n')
    x = rng.standard_normal((1, 16, 8, 8)).astype(np.float32)
    w1 = rng.standard_normal((16, 16, 3, 3)).astype(np.float32)
    w2 = rng.standard_normal((16, 16, 3, 3)).astype(np.float32)
    z = np.zeros(16)
    exp = conv_ref(np.maximum(conv_ref(x.astype(np.float64), w1.astype(np.float64), z, (1, 1),
                                       (1, 1, 1, 1), (1, 1), 1), 0),
                   w2.astype(np.float64), z, (1, 1), (1, 1, 1, 1), (1, 1), 1)
    multi = [("two identical layers", src, {"x": x, "w1": w1, "w2": w2}, "y", exp)]
    # examples/small_cnn.onnx: two convs (relu fused), flatten, gemm, add.
    ex = os.path.join(SRC, "examples")
    multi.append(("examples/small_cnn.onnx", os.path.join(ex, "small_cnn.onnx"),
                  {"image": np.load(os.path.join(ex, "small_cnn_image.npy"))}, "logits",
                  np.load(os.path.join(ex, "small_cnn_expected.npy")).astype(np.float64)))
    for label, src, inputs, out, exp in multi:
        for hw_name, hw in HWS:
            total += 1
            tag = f"{label} [{hw_name}, conv=rq]"
            run_name = f"multi{total}"
            outs, err = compile_and_run(BIN, src, work, run_name, inputs, [out], hw=hw,
                                        compile_args=["--conv", "rq"])
            if err:
                print(f"FAIL {tag}: {err.splitlines()[0]}")
                failed += 1
                continue
            got = outs[0].astype(np.float64)
            ok = got.shape == exp.shape and np.allclose(got, exp, rtol=1e-4, atol=1e-4)
            with open(os.path.join(work, run_name + "_out", "stats.json")) as f:
                st = json.load(f)
            if st["hazards"]["count"] or st["control_unit"]["scalar_unit_ops"] == 0:
                ok = False
                print(f"FAIL {tag}: hazards or no RQ MAC")
            e = float(np.max(np.abs(got - exp))) if got.shape == exp.shape else float("inf")
            print(f"{'PASS' if ok else 'FAIL'} {tag} (max error {e:.3g}, {st['cycles']} cycles)")
            failed += not ok
for what, seen in (("input-channel", ci_split), ("output-channel", co_split)):
    total += 1
    if not seen:
        failed += 1
        print(f"FAIL no case split the {what}s into blocks")
    else:
        print(f"PASS some case split the {what}s into blocks")
print(f"{total - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
