// split-strategy balance-clusters (the default pipeline's): parallel=best
// compares the modes with rounding's pieces, then cuts the chosen mode again
// with rounding=clusters (one piece per core, the cluster shares balanced
// first) and takes that cut when the cost model prices the op compute-bound
// and the balanced partition cheaper. docs/labels-and-splits.md, "Split
// strategy and mapping: one decision".
// RUN: accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy="parallel=best print=true balance-clusters=true" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PRICE
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy="parallel=best balance-clusters=true" %s | FileCheck %s --check-prefix=BAL
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy="parallel=best" %s | FileCheck %s --check-prefix=CEIL
// RUN: accel-opt --accel-hw=%hw_dir/default.json --accel-default-pipeline=entry=res2_reduce --mlir-print-ir-after=split-strategy %s 2>&1 >/dev/null | FileCheck %s --check-prefix=DEF

// res2_1x1_256-64 of ResNet-50: H = 56 rows over 16 cores. Ceil cuts 14
// pieces of 4 rows, dealt 4 / 3 / 4 / 3 to the clusters (16 / 12 / 16 / 12
// rows); the balanced cut gives every cluster 14 rows (4 + 4 + 3 + 3).
// Measured (accel-split-bench): 72173 -> 64459 cycles on 16 cores.
// PRICE: remark: parallel=best: data 68884 model 110690 hybrid 110690, clusters 60784 -> data
// BAL-LABEL: func.func @res2_reduce
// BAL-SAME: split_dim = "h", ranges = [(0, 3), (4, 7), (8, 10), (11, 13), (14, 17), (18, 21), (22, 24), (25, 27), (28, 31), (32, 35), (36, 38), (39, 41), (42, 45), (46, 49), (50, 52), (53, 55)]
// BAL: accel.mapping = #accel.mapping<{{.*}}ranges = [0, 784, 1568, 2352, 3136], array = [N, N]
// DEF: accel.mapping = #accel.mapping<ranges = [0, 784, 1568, 2352, 3136], array = [N, N]>
// CEIL-LABEL: func.func @res2_reduce
// CEIL-SAME: split_dim = "h", ranges = [(0, 3), (4, 7), (8, 11), (12, 15), (16, 19), (20, 23), (24, 27), (28, 31), (32, 35), (36, 39), (40, 43), (44, 47), (48, 51), (52, 55)]
// CEIL: accel.mapping = #accel.mapping<ranges = [0, 896, 1568, 2464, 3136], array = [N, N]>
func.func @res2_reduce(%x: tensor<1x256x56x56xf32>, %w: tensor<64x256x1x1xf32>, %b: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x256x56x56xf32>, tensor<64x256x1x1xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}

// res2_1x1_64-64: the cost model prices it channel-bound (the DMA, not the
// PEs, sets its time), so the cluster balance of the PEs does not pay and
// the Ceil cut stays (measured: the balanced cut ran 25682 -> 27058).
// PRICE: remark: parallel=best: data 22413 model 33120 hybrid 33120 -> data
// BAL-LABEL: func.func @res2_same
// BAL: accel.mapping = #accel.mapping<{{.*}}ranges = [0, 896, 1568, 2464, 3136], array = [N, N]
func.func @res2_same(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x1x1xf32>, %b: tensor<64xf32>) -> tensor<1x64x56x56xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x64x56x56xf32>, tensor<64x64x1x1xf32>, tensor<64xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}
