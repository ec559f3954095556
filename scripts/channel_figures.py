#!/usr/bin/env python3
"""Channel balance and local / remote DRAM bytes of the quick-start CNN
(examples/small_cnn.onnx) under sync=events|barrier x dram-placement=
pieces|channels|linear on the given machines (docs/passes.md, "Channel balance").
Usage: channel_figures.py BIN_DIR HW.json..."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(bin_dir, hw, sync, place, work):
    model = os.path.join(ROOT, "examples", "small_cnn.onnx")
    image = os.path.join(ROOT, "examples", "small_cnn_image.npy")
    b = os.path.join(work, "m.bin")
    subprocess.run([os.path.join(bin_dir, "accel-compile"), model, "-o", b, "--hw", hw,
                    f"--sync={sync}", f"--dram-placement={place}"], check=True)
    out = os.path.join(work, "out")
    subprocess.run([os.path.join(bin_dir, "accel-run"), b, "--hw", hw, "--input",
                    f"image={image}", "--output-dir", out, "--strict-hazards", "--quiet"],
                   check=True)
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f)


def main():
    bin_dir, hws = sys.argv[1], sys.argv[2:]
    print("| machine | sync | placement | cycles | bytes per channel | imbalance | remote |")
    print("|---|---|---|---:|---|---:|---:|")
    with tempfile.TemporaryDirectory() as work:
        for hw in hws:
            for sync in ("barrier", "events"):
                for place in ("linear", "channels", "pieces"):
                    s = run(bin_dir, hw, sync, place, work)
                    ch = [c["bytes"] for c in s["channels"]]
                    mean = sum(ch) / len(ch)
                    imb = (max(ch) - mean) / mean * 100 if mean else 0.0
                    tot = s["dram_local_bytes"] + s["dram_remote_bytes"]
                    rem = s["dram_remote_bytes"] / tot * 100 if tot else 0.0
                    print(f"| {os.path.basename(hw)} | {sync} | {place} | {s['cycles']} | "
                          f"{' / '.join(str(c) for c in ch)} | {imb:.1f} % | {rem:.1f} % |")


if __name__ == "__main__":
    main()
