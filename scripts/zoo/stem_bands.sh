#!/bin/bash
# The FPN detector's stem (conv1 7x7 stride 2, 3 -> 64 channels, ReLU, max
# pool 3x3 stride 2, at 640 x 640) compiled whole and cut into K row bands
# by depth-first-rows{halos slices=K} under a split-strategy mode, then run;
# prints cycles, DRAM bytes and, per op kind, the bands' exclusive cycles
# and DRAM bytes (docs/passes.md, "depth-first-rows", "Where the halo bands'
# time goes").
#
#   scripts/zoo/stem_bands.sh BUILD_BIN WORK K [data|model|best]
#   (K = 0: the whole layers)
set -euo pipefail
bin=$1 work=$2 k=$3 mode=${4:-best}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"
/usr/bin/python3 - "$work" <<'EOF'
import sys
import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh
work, H = sys.argv[1], 640
rng = np.random.default_rng(0)
w = nh.from_array((rng.standard_normal((64, 3, 7, 7)) * 0.1).astype(np.float32), "w")
b = nh.from_array((rng.standard_normal(64) * 0.1).astype(np.float32), "b")
nodes = [
    h.make_node("Conv", ["input", "w", "b"], ["c"], name="/conv1/Conv",
                kernel_shape=[7, 7], strides=[2, 2], pads=[3, 3, 3, 3]),
    h.make_node("Relu", ["c"], ["r"], name="/relu/Relu"),
    h.make_node("MaxPool", ["r"], ["output"], name="/maxpool/MaxPool",
                kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
]
g = h.make_graph(nodes, "stem", [h.make_tensor_value_info("input", T.FLOAT, [1, 3, H, H])],
                 [h.make_tensor_value_info("output", T.FLOAT, [1, 64, H // 4, H // 4])], [w, b])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
m.ir_version = 8
onnx.save(m, f"{work}/stem.onnx")
np.save(f"{work}/stem.in.npy", rng.standard_normal((1, 3, H, H)).astype(np.float32))
EOF
"$bin/accel-import" "$work/stem.onnx" -o "$work/stem.mlir"
halos=false
[ "$k" != 0 ] && halos=true
"$bin/accel-opt" --accel-hw="$src/hw/default.json" "$work/stem.mlir" \
  --convert-tosa-linalg-to-graph --canonicalize --fold-batch-norm --fuse-layers \
  --depth-first-channels "--depth-first-rows=halos=$halos slices=$k" \
  --select-tiling --tensor-labeling \
  "--split-strategy=parallel=$mode rounding=clusters balance-clusters=true" \
  --select-mapping --convert-graph-to-isa -o "$work/stem.$k.isa.mlir"
"$bin/accel-translate" --isa-to-binary "$work/stem.$k.isa.mlir" -o "$work/stem.$k.bin"
"$bin/accel-run" "$work/stem.$k.bin" --input "input=$work/stem.in.npy" \
  --output-dir "$work/out.$k" | grep -E '^cycles:|^DRAM:'
"$bin/accel-run" "$work/stem.$k.bin" --input "input=$work/stem.in.npy" \
  --output-dir "$work/out.$k" --quiet --per-layer |
  awk 'NR > 1 {
         for (i = 1; i <= NF; i++)
           if ($i ~ /^(graph\.|Conv$|MaxPool$)/) { op = $i; ex = $(i + 3); dram = $(i + 6) }
         n[op]++; e[op] += ex; d[op] += dram
       }
       END { for (o in n) printf "%-13s %4d layers  exclusive %9d cycles  DRAM %6.1f MB\n", o, n[o], e[o], d[o] / 1e6 }' |
  sort
