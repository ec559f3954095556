#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs (LLVM/MLIR 22, ONNX,
# GoogleTest, nlohmann_json, Ninja, ccache, Python's numpy/onnx for the
# test runners) and configures + builds the project in ./build.
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
