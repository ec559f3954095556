#!/usr/bin/env bash
# Re-runs the command behind every figure in docs/ and README.md and writes
# each one's output to $OUT/<name>.txt (default build/figures/). Each figure
# in the docs names its command and its figure name here.
#
#   scripts/refresh-figures.sh [--quick] [--check] [--list] [NAME...]
#
#   (none)    every figure, including the long simulated benchmarks
#             (about 40 min on one free core; the longest single one is the
#             88-shape tiling benchmark, ~7 min, run twice)
#   --quick   only the cheap figures (about 4 min on a free core)
#   NAME...   only these figures (see --list)
#   --check   after running, compare the docs' verbatim tables with the
#             fresh output (scripts/check_figures.py); with --check-only
#             compare against the existing output without re-running
#   --list    print name, class (quick / full) and command of every figure
#
# After a change that moves the figures, scripts/update_figures.py FIGURES_DIR
# [NAME...] rewrites the docs' verbatim blocks from the fresh output (rows
# matched by their text without the numbers; {{REGEX}} parts kept) and names
# the lines it could not place; then run --check-only.
#
# Needs a build (BUILD_DIR, default build) and Debian's /usr/bin/python3
# (numpy, onnx). Figures run one at a time: the benchmarks measure cycles,
# not wall time, except the selection-time columns of `tile-model`.
set -euo pipefail
set -f # commands are word lists, never globbed (gtest filters contain *)
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
BIN=$BUILD_DIR/bin
OUT=${FIGURES_DIR:-$BUILD_DIR/figures}
PY=/usr/bin/python3
STARVED=hw/bandwidth-starved.json

# name | class | command (run from the repository root, $BIN = build/bin)
FIGURES=(
  "depthwise|quick|$PY scripts/depthwise_figures.py $BIN hw/default.json $STARVED"
  "rq-conv|quick|$PY scripts/rq_conv_figures.py $BIN hw/default.json $STARVED"
  "sim-bench|quick|$BIN/accel-sim-bench"
  "quickstart-cnn|quick|scripts/figure-small-cnn.sh $BIN"
  "per-layer-cnn|quick|scripts/figure-per-layer.sh $BIN"
  "tile-agreement|quick|$BIN/accel-unittests --gtest_filter=TilingSimAgreement*:TilingExhaustive.NeverWorseThanSelectionOnRandomShapes"
  "tile-matmul|quick|$PY scripts/tile_matmul_figures.py $BIN"
  "tile-model|quick|$BIN/accel-tile-bench --summary-only"
  "split-bench|quick|$BIN/accel-split-bench"
  "zoo-quick|quick|$BIN/accel-zoo-bench --quick"
  "multinet-quick|quick|$BIN/accel-multinet-bench --quick"
  "rnn-quick|quick|$BIN/accel-rnn-bench --quick"
  "tile-sim-1e8|quick|$BIN/accel-tile-bench --simulate --max-macs 1e8"
  "tile-sim-2e9|quick|$BIN/accel-tile-bench --simulate --max-macs 2e9"
  "tile-machine-search|quick|$BIN/accel-tile-bench --machine-search --max-macs 1e11 --max-steps 300000"
  "tile-sim-refine-2e9|quick|$BIN/accel-tile-bench --simulate --refine --max-macs 2e9"
  "tile-sim-1e10|full|$BIN/accel-tile-bench --simulate --max-macs 1e10"
  "tile-sim-1e11|full|$BIN/accel-tile-bench --simulate --max-macs 1e11"
  "tile-sim-refine-1e11|full|$BIN/accel-tile-bench --simulate --refine --max-macs 1e11"
  "sparsity|full|scripts/sparsity-bench.sh --sparsities 0,30,50,60,70,80,90 --conv-sparsities 0,30,50,60,70,80,90"
  "import-coverage|full|scripts/import_coverage.sh $BIN"
  "mapping-default-b1|full|$BIN/accel-mapping-bench --max-macs 2.5e8 --all"
  "mapping-starved-b1|full|$BIN/accel-mapping-bench --hw $STARVED --max-macs 2.5e8"
  "mapping-large-b1|full|$BIN/accel-mapping-bench --hw hw/large.json --max-macs 2.5e8"
  "mapping-default-b8|full|$BIN/accel-mapping-bench --batch 8 --max-macs 1.2e9"
  "mapping-starved-b8|full|$BIN/accel-mapping-bench --hw $STARVED --batch 8 --max-macs 1.2e9"
  "zoo|full|$BIN/accel-zoo-bench"
  "fpn-segments|full|scripts/zoo/fpn_segments.sh $BIN"
  "multinet|full|$BIN/accel-multinet-bench"
  "python-bench|full|$PY scripts/python_bench.py"
)

# Everything runs inside main, so bash has parsed the whole file before any
# figure starts: editing this script while a long run is going is safe.
main() {
  quick=0 check=0 run=1 list=0
  names=()
  for a in "$@"; do
    case "$a" in
    --quick) quick=1 ;;
    --check) check=1 ;;
    --check-only) check=1 run=0 ;;
    --list) list=1 ;;
    -h | --help)
      sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'
      exit 0
      ;;
    -*)
      echo "refresh-figures: unknown option $a" >&2
      exit 2
      ;;
    *) names+=("$a") ;;
    esac
  done

  known() {
    local n=$1 f
    for f in "${FIGURES[@]}"; do [ "${f%%|*}" = "$n" ] && return 0; done
    return 1
  }
  for n in "${names[@]+"${names[@]}"}"; do
    known "$n" || {
      echo "refresh-figures: no figure named '$n' (see --list)" >&2
      exit 2
    }
  done

  selected() {
    local name=$1 class=$2 n
    if [ ${#names[@]} -gt 0 ]; then
      for n in "${names[@]}"; do [ "$n" = "$name" ] && return 0; done
      return 1
    fi
    [ $quick = 0 ] || [ "$class" = quick ]
  }

  if [ $list = 1 ]; then
    for f in "${FIGURES[@]}"; do
      IFS='|' read -r name class cmd <<<"$f"
      printf '%-24s %-6s %s\n' "$name" "$class" "$cmd"
    done
    exit 0
  fi

  failed=0
  if [ $run = 1 ]; then
    [ -x "$BIN/accel-compile" ] || {
      echo "refresh-figures: no build in $BUILD_DIR (build first)" >&2
      exit 2
    }
    mkdir -p "$OUT"
    for f in "${FIGURES[@]}"; do
      IFS='|' read -r name class cmd <<<"$f"
      selected "$name" "$class" || continue
      start=$(date +%s)
      printf '%-24s ' "$name"
      # shellcheck disable=SC2086
      if $cmd >"$OUT/$name.txt.tmp" 2>"$OUT/$name.err"; then
        mv "$OUT/$name.txt.tmp" "$OUT/$name.txt"
        echo "ok ($(($(date +%s) - start)) s) -> $OUT/$name.txt"
      else
        mv "$OUT/$name.txt.tmp" "$OUT/$name.txt"
        echo "FAILED ($(($(date +%s) - start)) s), see $OUT/$name.err"
        failed=1
      fi
    done
  fi

  if [ $check = 1 ]; then
    check_args=()
    for f in "${FIGURES[@]}"; do
      IFS='|' read -r name class cmd <<<"$f"
      selected "$name" "$class" && check_args+=("$name")
    done
    $PY scripts/check_figures.py "$OUT" "${check_args[@]}" || failed=1
  fi
  exit $failed
}

main "$@"
