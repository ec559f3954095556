// The padded input of a mapped convolution as per-cluster bands
// (PadBands.cpp): x 1x64x32x32 at 0, 3x3 pad 1 (planes of 34 x 34), a split
// decision of the 1024 output pixels (rows of 32) into [0, 320), [320, 512),
// [512, 832), [832, 1024) on the 2 x 2 grid.
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=copy" | FileCheck %s

// Cluster (0, 0): output rows 0-9 read padded rows [0, 12): a band of 12 x 34
// per plane at 299008 (after x at 0 and w at 262144); input rows 0-10 land at band row 1,
// column 1 (299008 + 4 * 35 = 299148): one DRAM copy of all 64 planes, not
// paced (the most work, 320 pixels).
// CHECK-LABEL: isa.cluster(0, 0)
// CHECK-NEXT: isa.dma dram_copy tag 0 src 0 dst 299148 shape [64, 11, 32] src_strides [1024, 32, 1] dst_strides [408, 34, 1]
// CHECK-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// Cluster (0, 1): 192 pixels, output rows 10-15 read padded rows [10, 18)
// (band of 8 x 34 at 299008 + 4 * 64 * 408 = 403456); input rows 9-16 start
// at band row 0, column 1. Less work than the busiest cluster: paced in
// pieces of 8 KB (8 planes of 8 x 32 words; the next at 8 planes further on
// both sides), each waited for.
// CHECK-LABEL: isa.cluster(0, 1)
// CHECK-NEXT: isa.dma dram_copy tag 0 src 1152 dst 403460 shape [8, 8, 32] src_strides [1024, 32, 1] dst_strides [272, 34, 1]
// CHECK-NEXT: isa.wait tags [0]
// CHECK-NEXT: isa.dma dram_copy tag 0 src 33920 dst 412164 shape [8, 8, 32] src_strides [1024, 32, 1] dst_strides [272, 34, 1]
// CHECK-NEXT: isa.wait tags [0]
// CHECK-COUNT-6: isa.dma dram_copy tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [8, 8, 32]
// CHECK-NEXT: isa.wait tags [0]
// CHECK-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// Cluster (1, 1): output rows 26-31 read padded rows [26, 34): the last is
// the bottom padding, so input rows 25-31 (7 rows) fill band rows 0-6; 9
// planes of 7 x 32 words per 8 KB piece: 7 pieces of 9 planes, then 1.
// CHECK-LABEL: isa.cluster(1, 1)
// CHECK-NEXT: isa.dma dram_copy tag 0 src 3200 dst {{[0-9]+}} shape [9, 7, 32] src_strides [1024, 32, 1] dst_strides [272, 34, 1]
// CHECK-NEXT: isa.wait tags [0]
// CHECK-COUNT-6: isa.dma dram_copy tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [9, 7, 32]
// CHECK-NEXT: isa.wait tags [0]
// CHECK-NEXT: isa.dma dram_copy tag 0 src 261248 dst {{[0-9]+}} shape [1, 7, 32]
// CHECK-NEXT: isa.wait tags [0]
// CHECK-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe

func.func @main(%x: tensor<1x64x32x32xf32> {accel.name = "x"}, %w: tensor<16x64x3x3xf32> {accel.name = "w"})
    -> (tensor<1x16x32x32xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64,
      accel.mapping = #accel.mapping<dataflow = output_stationary, ranges = [0, 320, 512, 832, 1024], array = [N, N], cycles = 1>}
      : (tensor<1x64x32x32xf32>, tensor<16x64x3x3xf32>) -> tensor<1x16x32x32xf32>
  return %y : tensor<1x16x32x32xf32>
}
