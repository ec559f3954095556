// conv_transpose2d with non-overlapping taps (stride > dilation * (kernel -
// 1)): one GEMM per input row, [W pixels x C] x [C x O*KH*KW] (the weight
// as stored), its C tile stored to the strided output positions
// (depth-to-space addressing in the store DMA): no zero-stuffed input, no
// weight flip, one layer, the real MACs. x at 0, w at 128, b at 320, y at
// 384 (elements: y row stride 6, channel stride 24).
// RUN: accel-opt %s -split-input-file --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s

// CHECK-LABEL: isa.program
// CHECK: #isa.layer<name = "{{.*}}", op = "graph.conv_transpose2d", macs = 288,
// CHECK-NOT: #isa.layer
// CHECK: isa.data at [[ONE:[0-9]+]] = dense<1.000000e+00> : tensor<1xf32>
// CHECK: isa.cluster(0, 0)
// A = input row 0 transposed (pixel stride 1, channel stride H*W = 6);
// B = the [4, 12] weight; then the bias as one more K step: a column of
// ones (one f32 constant, zero row stride) times the bias row (bias[o]
// for each tap), instead of a C-sized initial-value tile.
// CHECK: isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [3, 4] src_strides [1, 6]
// CHECK-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [4, 12] src_strides [12, 1]
// CHECK: isa.dma load tag 1 src [[ONE]] dst {{[0-9]+}} shape [3, 1] src_strides [0, 1]
// CHECK-NEXT: isa.dma load tag 1 src 320 dst {{[0-9]+}} shape [1, 3, 2, 2] src_strides [0, 1, 0, 0]
// Pixel w, channel o, tap (i, j) -> y[o][i][2w + j]: strides [2, 24, 6, 1].
// CHECK: isa.dma store tag {{[0-9]+}} src {{[0-9]+}} dst 384 shape [3, 3, 2, 2] src_strides [12, 4, 2, 1] dst_strides [2, 24, 6, 1]
// CHECK: isa.cluster(0, 1)
// Input row 1 -> output rows 2 and 3 (384 + 2 * 6 * 4 bytes).
// CHECK: isa.dma load tag 0 src 12 dst
// CHECK: isa.dma store tag {{[0-9]+}} src {{[0-9]+}} dst 432 shape [3, 3, 2, 2] src_strides [12, 4, 2, 1] dst_strides [2, 24, 6, 1]
// CHECK-NOT: isa.barrier 1
func.func @main(%x: tensor<1x4x2x3xf32> {accel.name = "x"}, %w: tensor<4x3x2x2xf32> {accel.name = "w"}, %b: tensor<3xf32> {accel.name = "b"}) -> (tensor<1x3x4x6xf32> {accel.name = "y"}) {
  %y = graph.conv_transpose2d %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x4x2x3xf32>, tensor<4x3x2x2xf32>, tensor<3xf32>) -> tensor<1x3x4x6xf32>
  return %y : tensor<1x3x4x6xf32>
}

// -----

// Pads larger than dilation * (kernel - 1) (2 > 1): the GEMM writes a
// full-size temporary (6 x 6) and a copy layer crops it.
// CHECK-LABEL: isa.program
// CHECK: #isa.layer<name = "{{.*}}", op = "graph.conv_transpose2d", macs = 36,
// CHECK: isa.dma store tag {{[0-9]+}} src {{[0-9]+}} dst [[T:[0-9]+]] shape [3, 2, 2] src_strides [4, 2, 1] dst_strides [2, 6, 1]
// CHECK: isa.barrier 0
// Output row 0 = temporary row 2 from column 2 (byte 8 * 4 + 2 * 4 = 40).
// CHECK: isa.dma dram_copy tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [1, 4] src_strides [6, 1] dst_strides [4, 1]
// CHECK: isa.barrier 1
func.func @main(%x: tensor<1x1x3x3xf32> {accel.name = "x"}, %w: tensor<1x1x2x2xf32> {accel.name = "w"}) -> (tensor<1x1x4x4xf32> {accel.name = "y"}) {
  %y = graph.conv_transpose2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 2, 2, 0, 0>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

// Overlapping taps (3x3 stride 2) keep the zero-stuffing lowering: the
// scatter copy, the weight flip, then the stride-1 conv (three layers) with
// the zero-stuffed MACs.
// CHECK-LABEL: isa.program
// CHECK: #isa.layer<name = "{{.*}}", op = "graph.conv_transpose2d"
// CHECK: isa.barrier 2
func.func @main(%x: tensor<1x1x3x3xf32> {accel.name = "x"}, %w: tensor<1x1x3x3xf32> {accel.name = "w"}) -> (tensor<1x1x7x7xf32> {accel.name = "y"}) {
  %y = graph.conv_transpose2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x7x7xf32>
  return %y : tensor<1x1x7x7xf32>
}
