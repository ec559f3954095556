// RUN: accel-opt --accel-default-pipeline="residency=off" %s | FileCheck %s
// RUN: accel-opt --accel-default-pipeline="residency=off dram-split-shared=false" %s | FileCheck %s --check-prefix=WHOLE
// RUN: accel-opt --accel-default-pipeline %s | FileCheck %s --check-prefix=RESIDENT

// A stride-2 stem convolution whose 16 x 112 x 112 output (784 KiB) is
// split by rows over the four clusters (28 rows each), read by a depthwise
// convolution that gives each cluster four whole planes. Every cluster
// stores a block of rows of all 16 planes with one box, so the boxes
// interleave.
//
// In DRAM (residency=off; docs/passes.md, "Shared buffers over the
// channels"): the map is one segment. Clusters (0, x) use channel 0 ([0,
// 512 MiB) on the default machine), (1, x) channel 1. No channel owns the
// map's traffic, so dram-split-shared (default) cuts it at plane 8 and
// splits each store in two: planes 0..7 go to channel 0, planes 8..15 to
// channel 1. Without it the whole map, and so every store, is on one
// channel.

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK: isa.dma store tag 2 src {{[0-9]+}} dst {{[0-9][0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?}} shape [8, {{[0-9]+}}, 112] src_strides [{{[0-9]+}}, 112, 1] dst_strides [12544, 112, 1] layer 0
// CHECK-NEXT: isa.dma store tag 2 src {{[0-9]+}} dst {{5[3-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]}} shape [8, {{[0-9]+}}, 112] src_strides [{{[0-9]+}}, 112, 1] dst_strides [12544, 112, 1] layer 0
// CHECK-NOT: shape [16, {{[0-9]+}}, 112]
// CHECK: isa.cluster(1, 1) {
// CHECK: isa.dma store tag {{[23]}} src {{[0-9]+}} dst {{[0-9][0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?[0-9]?}} shape [8, {{[0-9]+}}, 112]
// CHECK-NEXT: isa.dma store tag {{[23]}} src {{[0-9]+}} dst {{5[3-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]}} shape [8, {{[0-9]+}}, 112]

// WHOLE-LABEL: isa.cluster(0, 0) {
// WHOLE-NOT: shape [8, {{[0-9]+}}, 112]
// WHOLE: isa.dma store tag 2 src {{[0-9]+}} dst [[#A:]] shape [16, {{[0-9]+}}, 112]
// WHOLE-NOT: shape [8, {{[0-9]+}}, 112]
// Cluster (1, 1) (channel 1) stores into the same channel as (0, 0): its
// rows start 84 rows of 112 floats (37 632 bytes) further.
// WHOLE: isa.cluster(1, 1) {
// WHOLE-NOT: shape [8, {{[0-9]+}}, 112]
// WHOLE: isa.dma store tag 2 src {{[0-9]+}} dst [[#A+37632]] shape [16, {{[0-9]+}}, 112]

// On chip (residency=on, the default; docs/passes.md, "Row-split feature
// maps"): residency cuts the map between the boxes' runs, one 12.5 KiB piece
// per plane and writer, each kept by its writer (a cluster's 16 pieces are
// 196 KiB) and read by one depthwise cluster. Layer 0 stores nothing to
// DRAM; cluster (0, 0)'s first band of plane 0 (40 rows: the depthwise
// halves hold a sixth of the storage unit each, docs/depthwise.md) copies
// its own 28 rows locally and loads 12 from cluster (0, 1); later bands
// load the other quarters from the clusters that computed them.
// RESIDENT-LABEL: isa.cluster(0, 0) {
// RESIDENT-NOT: isa.dma store {{.*}} layer 0
// RESIDENT: isa.dma local_copy tag 0 src {{[0-9]+}} dst [[P0:[0-9]+]] shape [1, 28, 112] src_strides [12544, 112, 1] dst_strides [4633, 113, 1] layer 1
// RESIDENT-NEXT: isa.dma remote_load from (0, 1) tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [1, 12, 112] src_strides [12544, 112, 1] dst_strides [4633, 113, 1] layer 1
// RESIDENT: isa.dma remote_load from (1, 0) tag {{[01]}} src {{[0-9]+}} dst {{[0-9]+}} shape [1, {{[0-9]+}}, 112]
// RESIDENT: isa.dma remote_load from (1, 1) tag {{[01]}} src {{[0-9]+}} dst {{[0-9]+}} shape [1, {{[0-9]+}}, 112]

func.func @main(%x: tensor<1x3x224x224xf32> {accel.name = "x"}, %w: tensor<16x3x3x3xf32> {accel.name = "w"}, %dw: tensor<16x1x3x3xf32> {accel.name = "dw"}) -> (tensor<1x16x56x56xf32> {accel.name = "y"}) {
  %f = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x112x112xf32>
  %y = graph.conv2d %f, %dw {groups = 16, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x112x112xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x56x56xf32>
  return %y : tensor<1x16x56x56xf32>
}
