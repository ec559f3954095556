#!/usr/bin/env bash
# Sets up, builds and runs every test (what CI runs, .ci/run):
#   1. the formatting check (clang-format-22, scripts/check-format.sh);
#   2. the normal build's CTest: GoogleTest unit tests, the lit suite
#      (dialects, passes, importer, binary, ONNX end-to-end scripts), the
#      strict ONNX conformance gate and the generated-docs check;
#   3. the docs' cheap verbatim figures re-run and compared (refresh-figures);
#   4. the sanitizer configuration (ASan + UBSan, clang-22, build-asan):
#      unit, lit, fuzz regression replays and a sample of ONNX tests;
#   5. a fuzz smoke run of each libFuzzer harness (fixed seed and count);
#   6. ThreadSanitizer on the simulator's data lanes (build-tsan).
# SKIP_SANITIZE=1 skips 4 to 6 (a quick local run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/check-format.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2
scripts/refresh-figures.sh --check depthwise rq-conv quickstart-cnn tile-agreement tile-matmul per-layer-cnn
if [ -z "${SKIP_SANITIZE:-}" ]; then
  scripts/sanitize.sh
  scripts/fuzz.sh --smoke
  scripts/tsan.sh
fi
