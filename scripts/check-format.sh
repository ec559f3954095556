#!/usr/bin/env bash
# Fails when any tracked C++ file differs from `clang-format-22` (LLVM style,
# .clang-format at the root). To fix: scripts/check-format.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."
CF=${CLANG_FORMAT:-clang-format-22}
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cc')
if [ "${1:-}" = "--fix" ]; then
  "$CF" -i "${files[@]}"
  exit 0
fi
"$CF" --dry-run --Werror "${files[@]}"
echo "check-format: ${#files[@]} files formatted"
