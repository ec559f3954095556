"""Shared driver of the end-to-end tests of one input-band option
(conv_band_blocks_e2e.py: --conv-band-blocks, conv_band_groups_e2e.py:
--conv-band-groups; docs/mapping.md). Each case is a bias-free graph.conv2d
(e2e_common.conv_module) whose input is larger than all storage units of
test/e2e/Inputs/mapping-block16.json (4 clusters x 512 KiB), so that its
bands come from DRAM. It is compiled with the option true and false,
simulated with accel-run --strict-hazards and compared with numpy; the
test's `band_check` judges the band loads (tags 5 / 6) of each binary, and
the run with the option must read fewer DRAM bytes (stats.json
`dram_bytes_read`). Prints PASS / FAIL per check and the totals; returns the
process exit code."""
import json
import os
import re
import subprocess
import tempfile

import numpy as np

from e2e_common import check_run, conv_module, conv_ref

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HW = os.path.join(SRC, "test", "e2e", "Inputs", "mapping-block16.json")


def band_loads(bin_dir, binary):
    """(channels, rows, cols) of every band load (tags 5 / 6) of the binary
    whose source box is [channels, rows, cols] of unit column stride."""
    isa = subprocess.run([os.path.join(bin_dir, "accel-translate"), "--binary-to-isa", binary],
                         capture_output=True, text=True).stdout
    return [tuple(int(g) for g in m.groups()) for m in re.finditer(
        r"load tag [56] src \d+ dst \d+ shape \[(\d+), (\d+), (\d+)\] "
        r"src_strides \[\d+, \d+, 1\]", isa)]


def dram_read(work, run):
    with open(os.path.join(work, run + "_out", "stats.json")) as f:
        return json.load(f)["dram_bytes_read"]


def run_cases(bin_dir, option, cases, band_check, seed):
    """`cases`: (name, input shape, output channels, kernel, stride, pads);
    `band_check(case, on, loads)` -> (ok, description) for the band loads of
    the run with `--OPTION=true` (on) or false."""
    rng = np.random.default_rng(seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for case in cases:
            name, xs, co, k, stride, pads = case
            src_text, _, ws = conv_module(xs[0], xs[1], co, xs[2], xs[3], k, k, stride, pads,
                                          (1, 1), 1, False, False)
            x = rng.standard_normal(xs).astype(np.float32)
            w = rng.standard_normal(ws).astype(np.float32)
            ref = conv_ref(x.astype(np.float64), w.astype(np.float64), np.zeros(co),
                           stride, pads, (1, 1), 1)
            src = os.path.join(work, name + ".mlir")
            with open(src, "w") as f:
                f.write(src_text)
            reads = {}
            for on in (True, False):
                value = "true" if on else "false"
                run = f"{name}_{value}"
                ok = check_run(bin_dir, src, work, run, {"x": x, "w": w}, "y", ref,
                               f"{name} {option}={value}", hw=HW, atol=1e-3,
                               compile_args=[f"--{option}={value}"])
                want, what = band_check(case, on,
                                        band_loads(bin_dir, os.path.join(work, run + ".bin")))
                print(f"{'PASS' if want else 'FAIL'} {name} {option}={value}: {what}")
                reads[on] = dram_read(work, run) if ok else 0
                ok = ok and want
                passed += ok
                failed += not ok
            fewer = 0 < reads[True] < reads[False]
            print(f"{'PASS' if fewer else 'FAIL'} {name} DRAM bytes read: "
                  f"{reads[True]} with {option}, {reads[False]} without")
            passed += fewer
            failed += not fewer
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
