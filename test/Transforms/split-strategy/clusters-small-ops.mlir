// rounding=clusters (the default pipeline's) cuts one piece per core with
// the clusters' shares balanced first, except for an op of fewer than
// 200 000 multiply-adds, which keeps the spec's ceil pieces
// (docs/labels-and-splits.md, "Passes" step 7): about 200 cycles of MACs on
// the whole machine, whose time is load latency. Data parallel over 7 rows
// (49 pixels) in 16 core pieces: ceil gives clusters 0 and 2 four and three
// rows, clusters 1 and 3 none; balanced, 2, 2, 2, 1 rows.
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy="parallel=data rounding=clusters" %s | FileCheck %s
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy="parallel=data rounding=ceil" %s | FileCheck %s --check-prefix=CEIL

// 4 x 8 x 3 x 3 x 49 = 14 112 multiply-adds: ceil pieces either way.
// CHECK-LABEL: func.func @small
// CHECK: accel.mapping = #accel.mapping<ranges = [0, 28, 28, 49, 49], array = [N, N]>
// CEIL-LABEL: func.func @small
// CEIL: accel.mapping = #accel.mapping<ranges = [0, 28, 28, 49, 49], array = [N, N]>
func.func @small(%x: tensor<1x8x7x7xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x7x7xf32> {
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x7x7xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x7x7xf32>
  return %y : tensor<1x4x7x7xf32>
}

// 64 x 64 x 3 x 3 x 49 = 1 806 336 multiply-adds: balanced.
// CHECK-LABEL: func.func @large
// CHECK: accel.mapping = #accel.mapping<ranges = [0, 14, 28, 42, 49], array = [N, N]>
// CEIL-LABEL: func.func @large
// CEIL: accel.mapping = #accel.mapping<ranges = [0, 28, 28, 49, 49], array = [N, N]>
func.func @large(%x: tensor<1x64x7x7xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x7x7xf32> {
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x7x7xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x7x7xf32>
  return %y : tensor<1x64x7x7xf32>
}
