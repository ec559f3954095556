#!/usr/bin/env bash
# Runs the libFuzzer harnesses of test/fuzz (binary, onnx, hardware, mlir),
# one at a time, single worker, from their seed corpora.
#
#   scripts/fuzz.sh [--smoke|--full] [NAME...]
#     --smoke  (default; CI) each harness for a fixed number of executions
#              with a fixed seed (-seed=1, no fork), about 30 s each here:
#              binary/hardware 300000, onnx/mlir 10000 (SMOKE_RUNS overrides);
#              the same commit gives the same run, so CI is not flaky
#     --full   each harness for 10^6 executions (-runs=1000000)
#
# Uses (and, if needed, configures and builds) the sanitizer build
# BUILD_DIR (build-asan, -DACCEL_FUZZ=ON). Work files go to
# BUILD_DIR/fuzz/<name>/: the grown corpus (corpus/) and the artifacts of
# crashes, out-of-memory and timeouts. Fork mode (-fork=1) keeps a harness
# running past a finding, so one run counts them all. Prints per harness the
# executions run, crashes / ooms / timeouts found and the final corpus size;
# exits 1 if any harness found something. Every finding belongs in
# test/fuzz/regressions/<name>/ (replayed by the CTest fuzz-<name>).
set -euo pipefail
cd "$(dirname "$0")/.."
B="${BUILD_DIR:-build-asan}"
MODE=--smoke
NAMES=()
for a in "$@"; do
  case "$a" in
    --smoke|--full) MODE="$a" ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | grep '^#'; exit 0 ;;
    *) NAMES+=("$a") ;;
  esac
done
[ ${#NAMES[@]} -eq 0 ] && NAMES=(binary onnx hardware mlir)

if [ ! -f "$B/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -S . -B "$B" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DACCEL_FUZZ=ON >/dev/null
fi
ninja -C "$B" -j"${JOBS:-2}" $(printf 'fuzz-%s ' "${NAMES[@]}") >/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}"

smoke_runs() {
  case "$1" in
    binary|hardware) echo "${SMOKE_RUNS:-300000}" ;;
    *) echo "${SMOKE_RUNS:-10000}" ;;
  esac
}

status=0
printf '%-9s %12s %8s %8s %6s %8s %8s\n' fuzzer executions crashes ooms timeouts corpus seconds
for name in "${NAMES[@]}"; do
  work="$B/fuzz/$name"
  mkdir -p "$work/corpus" "$work/artifacts"
  rm -f "$work"/artifacts/*
  seeds=(test/fuzz/corpus/"$name")
  [ -d test/fuzz/regressions/"$name" ] && seeds+=(test/fuzz/regressions/"$name")
  start=$(date +%s)
  if [ "$MODE" = --full ]; then
    RUN=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1
         -runs=1000000)
  else
    rm -rf "$work/corpus" && mkdir -p "$work/corpus"
    RUN=(-seed=1 -runs="$(smoke_runs "$name")" -print_final_stats=1)
  fi
  "$B/bin/fuzz-$name" "${RUN[@]}" -rss_limit_mb=2560 -timeout=25 \
    -artifact_prefix="$work/artifacts/" "$work/corpus" "${seeds[@]}" \
    >"$work/log" 2>&1 || true
  secs=$(( $(date +%s) - start ))
  # Fork-mode status lines: "#<execs>: cov: .. corp: <n> .. oom/timeout/crash: a/b/c .."
  # (non-fork mode: "stat::number_of_executed_units: <n>").
  last=$(grep -E '^#[0-9]+: cov:' "$work/log" | tail -1 || true)
  execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$last")
  if [ "$MODE" = --smoke ]; then
    execs=$(grep -oE 'number_of_executed_units: [0-9]+' "$work/log" |
      grep -oE '[0-9]+' || true)
  fi
  crashes=$(find "$work/artifacts" -name 'crash-*' | wc -l)
  ooms=$(find "$work/artifacts" -name 'oom-*' | wc -l)
  timeouts=$(find "$work/artifacts" -name 'timeout-*' | wc -l)
  corpus=$(find "$work/corpus" -type f | wc -l)
  printf '%-9s %12s %8s %8s %6s %8s %8s\n' "$name" "${execs:-?}" "$crashes" \
    "$ooms" "$timeouts" "$corpus" "$secs"
  if [ $((crashes + ooms + timeouts)) -gt 0 ]; then
    status=1
    find "$work/artifacts" -type f | sed 's/^/  finding: /'
  fi
done
exit $status
