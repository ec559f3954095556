#!/usr/bin/python3
"""End-to-end test of the band groups of the convolution input bands
(docs/mapping.md, "Band groups"): convolutions whose N tiles are pieces of
rows (a 7 x 7 stride-2 stem over 3 channels, whose K chunk spans the kernel
rows, so no blocks) and whose input is larger than all storage units of
test/e2e/Inputs/mapping-block16.json (4 clusters x 512 KiB), compiled with
accel-compile --conv-band-groups=true (the default) / false, simulated with
accel-run --strict-hazards and compared with numpy (band_option_e2e.py).
Also checks the decision: with the groups some band load holds more rows
than one output row's windows (the kernel's span), none without, and the run
reads fewer DRAM bytes (stats.json `dram_bytes_read`). Exits 1 on any
failure.
Usage: conv_band_groups_e2e.py BIN_DIR"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from band_option_e2e import run_cases  # noqa: E402

# name, input shape, output channels, kernel, stride, pads: a ResNet stem on
# a 2.1 MB input, and a 5 x 5 one with asymmetric pads and an odd width.
CASES = [
    ("stem7x7_s2_420", (1, 3, 420, 420), 64, 7, (2, 2), (3, 3, 3, 3)),
    ("stem5x5_s2_430", (1, 3, 430, 430), 64, 5, (2, 2), (2, 1, 2, 1)),
]


def group_band_loads(case, on, loads):
    """The tallest band load: more rows than the kernel with the groups, at
    most the kernel (and some band) without."""
    k = case[3]
    rows = max((r for _, r, _ in loads), default=0)
    return (rows > k if on else 0 < rows <= k), f"band loads of up to {rows} rows"


if __name__ == "__main__":
    sys.exit(run_cases(sys.argv[1], "conv-band-groups", CASES, group_band_loads, seed=11))
