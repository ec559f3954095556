#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs (LLVM/MLIR 22, ONNX,
# GoogleTest, nlohmann_json, Ninja, ccache, Python's numpy/onnx for the
# test runners, pybind11 and pytest / distributed / matplotlib for the Python
# package), configures + builds the project in ./build, points
# /usr/bin/python3 at the build's Python package (accel.pth), and installs
# the model zoo's reference executor (onnxruntime-node from npm, which ships
# its native library: no install script needed) into ./build/ort.
set -euo pipefail
cd "$(dirname "$0")/.."

PKGS=$(cat scripts/debian-packages.txt)
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y $missing
fi

BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR"

# `import accel` from any directory (docs/python.md): a .pth file in
# /usr/bin/python3's site directory points at the build's Python package.
if [ -d "$BUILD_DIR/python/accel" ]; then
  SITE=$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])')
  PTH_LINE=$(cd "$BUILD_DIR/python" && pwd)
  if ! { mkdir -p "$SITE" && echo "$PTH_LINE" >"$SITE/accel.pth"; } 2>/dev/null; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "$PTH_LINE" | $SUDO tee "$SITE/accel.pth" >/dev/null ||
      echo "setup: cannot write $SITE/accel.pth: set PYTHONPATH=$PTH_LINE to import accel" >&2
  fi
fi

# onnxruntime-node for the zoo's reference runs (scripts/zoo/ort_run.js,
# test/e2e/zoo-e2e.test, accel-zoo-bench). Pinned; --ignore-scripts: the
# package's install script only fetches optional GPU providers.
ORT_VERSION=1.30.0
ORT_DIR="$BUILD_DIR/ort"
if ! [ -f "$ORT_DIR/node_modules/onnxruntime-node/package.json" ] ||
  ! grep -q "\"version\": \"$ORT_VERSION\"" "$ORT_DIR/node_modules/onnxruntime-node/package.json"; then
  if ! command -v npm >/dev/null && command -v apt-get >/dev/null; then
    # Debian packages npm apart from nodejs (NodeSource's nodejs bundles it,
    # and conflicts with Debian's npm: only install it when npm is missing).
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y npm || true
  fi
  if command -v npm >/dev/null; then
    mkdir -p "$ORT_DIR"
    [ -f "$ORT_DIR/package.json" ] || echo '{"name": "accel-ort", "private": true}' >"$ORT_DIR/package.json"
    # A registry that cannot be reached must not stop the build: the zoo's
    # reference tests then report as unsupported (lit feature onnxruntime).
    (cd "$ORT_DIR" && npm install --ignore-scripts --no-audit --no-fund "onnxruntime-node@$ORT_VERSION") ||
      echo "setup: npm install onnxruntime-node failed: the zoo's onnxruntime reference tests will be skipped" >&2
  else
    echo "setup: npm not found: the zoo's onnxruntime reference tests will be skipped" >&2
  fi
fi
