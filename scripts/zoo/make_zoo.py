#!/usr/bin/python3
"""Writes the model zoo: DIR/<name>.onnx and its deterministic input(s)
DIR/<name>.in.<input>.npy, for every named model (default: all).

  /usr/bin/python3 scripts/zoo/make_zoo.py --size small|real --out DIR [NAMES...]
  /usr/bin/python3 scripts/zoo/make_zoo.py --list

`small` is the CI size (few channels, small images: seconds to simulate),
`real` the benchmark size (224x224 ImageNet models, BERT seq 128 hidden 768,
...). The same command always writes the same bytes (fixed seeds)."""
import argparse
import os
import sys

import numpy as np
import onnx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo_models import MODELS, input_data  # noqa: E402


def write_model(name, size, out_dir):
    """Writes one model and its inputs; returns (onnx path, {input: npy path})."""
    model, inputs = MODELS[name](size)
    path = os.path.join(out_dir, f"{name}.onnx")
    onnx.save(model, path)
    files = {}
    for n, a in input_data(inputs).items():
        files[n] = os.path.join(out_dir, f"{name}.in.{n}.npy")
        np.save(files[n], a)
    return path, files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", choices=["small", "real"], default="small")
    ap.add_argument("--out", help="output directory (created)")
    ap.add_argument("--list", action="store_true", help="print the model names")
    ap.add_argument("names", nargs="*", metavar="NAME")
    a = ap.parse_args()
    if a.list:
        print("\n".join(MODELS))
        return 0
    if not a.out:
        ap.error("--out DIR is required")
    unknown = [n for n in a.names if n not in MODELS]
    if unknown:
        ap.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    os.makedirs(a.out, exist_ok=True)
    for name in a.names or list(MODELS):
        path, _ = write_model(name, a.size, a.out)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
