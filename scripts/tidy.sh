#!/usr/bin/env bash
# Runs clang-tidy-22 (checks in .clang-tidy: MLIR / CIRCT naming rules and
# LLVM checks) over the project's C++ sources, using the compile commands of
# an existing build. Usage: scripts/tidy.sh [FILE...]   (default: lib tools dialects)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
[ -f "$BUILD_DIR/compile_commands.json" ] || { echo "tidy: build first (scripts/setup.sh)" >&2; exit 1; }
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(git ls-files 'lib/*.cpp' 'tools/*.cpp' 'dialects/*.cpp'); fi
status=0
for f in "${files[@]}"; do
  clang-tidy-22 -p "$BUILD_DIR" --quiet "$f" 2>/dev/null || status=1
done
exit $status
