#!/usr/bin/env bash
# Quick start: set up, build, then compile the bundled example CNN
# (examples/small_cnn.onnx) for the default hardware (hw/default.json),
# simulate it, and compare the simulator's output with the numpy reference.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BIN=${BUILD_DIR:-build}/bin
OUT=${OUT_DIR:-build/quickstart}
mkdir -p "$OUT"
echo "== compile examples/small_cnn.onnx for hw/default.json"
"$BIN/accel-compile" examples/small_cnn.onnx --hw hw/default.json -o "$OUT/small_cnn.bin"
"$BIN/accel-translate" --binary-to-isa "$OUT/small_cnn.bin" -o "$OUT/small_cnn.isa.mlir"
echo "   binary: $(stat -c %s "$OUT/small_cnn.bin") bytes; disassembly: $OUT/small_cnn.isa.mlir"
echo "== simulate"
"$BIN/accel-run" "$OUT/small_cnn.bin" --hw hw/default.json \
  --input image=examples/small_cnn_image.npy --output-dir "$OUT" --trace "$OUT/trace.json"
echo "== compare with the numpy reference"
/usr/bin/python3 - "$OUT/logits.npy" examples/small_cnn_expected.npy <<'PY'
import sys, numpy as np
got, exp = np.load(sys.argv[1]), np.load(sys.argv[2])
err = float(np.max(np.abs(got - exp)))
print("logits   :", np.array2string(got.ravel(), precision=4))
print("expected :", np.array2string(exp.ravel(), precision=4))
ok = np.allclose(got, exp, rtol=1e-3, atol=1e-5)
print(f"max abs error {err:.3g} -> {'MATCH' if ok else 'MISMATCH'}")
sys.exit(0 if ok else 1)
PY
echo "Chrome trace (open in Perfetto / chrome://tracing): $OUT/trace.json"
