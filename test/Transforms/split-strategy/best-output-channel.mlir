// parallel=best prices an N (output rows) split whose clusters each write
// all output channels with one M tile as storing the whole output on one
// memory channel: the clusters' boxes interleave in every output channel,
// so DRAM placement keeps the output one piece (docs/mapping.md,
// "Interleaved output stores"). res2_1x1_64-256 of ResNet-50: without that
// rule data was priced 72016 and chosen, and ran 75533 cycles on 16 cores
// (4.0M / 0.8M bytes per channel); the model split runs 65077.
// RUN: accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy="parallel=best print=true" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PRICE
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy=parallel=best %s | FileCheck %s --check-prefix=BEST

// PRICE: remark: parallel=best: data 70988 model 62500 hybrid 62500 -> model
// BEST: graph.conv2d
// BEST-SAME: accel.mapping = #accel.mapping<ranges = [0, 64, 128, 192, 256], array = [M, M]>
// BEST-SAME: accel.parallel = "model"
func.func @res2_expand(%x: tensor<1x64x56x56xf32>, %w: tensor<256x64x1x1xf32>, %b: tensor<256xf32>) -> tensor<1x256x56x56xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x64x56x56xf32>, tensor<256x64x1x1xf32>, tensor<256xf32>) -> tensor<1x256x56x56xf32>
  return %y : tensor<1x256x56x56xf32>
}
