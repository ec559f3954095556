#!/usr/bin/env bash
# Simulated cycles vs weight sparsity through accel-compile (default
# pipeline): a 4096 x 4096 FC and the ResNet-50 layer3 3x3 convolution,
# weights pruned to 0..90 %, dense vs --sparse-weights=auto, with and
# without --load-balance. Extra arguments go to scripts/sparsity_bench.py
# (--hw FILE, --batch N, --threshold F, --sparsities 0,50,90,
# --conv-sparsities ..., --quick). Needs a build (build/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/python3 scripts/sparsity_bench.py "${BUILD_DIR:-build}/bin" "$@"
