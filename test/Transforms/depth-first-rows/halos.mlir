// RUN: accel-opt --fuse-layers --depth-first-rows="halos=true slices=2" --mlir-print-debuginfo %s | FileCheck %s
// RUN: accel-opt --fuse-layers --depth-first-rows=slices=2 %s | FileCheck %s --check-prefix=OFF

// A ResNet stem in miniature, with halos: a 7x7 stride-2 conv (pads 3)
// with its ReLU, then a 3x3 stride-2 max pool (pads 1), in two bands of
// the pool's 4 rows, worked out from the result back to the input:
// - band 0, pool rows [0, 2): conv rows [0, 4) with pool pads 1 / 0; conv
//   rows [0, 4) read input rows [0, 10) with pads 3 / 0;
// - band 1, pool rows [2, 4): conv rows [3, 8) (row 3 is made again) with
//   no row pads; input rows [3, 16) with pads 0 / 2.
// The column pads stay the layer's own.
// CHECK-LABEL: func.func @stem
// CHECK: %[[S0:[^ ]*]] = graph.slice %arg0 {accel.row_band, offsets = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x3x16x12xf32>) -> tensor<1x3x10x12xf32> loc(#[[LS0:loc[0-9]*]])
// CHECK: %[[C0:[^ ]*]] = graph.conv2d %[[S0]], {{.*}}accel.row_band, pads = array<i64: 3, 3, 0, 3>, strides = array<i64: 2, 2>} : {{.*}} -> tensor<1x4x4x6xf32> loc(#[[LC0:loc[0-9]*]])
// CHECK: %[[R0:[^ ]*]] = graph.relu %[[C0]] {accel.fused, accel.row_band} : tensor<1x4x4x6xf32>
// CHECK: %[[P0:[^ ]*]] = graph.pool2d max %[[R0]] {accel.row_band, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 0, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x4x6xf32>) -> tensor<1x4x2x3xf32> loc(#[[LP0:loc[0-9]*]])
// CHECK: %[[S1:[^ ]*]] = graph.slice %arg0 {accel.row_band, offsets = array<i64: 0, 0, 3, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x3x16x12xf32>) -> tensor<1x3x13x12xf32>
// CHECK: %[[C1:[^ ]*]] = graph.conv2d %[[S1]], {{.*}}accel.row_band, pads = array<i64: 0, 3, 2, 3>, strides = array<i64: 2, 2>} : {{.*}} -> tensor<1x4x5x6xf32> loc(#[[LC1:loc[0-9]*]])
// CHECK: %[[R1:[^ ]*]] = graph.relu %[[C1]] {accel.fused, accel.row_band} : tensor<1x4x5x6xf32>
// CHECK: %[[P1:[^ ]*]] = graph.pool2d max %[[R1]] {accel.row_band, kernel = array<i64: 3, 3>, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x6xf32>) -> tensor<1x4x2x3xf32>
// CHECK: %[[Y:[^ ]*]] = graph.concat %[[P0]], %[[P1]] {axis = 2 : i64} : (tensor<1x4x2x3xf32>, tensor<1x4x2x3xf32>) -> tensor<1x4x4x3xf32>
// CHECK: return %[[Y]]
// Without halos the chain is not one.
// OFF-LABEL: func.func @stem
// OFF-NOT: graph.slice
// OFF: return
func.func @stem(%x: tensor<1x3x16x12xf32>) -> tensor<1x4x4x3xf32> {
  %w = arith.constant dense<0.5> : tensor<4x3x7x7xf32>
  %b = arith.constant dense<0.25> : tensor<4xf32>
  %c = graph.conv2d %x, %w, %b {pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x16x12xf32>, tensor<4x3x7x7xf32>, tensor<4xf32>) -> tensor<1x4x8x6xf32> loc("Conv_1")
  %r = graph.relu %c : tensor<1x4x8x6xf32> loc("Relu_2")
  %p = graph.pool2d max %r {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x6xf32>) -> tensor<1x4x4x3xf32> loc("MaxPool_3")
  return %p : tensor<1x4x4x3xf32>
}

// A 3x3 conv then two 2x2 stride-2 transposed convolutions (the FPN
// detector's head): the bands cut the result's 16 rows at multiples of 4,
// so each transposed convolution makes whole rows; the 3x3 conv makes its
// band and one row on each side inside the map.
// CHECK-LABEL: func.func @conv_then_convt
// CHECK: graph.slice %arg0 {{.*}} -> tensor<1x2x3x4xf32>
// CHECK: graph.conv2d {{.*}}pads = array<i64: 1, 1, 0, 1>{{.*}} -> tensor<1x2x2x4xf32>
// CHECK: graph.conv_transpose2d {{.*}} -> tensor<1x2x4x8xf32>
// CHECK: graph.conv_transpose2d {{.*}} -> tensor<1x1x8x16xf32>
// CHECK: graph.slice %arg0 {{.*}}offsets = array<i64: 0, 0, 1, 0>{{.*}} -> tensor<1x2x3x4xf32>
// CHECK: graph.conv2d {{.*}}pads = array<i64: 0, 1, 1, 1>{{.*}} -> tensor<1x2x2x4xf32>
// CHECK: graph.concat {{.*}} {axis = 2 : i64} : (tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<1x1x16x16xf32>
func.func @conv_then_convt(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x16x16xf32> {
  %w3 = arith.constant dense<0.5> : tensor<2x2x3x3xf32>
  %wt = arith.constant dense<0.5> : tensor<2x2x2x2xf32>
  %wt1 = arith.constant dense<0.5> : tensor<2x1x2x2xf32>
  %a = graph.conv2d %x, %w3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %t = graph.conv_transpose2d %a, %wt {strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x8x8xf32>
  %u = graph.conv_transpose2d %t, %wt1 {strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>, tensor<2x1x2x2xf32>) -> tensor<1x1x16x16xf32>
  return %u : tensor<1x1x16x16xf32>
}

// A transposed convolution, then a 3x3 conv: a band boundary after the
// upsampling would not be whole rows back through it, so the halo layer
// ends the chain (one layer: nothing to cut).
// CHECK-LABEL: func.func @convt_then_conv
// CHECK-NOT: graph.slice
// CHECK: return
func.func @convt_then_conv(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x8x8xf32> {
  %w3 = arith.constant dense<0.5> : tensor<2x2x3x3xf32>
  %wt = arith.constant dense<0.5> : tensor<2x2x2x2xf32>
  %t = graph.conv_transpose2d %x, %wt {strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x8x8xf32>
  %a = graph.conv2d %t, %w3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return %a : tensor<1x2x8x8xf32>
}

// A 1x1 conv with row pads: its first and last output rows read pads
// alone, which no band of input rows holds; it joins no chain.
// CHECK-LABEL: func.func @pads_only_rows
// CHECK-NOT: graph.slice
// CHECK: return
func.func @pads_only_rows(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x6x4xf32> {
  %w = arith.constant dense<0.5> : tensor<2x2x1x1xf32>
  %w3 = arith.constant dense<0.5> : tensor<2x2x3x3xf32>
  %a = graph.conv2d %x, %w {pads = array<i64: 1, 0, 1, 0>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x4xf32>
  %b = graph.conv2d %a, %w3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x4xf32>
  return %b : tensor<1x2x6x4xf32>
}

// The band layers' names.
// CHECK-DAG: #[[LS0]] = loc("Conv_1 input [rows 0:10]"
// CHECK-DAG: #[[LC0]] = loc("Conv_1 [rows 0:4]"
// CHECK-DAG: #[[LP0]] = loc("MaxPool_3 [rows 0:2]"
// CHECK-DAG: #[[LC1]] = loc("Conv_1 [rows 3:8]"
