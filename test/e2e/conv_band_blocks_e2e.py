#!/usr/bin/python3
"""End-to-end test of the pixel blocks of the convolution input bands
(docs/mapping.md, "Pixel blocks of the bands"): 3 x 3 convolutions whose
input is larger than all storage units of test/e2e/Inputs/mapping-block16.json
(4 clusters x 512 KiB), so that their bands come from DRAM, compiled with
accel-compile and --conv-band-blocks=true (the default) / false, simulated
with accel-run --strict-hazards and compared with numpy. Also checks the
decision: with the blocks some band load spans several output rows of a
piece of the rows (a DMA box of 3 dimensions whose rows are shorter than the
padded input's), and the run reads fewer DRAM bytes (stats.json
`dram_bytes_read`) than with pieces of rows. Exits 1 on any failure.
Usage: conv_band_blocks_e2e.py BIN_DIR"""
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
rng = np.random.default_rng(7)

# name, input shape, output channels, stride, pads: a 2.4 MB input of 96
# columns (tiles of pieces of rows), and a strided one of 150 columns.
CASES = [
    ("conv3x3_96", (1, 64, 96, 96), 32, (1, 1), (1, 1, 1, 1)),
    ("conv3x3_s2_150", (1, 32, 150, 150), 16, (2, 2), (1, 1, 0, 0)),
]


def module(x_shape, w_shape, out_shape, stride, pads):
    attrs = (f"strides = array<i64: {stride[0]}, {stride[1]}>, "
             f"pads = array<i64: {', '.join(map(str, pads))}>")
    return (f"func.func @main(%a: {ty(x_shape)} {{accel.name = \"a\"}}, "
            f"%b: {ty(w_shape)} {{accel.name = \"b\"}}) -> "
            f"({ty(out_shape)} {{accel.name = \"r\"}}) {{\n"
            f"  %r = graph.conv2d %a, %b {{{attrs}}} : ({ty(x_shape)}, {ty(w_shape)})"
            f" -> {ty(out_shape)}\n  return %r : {ty(out_shape)}\n}}\n")


def block_band_loads(binary, in_cols):
    """Band loads (tags 5 / 6) of several rows of fewer columns than the
    input: shape [channels, rows, cols] with rows > 1 and cols < in_cols."""
    isa = subprocess.run([os.path.join(BIN, "accel-translate"), "--binary-to-isa", binary],
                         capture_output=True, text=True).stdout
    n = 0
    for m in re.finditer(r"load tag [56] src \d+ dst \d+ shape \[(\d+), (\d+), (\d+)\] "
                         r"src_strides \[\d+, \d+, 1\]", isa):
        n += int(m.group(2)) > 1 and int(m.group(3)) < in_cols
    return n


def dram_read(work, run):
    with open(os.path.join(work, run + "_out", "stats.json")) as f:
        return json.load(f)["dram_bytes_read"]


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, xs, co, stride, pads in CASES:
            x = rng.standard_normal(xs).astype(np.float32)
            w = rng.standard_normal((co, xs[1], 3, 3)).astype(np.float32)
            ref = conv_ref(x.astype(np.float64), w.astype(np.float64), np.zeros(co),
                           stride, pads, (1, 1), 1)
            src = os.path.join(work, name + ".mlir")
            with open(src, "w") as f:
                f.write(module(xs, w.shape, ref.shape, stride, pads))
            reads = {}
            for blocks in ("true", "false"):
                run = f"{name}_{blocks}"
                ok = check_single_output(BIN, src, work, run, {"a": x, "b": w}, ref,
                                         f"{name} conv-band-blocks={blocks}", hw=HW,
                                         atol=1e-3,
                                         compile_args=[f"--conv-band-blocks={blocks}"])
                n = block_band_loads(os.path.join(work, run + ".bin"), xs[3])
                want = n > 0 if blocks == "true" else n == 0
                print(f"{'PASS' if want else 'FAIL'} {name} conv-band-blocks={blocks}: "
                      f"{n} band loads of blocks")
                reads[blocks] = dram_read(work, run) if ok else 0
                ok = ok and want
                passed += ok
                failed += not ok
            fewer = 0 < reads["true"] < reads["false"]
            print(f"{'PASS' if fewer else 'FAIL'} {name} DRAM bytes read: "
                  f"{reads['true']} with blocks, {reads['false']} without")
            passed += fewer
            failed += not fewer
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
