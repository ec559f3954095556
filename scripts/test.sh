#!/usr/bin/env bash
# Sets up, builds and runs every test: the formatting check, GoogleTest unit
# tests and the lit suite (dialects, passes, importer, binary, and the ONNX
# end-to-end tests, including the strict conformance gate).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/check-format.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2
