#!/usr/bin/env bash
# The sanitizer configuration: AddressSanitizer + UndefinedBehaviorSanitizer
# (clang-22, -DACCEL_SANITIZE=ON via -DACCEL_FUZZ=ON, which also builds the
# libFuzzer harnesses) in build-asan. Runs the unit tests, the lit tests, the
# fuzz regression replays (CTest fuzz-*) and a sample of the ONNX
# conformance tests; any sanitizer report fails the run.
#
#   scripts/sanitize.sh            configure, build (-j2) and test
#   BUILD_DIR=dir JOBS=n scripts/sanitize.sh
set -euo pipefail
cd "$(dirname "$0")/.."
B="${BUILD_DIR:-build-asan}"
JOBS="${JOBS:-2}"

CC=clang-22 CXX=clang++-22 cmake -S . -B "$B" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DACCEL_FUZZ=ON >/dev/null
ninja -C "$B" -j"$JOBS"

# Any report is an error; stacks are symbolised (llvm-symbolizer-22).
# allow_user_poisoning=0: see test/fuzz/AsanDefaults.cpp (LLVM's inline
# BumpPtrAllocator poisons memory that uninstrumented libMLIR never unpoisons).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allow_user_poisoning=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}"

# Unit tests, lit tests (dialects, passes, importer, binary, e2e scripts) and
# the replay of every fuzz seed and regression input.
ctest --test-dir "$B" --output-on-failure -j"$JOBS" -E onnx-conformance

# A sample of the ONNX backend tests: import, compile, simulate, compare.
# (Without --expected the runner fails on any failing test.)
/usr/bin/python3 test/e2e/onnx_node_runner.py --bin-dir "$B/bin" --suite node \
  --filter test_relu --filter test_add --filter test_matmul_2d \
  --filter test_gemm_default_no_bias --filter test_basic_conv_with_padding \
  --filter test_maxpool_2d_default --filter test_softmax_example \
  --filter test_lstm_defaults --filter test_averagepool_2d_default \
  --filter test_transpose_default
