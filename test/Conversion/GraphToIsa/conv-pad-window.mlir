// Padding inside the conv window (conv-padding=window, PadWindow.cpp): the
// implicit GEMM loads its image tiles from the unpadded input x (7 x 5
// planes at 0, plane stride 35) with boxes clipped to it and writes the
// padding's zeros into the tile by DMAs that broadcast one zeroed f32 of
// DRAM (at 640, all source strides 0). No DRAM -> DRAM copy. Dealt kernel
// (no mapping), linear DRAM plan.
// RUN: accel-opt --convert-graph-to-isa="sync=barrier dram-placement=linear conv-padding=window" %s | FileCheck %s
// RUN: accel-opt --convert-graph-to-isa="sync=barrier dram-placement=linear conv-padding=copy" %s | FileCheck %s --check-prefix=COPY
// Mapped (select-mapping), default synchronisation and placement: still no
// copy, the zero source is read by zero-stride DMAs.
// RUN: accel-opt --select-tiling --select-mapping --convert-graph-to-isa=conv-padding=window %s | FileCheck %s --check-prefix=MAPPED

// Stride 2, pad 1: the first tile is all 12 output pixels (4 rows x 3) of
// the chunk of kernel row 0 (positions kw = 0, 1, 2 x 2 channels, tile rows
// of 12). Kernel row 0 reads input row 2 oh - 1: output row 0 is padding,
// rows 1..3 read input rows 1, 3, 5. kw = 1 reads columns 0, 2, 4 (all
// valid): one box from row 1 (byte 20) into pixel 3 of position 1 (tile
// element 2 * 12 + 3 = 27, byte 96 + 108). kw = 0 and kw = 2 miss
// output column 0 (input column -1) resp. 2 (column 5) and both read input
// columns 1, 3 of rows 1, 3, 5: one box with a position dimension of
// source stride 0 and tile stride 47 (tile elements 4 and 51).
// CHECK-NOT: dram_copy
// CHECK-LABEL: isa.cluster(0, 0) {
// The weights of kernel row 0 (the filter is stored [O, KH, KW, Cg],
// docs/mapping.md "Filter layout in DRAM": 6 contiguous floats per output
// channel).
// CHECK: isa.dma load tag 0 src 320 dst 0 shape [3, 3, 2] src_strides [18, 2, 1] dst_strides [6, 2, 1]
// CHECK-NEXT: isa.dma load tag 0 src 20 dst 204 shape [2, 3, 3] src_strides [35, 10, 2] dst_strides [12, 3, 1]
// CHECK-NEXT: isa.dma load tag 0 src 24 dst 112 shape [2, 2, 3, 2] src_strides [0, 35, 10, 2] dst_strides [47, 12, 3, 1]
// The zeros (tile element = position * 24 + channel * 12 + pixel): kw = 0
// misses pixels 0..3 (row 0 and column 0 of row 1: one run) and the column
// 0 pixels 6, 9 (one DMA, pixel stride 3); kw = 2 the column 2 pixels 5,
// 8, 11; kw = 1 and kw = 2 row 0 (pixels 0..2), equal runs 12 elements
// apart (channel, then position): one DMA of 4 x 3.
// CHECK-NEXT: isa.dma load tag 0 src 640 dst 120 shape [2, 2] src_strides [0, 0] dst_strides [3, 12]
// CHECK-NEXT: isa.dma load tag 0 src 640 dst 96 shape [2, 4] src_strides [0, 0] dst_strides [12, 1]
// CHECK-NEXT: isa.dma load tag 0 src 640 dst 308 shape [3, 2] src_strides [0, 0] dst_strides [3, 12]
// CHECK-NEXT: isa.dma load tag 0 src 640 dst 192 shape [4, 3] src_strides [0, 0] dst_strides [12, 1]
// The bias, then the second tile (kernel row 1: input rows 0, 2, 4, 6 all
// valid; only the columns clip).
// CHECK-NEXT: isa.dma load tag 0 src 576
// CHECK: isa.dma load tag 1 src 344 dst 768 shape [3, 3, 2]
// CHECK-NEXT: isa.dma load tag 1 src 0 dst 960 shape [2, 4, 3] src_strides [35, 10, 2] dst_strides [12, 3, 1]
// CHECK-NEXT: isa.dma load tag 1 src 4 dst 868 shape [2, 2, 4, 2] src_strides [0, 35, 10, 2] dst_strides [47, 12, 3, 1]
// CHECK-NEXT: isa.dma load tag 1 src 640 dst 864 shape [2, 4, 2] src_strides [0, 0, 0] dst_strides [50, 3, 12]
// CHECK-NOT: dram_copy

// COPY: isa.cluster(0, 0) {
// COPY: isa.dma dram_copy tag 0
// COPY: isa.barrier 0

// MAPPED-NOT: dram_copy
// MAPPED: src_strides [0, 0]
// MAPPED-NOT: dram_copy
func.func @main(%x: tensor<1x2x7x5xf32> {accel.name = "x"}) -> (tensor<1x3x4x3xf32> {accel.name = "y"}) {
  %w = arith.constant dense<0.5> : tensor<3x2x3x3xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x7x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x4x3xf32>
  return %y : tensor<1x3x4x3xf32>
}
