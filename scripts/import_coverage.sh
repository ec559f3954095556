#!/usr/bin/env bash
# How many models of each ONNX backend suite (Debian's libonnx-testdata)
# accel-import imports without error, with the inputs listed by
# --print-constant-inputs bound to the test's own test_data_set_0/input_N.pb
# (docs/importer.md "Tests"). Import only: the conformance runner
# (ninja -C build check-onnx) compiles and simulates.
# usage: scripts/import_coverage.sh [BIN_DIR] [DATA_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/bin}
DATA=${2:-/usr/share/libonnx-testdata/data}

# The position of graph input NAME among the model's inputs, as the
# input_N.pb files number them (initializers excluded).
input_index() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, onnx
m = onnx.load(sys.argv[1], load_external_data=False)
inits = {i.name for i in m.graph.initializer}
names = [i.name for i in m.graph.input if i.name not in inits]
print(names.index(sys.argv[2]) if sys.argv[2] in names else -1)
PY
}

for suite in node pytorch-converted pytorch-operator simple; do
  ok=0 total=0
  for dir in "$DATA/$suite"/*/; do
    model=$dir/model.onnx
    [ -f "$model" ] || continue
    total=$((total + 1))
    binds=()
    if consts=$("$BIN/accel-import" "$model" --print-constant-inputs 2>/dev/null); then
      for name in $consts; do
        idx=$(input_index "$model" "$name")
        binds+=("--bind=$name=$dir/test_data_set_0/input_$idx.pb")
      done
    fi
    if "$BIN/accel-import" "$model" "${binds[@]+"${binds[@]}"}" >/dev/null 2>&1; then
      ok=$((ok + 1))
    fi
  done
  echo "$suite: $ok of $total import without error"
done
