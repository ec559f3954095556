#!/usr/bin/env bash
# The FPN detector (real size, default machine) cut into the segments a
# depth-first chain kernel would run: per segment the DRAM bytes its layers
# move today, the sum of their layer-by-layer floors and the chain floor
# with every map inside the segment on chip (scripts/zoo/layer_floor.py
# --segment; docs/passes.md, "What a chain kernel would save"), then where
# the largest layers' DMA bytes go (scripts/zoo/layer_dmas.py). Run by
# scripts/refresh-figures.sh (figure fpn-segments).
#
#   scripts/zoo/fpn_segments.sh [BUILD_BIN] [HW]
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$src/build/bin} hw=${2:-$src/hw/default.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$src/scripts/zoo/make_zoo.py" --size real --out "$work" fpn-textdet >/dev/null
"$bin/accel-compile" "$work/fpn-textdet.onnx" --hw "$hw" --emit=isa -o "$work/fpn.isa"
"$bin/accel-compile" "$work/fpn-textdet.onnx" --hw "$hw" -o "$work/fpn.bin"
"$bin/accel-run" "$work/fpn.bin" --hw "$hw" \
  --input input="$work/fpn-textdet.in.input.npy" --output-dir "$work/out" --quiet >/dev/null
/usr/bin/python3 "$src/scripts/zoo/layer_floor.py" "$work/fpn.isa" "$work/out/stats.json" --top 0 \
  --segment all=. \
  --segment stem='^/(conv1|maxpool)/' \
  --segment layer1='^/layer1/' --segment layer2='^/layer2/' \
  --segment layer3='^/layer3/' --segment layer4='^/layer4/' \
  --segment neck='^/neck/' --segment head='^/head/' \
  --segment neck+head='^/(neck|head)/' \
  --segment stem+layer1='^/(conv1|maxpool|layer1)/'
echo
# Where the largest layers' bytes go (scripts/zoo/layer_dmas.py).
/usr/bin/python3 "$src/scripts/zoo/layer_dmas.py" "$work/fpn.isa" \
  '^/(conv1|maxpool)/|^/neck/(in2_conv|in3_conv|p2_conv)/|^/head/binarize\.0/|^/layer4/layer4\.1/conv2/'
