#!/usr/bin/env bash
# Sets up, builds and runs every test: GoogleTest unit tests and the lit
# suite (dialects, passes, importer, binary, and the ONNX end-to-end tests).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2
