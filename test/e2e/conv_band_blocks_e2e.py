#!/usr/bin/python3
"""End-to-end test of the pixel blocks of the convolution input bands
(docs/mapping.md, "Pixel blocks of the bands"): 3 x 3 convolutions whose
input is larger than all storage units of test/e2e/Inputs/mapping-block16.json
(4 clusters x 512 KiB), so that their bands come from DRAM, compiled with
accel-compile and --conv-band-blocks=true (the default) / false, simulated
with accel-run --strict-hazards and compared with numpy (band_option_e2e.py).
Also checks the decision: with the blocks some band load spans several
output rows of a piece of the rows (a DMA box of 3 dimensions whose rows are
shorter than the padded input's), and the run reads fewer DRAM bytes
(stats.json `dram_bytes_read`) than with pieces of rows. Exits 1 on any
failure.
Usage: conv_band_blocks_e2e.py BIN_DIR"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from band_option_e2e import run_cases  # noqa: E402

# name, input shape, output channels, kernel, stride, pads: a 2.4 MB input of
# 96 columns (tiles of pieces of rows), and a strided one of 150 columns.
CASES = [
    ("conv3x3_96", (1, 64, 96, 96), 32, 3, (1, 1), (1, 1, 1, 1)),
    ("conv3x3_s2_150", (1, 32, 150, 150), 16, 3, (2, 2), (1, 1, 0, 0)),
]


def block_band_loads(case, on, loads):
    """Band loads of several rows of fewer columns than the input: some with
    the blocks, none without."""
    n = sum(rows > 1 and cols < case[1][3] for _, rows, cols in loads)
    return (n > 0 if on else n == 0), f"{n} band loads of blocks"


if __name__ == "__main__":
    sys.exit(run_cases(sys.argv[1], "conv-band-blocks", CASES, block_band_loads, seed=7))
