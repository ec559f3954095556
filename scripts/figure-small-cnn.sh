#!/usr/bin/env bash
# Simulated cycles of the quick-start CNN (examples/small_cnn.onnx) on the
# default machine: the default pipeline (select-mapping chooses a mapping
# per layer), the mappings it chooses, and the same pipeline without
# select-mapping (the dealt kernel). Figures of docs/mapping.md ("Tiny
# layers"); run by scripts/refresh-figures.sh (figure quickstart-cnn).
# usage: scripts/figure-small-cnn.sh [BIN_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/bin}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
IN=(--input image=examples/small_cnn_image.npy)

cycles() { # binary -> "cycles: N" line of accel-run
  "$BIN/accel-run" "$1" "${IN[@]}" --output-dir "$T/out" | grep -o 'cycles: [0-9]*'
}

"$BIN/accel-import" examples/small_cnn.onnx >"$T/graph.mlir"
echo "mappings chosen by the default pipeline (op: accel.mapping):"
"$BIN/accel-opt" --convert-tosa-linalg-to-graph --canonicalize --fold-batch-norm \
  --select-tiling --select-mapping "$T/graph.mlir" |
  sed -nE 's/.*(graph\.[a-z0-9_]+).*(accel\.mapping[^}>]*[}>]).*/  \1: \2/p'

"$BIN/accel-compile" examples/small_cnn.onnx -o "$T/default.bin"
echo "default pipeline (accel-compile): $(cycles "$T/default.bin")"

"$BIN/accel-opt" --convert-tosa-linalg-to-graph --canonicalize --fold-batch-norm \
  --select-tiling --convert-graph-to-isa "$T/graph.mlir" -o "$T/dealt.isa.mlir"
"$BIN/accel-translate" --isa-to-binary "$T/dealt.isa.mlir" -o "$T/dealt.bin"
echo "without select-mapping (dealt kernel): $(cycles "$T/dealt.bin")"
