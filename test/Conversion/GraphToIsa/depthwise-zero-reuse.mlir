// RUN: accel-opt --convert-graph-to-isa=sync=barrier %s | FileCheck %s

// Zero padding written once per storage half (docs/depthwise.md, "Zeros and
// taps once"): 16 planes of 7 x 7 (3x3, pad 1) give each of the 4 clusters
// 4 one-plane tiles of the same geometry, alternating between the two
// halves. Neither the expansion nor the raw band's load writes where the
// window reads padding, so tiles 2 and 3 find the zeros tiles 0 and 1 wrote
// (X' rows 0..2 and 24..26 = padded rows 0 and 8; raw columns 0 and 8, left
// and right of the image's 7 at raw columns 1..7) and load only their raw
// band and taps. The taps of a tile are one DMA (planes
// consecutive in the weights: source stride 9, tap-region stride 32).

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK: isa.wait tags [4]
// Tile 0 (half 0, tag 0) and tile 1 (half 1, tag 1): raw band, 4 zero boxes, taps.
// CHECK-NEXT: isa.dma load tag 0 src 0 dst [[#RAW0:]] shape [1, 7, 7]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO:[0-9]+]] dst 0 shape [1, 3, 7] src_strides [0, 0, 0]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO]] dst 672 shape [1, 3, 7] src_strides [0, 0, 0]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO]] dst [[#RAW0-4]] shape [1, 7, 1] src_strides [0, 0, 0] dst_strides [81, 9, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO]] dst [[#RAW0+28]] shape [1, 7, 1] src_strides [0, 0, 0] dst_strides [81, 9, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[W:[0-9]+]] dst [[TAPS0:[0-9]+]] shape [1, 3, 3] src_strides [9, 3, 1] dst_strides [32, 3, 1]
// CHECK-NEXT: isa.dma load tag 1 src 196 dst [[#RAW1:]] shape [1, 7, 7]
// CHECK-COUNT-4: isa.dma load tag 1 src [[ZERO]] dst
// CHECK-NEXT: isa.dma load tag 1 src {{[0-9]+}} dst [[TAPS1:[0-9]+]] shape [1, 3, 3] src_strides [9, 3, 1] dst_strides [32, 3, 1]
// Tile 2 into half 0 after tile 0's store: raw band and taps, no zeros.
// CHECK: isa.dma load tag 0 src 392 dst [[#RAW0]] shape [1, 7, 7]
// CHECK-NOT: src [[ZERO]]
// CHECK: isa.dma store tag 2
// CHECK-NEXT: isa.dma load tag 0 src {{[0-9]+}} dst [[TAPS0]] shape [1, 3, 3]
// Tile 3 into half 1: the same.
// CHECK-NOT: src [[ZERO]]
// CHECK: isa.dma load tag 1 src 588 dst [[#RAW1]] shape [1, 7, 7]
// CHECK-NOT: src [[ZERO]]
// CHECK: isa.dma store tag 3
// CHECK-NEXT: isa.dma load tag 1 src {{[0-9]+}} dst [[TAPS1]] shape [1, 3, 3]
// CHECK-NOT: src [[ZERO]]
// CHECK: isa.cluster(0, 1) {

func.func @main(%x: tensor<1x16x7x7xf32> {accel.name = "x"}, %w: tensor<16x1x3x3xf32> {accel.name = "w"}) -> (tensor<1x16x7x7xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {groups = 16, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x7x7xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x7x7xf32>
  return %y : tensor<1x16x7x7xf32>
}
