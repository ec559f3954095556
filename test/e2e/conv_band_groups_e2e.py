#!/usr/bin/python3
"""End-to-end test of the band groups of the convolution input bands
(docs/mapping.md, "Band groups"): convolutions whose N tiles are pieces of
rows (a 7 x 7 stride-2 stem over 3 channels, whose K chunk spans the kernel
rows, so no blocks) and whose input is larger than all storage units of
test/e2e/Inputs/mapping-block16.json (4 clusters x 512 KiB), compiled with
accel-compile --conv-band-groups=true (the default) / false, simulated with
accel-run --strict-hazards and compared with numpy. Also checks the
decision: with the groups some band load holds more rows than one output
row's windows (the kernel's span), none without, and the run reads fewer
DRAM bytes (stats.json `dram_bytes_read`). Exits 1 on any failure.
Usage: conv_band_groups_e2e.py BIN_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import check_single_output, conv_ref, ty  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-block16.json")
rng = np.random.default_rng(11)

# name, input shape, output channels, kernel, stride, pads: a ResNet stem
# on a 2.4 MB input, and one with a bias-free odd width and asymmetric pads.
CASES = [
    ("stem7x7_s2_420", (1, 3, 420, 420), 64, 7, (2, 2), (3, 3, 3, 3)),
    ("stem5x5_s2_430", (1, 3, 430, 430), 64, 5, (2, 2), (2, 1, 2, 1)),
]


def module(x_shape, w_shape, out_shape, stride, pads):
    attrs = (f"strides = array<i64: {stride[0]}, {stride[1]}>, "
             f"pads = array<i64: {', '.join(map(str, pads))}>")
    return (f"func.func @main(%a: {ty(x_shape)} {{accel.name = \"a\"}}, "
            f"%b: {ty(w_shape)} {{accel.name = \"b\"}}) -> "
            f"({ty(out_shape)} {{accel.name = \"r\"}}) {{\n"
            f"  %r = graph.conv2d %a, %b {{{attrs}}} : ({ty(x_shape)}, {ty(w_shape)})"
            f" -> {ty(out_shape)}\n  return %r : {ty(out_shape)}\n}}\n")


def tallest_band_load(binary):
    """The most rows of a band load (tags 5 / 6, shape [channels, rows,
    cols]) in the binary."""
    isa = subprocess.run([os.path.join(BIN, "accel-translate"), "--binary-to-isa", binary],
                         capture_output=True, text=True).stdout
    rows = [int(m.group(1)) for m in re.finditer(
        r"load tag [56] src \d+ dst \d+ shape \[\d+, (\d+), \d+\] "
        r"src_strides \[\d+, \d+, 1\]", isa)]
    return max(rows, default=0)


def dram_read(work, run):
    with open(os.path.join(work, run + "_out", "stats.json")) as f:
        return json.load(f)["dram_bytes_read"]


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, xs, co, k, stride, pads in CASES:
            x = rng.standard_normal(xs).astype(np.float32)
            w = rng.standard_normal((co, xs[1], k, k)).astype(np.float32)
            ref = conv_ref(x.astype(np.float64), w.astype(np.float64), np.zeros(co),
                           stride, pads, (1, 1), 1)
            src = os.path.join(work, name + ".mlir")
            with open(src, "w") as f:
                f.write(module(xs, w.shape, ref.shape, stride, pads))
            reads = {}
            for groups in ("true", "false"):
                run = f"{name}_{groups}"
                ok = check_single_output(BIN, src, work, run, {"a": x, "b": w}, ref,
                                         f"{name} conv-band-groups={groups}", hw=HW,
                                         atol=1e-3,
                                         compile_args=[f"--conv-band-groups={groups}"])
                rows = tallest_band_load(os.path.join(work, run + ".bin"))
                want = rows > k if groups == "true" else 0 < rows <= k
                print(f"{'PASS' if want else 'FAIL'} {name} conv-band-groups={groups}: "
                      f"band loads of up to {rows} rows")
                reads[groups] = dram_read(work, run) if ok else 0
                ok = ok and want
                passed += ok
                failed += not ok
            fewer = 0 < reads["true"] < reads["false"]
            print(f"{'PASS' if fewer else 'FAIL'} {name} DRAM bytes read: "
                  f"{reads['true']} with groups, {reads['false']} without")
            passed += fewer
            failed += not fewer
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
