#!/usr/bin/python3
"""End-to-end numerical tests of depthwise graph.conv2d (groups == C == O):
each case is compiled with accel-compile (default depthwise=sw: the
sliding-window weight-queue kernel, docs/depthwise.md), simulated with
accel-run and compared with a numpy reference, on the default machine and
on hw/bandwidth-starved.json. Every case also checks that the SW kernel was
used (queue_mode = SW in the ISA) and a subset is cross-checked with
--depthwise=gemm. Every case also runs with --depthwise-lane-rows=on
(several output rows of a small plane side by side in the queue's columns,
docs/depthwise.md "Small planes", wherever they fit) and =off (one output
row per MAC row, the sliding queue) on the default machine; the cases whose
listing differs between the two (the ones that pack) are counted. Prints one line per
case and exits 1 on any mismatch.

usage: depthwise_e2e.py BIN_DIR SRC_ROOT"""
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import compile_and_run, conv_module  # noqa: E402
from depthwise_e2e_ref import ref  # noqa: E402

BIN, SRC = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(11)


# (name, N, C, H, W, KH, KW, strides, pads [t, l, b, r], dilations, bias, relu)
CASES = [
    ("c4_8x8_k3_s1_p1", 1, 4, 8, 8, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), False, False),
    ("c5_9x7_k3_s1_p1_bias", 1, 5, 9, 7, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), True, False),
    ("c6_11x13_k3_s2_p1_bias_relu", 1, 6, 11, 13, 3, 3, (2, 2), (1, 1, 1, 1), (1, 1), True, True),
    ("c3_10x10_k3_s2_p0", 1, 3, 10, 10, 3, 3, (2, 2), (0, 0, 0, 0), (1, 1), False, False),
    ("c7_12x9_k3_s1_dil2_p2", 1, 7, 12, 9, 3, 3, (1, 1), (2, 2, 2, 2), (2, 2), True, False),
    ("c2_9x10_k3_dil21_s12", 2, 2, 9, 10, 3, 3, (1, 2), (1, 0, 2, 1), (2, 1), True, True),
    ("c8_14x14_k5_s1_p2", 1, 8, 14, 14, 5, 5, (1, 1), (2, 2, 2, 2), (1, 1), True, False),
    ("c3_6x5_k1", 1, 3, 6, 5, 1, 1, (1, 1), (0, 0, 0, 0), (1, 1), True, False),
    ("c2_7x7_k2x3_asym", 1, 2, 7, 7, 2, 3, (1, 1), (0, 1, 1, 0), (1, 1), False, False),
    ("c1_5x6_k3_s3", 1, 1, 5, 6, 3, 3, (3, 3), (1, 1, 1, 1), (1, 1), True, False),
    ("c16_56x56_k3_s1_p1_bias_relu", 1, 16, 56, 56, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), True, True),
    ("c12_28x28_k3_s2_p1_bias", 1, 12, 28, 28, 3, 3, (2, 2), (1, 1, 1, 1), (1, 1), True, False),
    ("c36_n2_7x7_k3_s1_p1_bias_relu_planes", 2, 36, 7, 7, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), True, True),
    ("c64_9x8_k3_s2_p1_bias_planes", 1, 64, 9, 8, 3, 3, (2, 2), (1, 1, 1, 1), (1, 1), True, False),
    ("c2_6x1000_k3_s1_p1_colchunks", 1, 2, 6, 1000, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), False, False),
    # Several packed planes per EXECUTE with lane rows on (three, one plane
    # left over for the one-plane group; five of 5 x 5 stride 2): docs/
    # depthwise.md, "Several planes per EXECUTE".
    ("c100_7x7_k3_s1_p1_bias_relu_multiplane", 1, 100, 7, 7, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), True, True),
    ("c150_14x14_k5_s2_p2_bias_multiplane", 1, 150, 14, 14, 5, 5, (2, 2), (2, 2, 2, 2), (1, 1), True, False),
    # Row bands: top, inner and bottom bands alternate in the storage halves
    # (the zeros of a half are reused only by a tile of the same geometry).
    ("c2_1000x100_k3_s1_p1_bands", 1, 2, 1000, 100, 3, 3, (1, 1), (1, 1, 1, 1), (1, 1), True, False),
]
GEMM_CROSSCHECK = {"c6_11x13_k3_s2_p1_bias_relu", "c7_12x9_k3_s1_dil2_p2",
                   "c36_n2_7x7_k3_s1_p1_bias_relu_planes"}
HWS = [("default", None), ("bandwidth-starved", os.path.join(SRC, "hw", "bandwidth-starved.json"))]


def module(c):
    name, n, ch, h, w, kh, kw, s, p, d, bias, relu = c
    return conv_module(n, ch, ch, h, w, kh, kw, s, p, d, ch, bias, relu)


MODE_ARGS = {"sw": ["--depthwise", "sw"], "gemm": ["--depthwise", "gemm"],
             "sw-rows-on": ["--depthwise", "sw", "--depthwise-lane-rows=on"],
             "sw-rows-off": ["--depthwise", "sw", "--depthwise-lane-rows=off"]}


def isa_of(src, args):
    r = subprocess.run([os.path.join(BIN, "accel-compile"), src, "--emit", "isa", "-o", "-"]
                       + args, capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


failed = total = packed = 0
with tempfile.TemporaryDirectory() as work:
    for c in CASES:
        name, n, ch, h, w, kh, kw, s, p, d, bias, relu = c
        text, xs, ws = module(c)
        src = os.path.join(work, name + ".mlir")
        with open(src, "w") as f:
            f.write(text)
        x = rng.standard_normal(xs).astype(np.float32)
        wt = rng.standard_normal(ws).astype(np.float32)
        b = rng.standard_normal((ch,)).astype(np.float32) if bias else None
        inputs = {"x": x, "w": wt}
        if bias:
            inputs["b"] = b
        exp = ref(x, wt, b, s, p, d, relu)
        isa = isa_of(src, [])
        sw_used = isa is not None and "queue_mode = SW" in isa
        # Lane rows change the queue's columns: the listing differs.
        on = isa_of(src, MODE_ARGS["sw-rows-on"])
        packed += on is not None and on != isa_of(src, MODE_ARGS["sw-rows-off"])
        modes = ["sw"] + (["gemm"] if name in GEMM_CROSSCHECK else [])
        for hw_name, hw in HWS:
            for mode in modes + (["sw-rows-on", "sw-rows-off"] if hw is None else []):
                total += 1
                tag = f"{name} [{hw_name}, depthwise={mode}]"
                outs, err = compile_and_run(BIN, src, work, f"{name}_{hw_name}_{mode}", inputs,
                                            ["y"], hw=hw, compile_args=MODE_ARGS[mode])
                if err:
                    print(f"FAIL {tag}: {err.splitlines()[0]}")
                    failed += 1
                    continue
                got = outs[0].astype(np.float64)
                ok = got.shape == exp.shape and np.allclose(got, exp, rtol=1e-4, atol=1e-4)
                if mode != "gemm" and not sw_used:
                    ok = False
                    print(f"FAIL {tag}: the SW depthwise kernel was not used")
                e = float(np.max(np.abs(got - exp))) if got.shape == exp.shape else float("inf")
                print(f"{'PASS' if ok else 'FAIL'} {tag} (max error {e:.3g})")
                failed += not ok
print(f"lane rows in {packed} of {len(CASES)} cases")
if packed < 5:
    print("FAIL: fewer than 5 cases exercise lane rows")
    failed += 1
print(f"{total - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
