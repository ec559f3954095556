#!/usr/bin/env bash
# ThreadSanitizer on the simulator's data lanes (docs/simulator.md, "Eighth
# round"): accel-run alone, built with clang-22 -fsanitize=thread in
# build-tsan, runs the zoo's small models on the default machine and on
# hw/large.json with --data-lanes 1, 2 and 5 (test/e2e/data_lanes_e2e.py:
# outputs and stats.json identical); any race report fails the run. The
# models are compiled by the normal build's accel-compile.
#
#   scripts/tsan.sh            configure, build (-j2) and run
#   BUILD_DIR=dir TSAN_DIR=dir JOBS=n scripts/tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
B="${BUILD_DIR:-build}"
T="${TSAN_DIR:-build-tsan}"
JOBS="${JOBS:-2}"

CC=clang-22 CXX=clang++-22 cmake -S . -B "$T" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS=-fsanitize=thread \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
  -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >/dev/null
ninja -C "$T" -j"$JOBS" accel-run

# accel-compile from the normal build, accel-run from this one.
BIN="$T/mixed-bin"
mkdir -p "$BIN"
ln -sf "$(cd "$B/bin" && pwd)/accel-compile" "$BIN/accel-compile"
ln -sf "$(cd "$T/bin" && pwd)/accel-run" "$BIN/accel-run"

export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:exitcode=66}"
for hw in default large; do
  /usr/bin/python3 test/e2e/data_lanes_e2e.py "$BIN" . "hw/$hw.json"
done
