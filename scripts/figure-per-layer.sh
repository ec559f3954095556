#!/usr/bin/env bash
# accel-run's ideal-bound line and --per-layer table for the quick-start CNN
# (examples/small_cnn.onnx) on the default machine: the figure of
# docs/simulator.md ("Per-layer statistics"); run by
# scripts/refresh-figures.sh (figure per-layer-cnn).
# usage: scripts/figure-per-layer.sh [BIN_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/bin}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$BIN/accel-compile" examples/small_cnn.onnx -o "$T/cnn.bin"
# Everything but the host wall time (not reproducible).
"$BIN/accel-run" "$T/cnn.bin" --input image=examples/small_cnn_image.npy \
  --per-layer | grep -v '^simulated in'
