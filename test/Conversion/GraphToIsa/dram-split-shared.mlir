// RUN: accel-opt --accel-default-pipeline %s | FileCheck %s
// RUN: accel-opt --accel-default-pipeline="dram-split-shared=false" %s | FileCheck %s --check-prefix=WHOLE

// A stride-2 stem convolution whose 16 x 112 x 112 output (784 KiB, too big
// to stay on chip) is split by rows over the four clusters, read by a
// depthwise convolution (docs/passes.md, "Shared buffers over the
// channels"). Every cluster stores a block of rows of all 16 planes with
// one box; the boxes interleave, so the map is one DRAM segment. Clusters
// (0, x) use channel 0 ([0, 512 MiB) on the default machine), (1, x)
// channel 1 ([512 MiB, 1 GiB)). No channel owns the map's traffic, so
// dram-split-shared (default) cuts it at plane 8 and splits each store in
// two: planes 0..7 go to channel 0, planes 8..15 to channel 1. Without it
// the whole map, and so every store, is on one channel.

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK: isa.dma store tag 2 src {{[0-9]+}} dst {{[0-9][0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?}} shape [8, 5, 112] src_strides [640, 112, 1] dst_strides [12544, 112, 1] layer 0
// CHECK-NEXT: isa.dma store tag 2 src {{[0-9]+}} dst {{5[3-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]}} shape [8, 5, 112] src_strides [640, 112, 1] dst_strides [12544, 112, 1] layer 0
// CHECK-NOT: shape [16, 5, 112]
// CHECK: isa.cluster(1, 1) {
// CHECK: isa.dma store tag {{[23]}} src {{[0-9]+}} dst {{[0-9][0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?}} shape [8, {{[0-9]+}}, 112]
// CHECK-NEXT: isa.dma store tag {{[23]}} src {{[0-9]+}} dst {{5[3-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]}} shape [8, {{[0-9]+}}, 112]

// WHOLE-LABEL: isa.cluster(0, 0) {
// WHOLE-NOT: shape [8, 5, 112]
// WHOLE: isa.dma store tag 2 src {{[0-9]+}} dst {{5[3-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]}} shape [16, 5, 112]
// WHOLE-NOT: shape [8, 5, 112]
// WHOLE: isa.cluster(0, 1) {

func.func @main(%x: tensor<1x3x224x224xf32> {accel.name = "x"}, %w: tensor<16x3x3x3xf32> {accel.name = "w"}, %dw: tensor<16x1x3x3xf32> {accel.name = "dw"}) -> (tensor<1x16x56x56xf32> {accel.name = "y"}) {
  %f = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x112x112xf32>
  %y = graph.conv2d %f, %dw {groups = 16, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x112x112xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x56x56xf32>
  return %y : tensor<1x16x56x56xf32>
}
