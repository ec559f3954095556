// A convolution whose filter is a constant with 4 non-zeros of 36 (89 %
// zeros): under accel.mapping it is lowered as the transposed implicit GEMM
// (LowerConvWeightQueue.cpp): rows = output pixels (A: a 3-D DMA of the
// padded image window, 4 rows x 4 pixels x channels), columns = output
// channels, the filter in the weight queue as LD sparse_weights lists
// (2-word lists: one pair each), the output stored pixels x channels
// (channel stride OH * OW = 16). select-mapping's cost model (split=labels:
// not the strategy database's partition) picks [K, K] here on
// hw/serial-dram.json (each DMA holds its channel for the whole latency), so
// each cluster computes a K part. With sparse-weights=off it stays in the
// normal form (filter in the input buffer, image in the weight queue).
// RUN: accel-opt --accel-hw=%S/../../../hw/serial-dram.json --accel-default-pipeline="split=labels conv-padding=copy" %s | FileCheck %s
// RUN: accel-opt --accel-hw=%S/../../../hw/serial-dram.json --accel-default-pipeline="split=labels sparse-weights=off conv-padding=copy" %s | FileCheck %s --check-prefix=DENSE

// Cluster (0, 0) computes K [0, 9) of the (kh, kw, c) flattening: kernel
// row 0 (3 positions x 2 channels, one 4-D image box: pixel rows, pixel
// columns, kernel columns, channels), position (1, 0), then channel 0 of
// position (1, 1) (chunks of whole positions, ConvKChunks.cpp; tiles 6
// deep, the deepest chunk).
// CHECK: isa.cluster(0, 0) {
// CHECK: isa.ld acts slot 0 <{{.*}}rows = 16, cols = 6, row_stride = 6, pe_rows = 4>
// CHECK-NEXT: isa.ld sparse_weights slot 0 <{{.*}}cols = 2, row_stride = 2, depth = 6>
// CHECK-NEXT: isa.mac slot 0 acc 0 <rows = 16, cols = 2, pe_rows = 4, depth = 6>
// CHECK: isa.dma load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [4, 4, 3, 2] src_strides [6, 1, 1, 36] dst_strides [24, 6, 2, 1]
// CHECK-NEXT: isa.dma load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [2] src_strides [1] dst_strides [1]
// CHECK: isa.dma load tag 1 src {{[0-9]+}} dst {{[0-9]+}} shape [4, 4, 2] src_strides [6, 1, 36] dst_strides [24, 6, 1]
// CHECK: isa.dma load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [4, 4, 1] src_strides [6, 1, 36] dst_strides [24, 6, 1]
// CHECK: isa.dma {{store|local_copy}} tag 2 src {{[0-9]+}} dst {{[0-9]+}} shape [4, 4, 2] src_strides [8, 2, 1] dst_strides [4, 1, 16]

// DENSE-NOT: sparse_weights
// DENSE: isa.ld weights slot 0
// DENSE-NOT: sparse_weights

func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<[[[[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]],
                              [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [2.0, 0.0, 0.0]]],
                             [[[0.0, 3.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                              [[0.0, 0.0, 0.0], [0.0, 0.0, 4.0], [0.0, 0.0, 0.0]]]]> : tensor<2x2x3x3xf32>
  %y = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
