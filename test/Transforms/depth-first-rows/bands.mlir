// RUN: accel-opt --fuse-layers --depth-first-rows=slices=2 --mlir-print-debuginfo %s | FileCheck %s
// RUN: accel-opt --fuse-layers --depth-first-rows %s | FileCheck %s --check-prefix=DEFAULT

// The FPN detector's head in miniature: two 2x2 stride-2 transposed
// convolutions with their fused chains, in two bands of 4 input rows.
// Band k slices rows [4k, 4k + 4) of the input; the first layer makes
// rows [8k, 8k + 8), the second [16k, 16k + 16); each band's ops carry
// accel.row_band and their layer names say their output rows. A concat
// along the rows replaces the chain's result.
// CHECK-LABEL: func.func @convt_head
// CHECK: %[[S0:[^ ]*]] = graph.slice %arg0 {accel.row_band, offsets = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x6xf32>) -> tensor<1x4x4x6xf32> loc(#[[LS0:loc[0-9]*]])
// CHECK: %[[T0:[^ ]*]] = graph.conv_transpose2d %[[S0]], %{{.*}}, %{{.*}} {accel.fusion = #accel.fusion<steps = [relu], fused = ["Relu_2"]>, accel.row_band, strides = array<i64: 2, 2>} : {{.*}} -> tensor<1x4x8x12xf32> loc(#[[LT0:loc[0-9]*]])
// CHECK: %[[R0:[^ ]*]] = graph.relu %[[T0]] {accel.fused, accel.row_band} : tensor<1x4x8x12xf32>
// CHECK: %[[U0:[^ ]*]] = graph.conv_transpose2d %[[R0]], {{.*}}accel.row_band{{.*}} -> tensor<1x1x16x24xf32> loc(#[[LU0:loc[0-9]*]])
// CHECK: %[[G0:[^ ]*]] = graph.unary sigmoid %[[U0]] {accel.fused, accel.row_band} : tensor<1x1x16x24xf32>
// CHECK: %[[S1:[^ ]*]] = graph.slice %arg0 {accel.row_band, offsets = array<i64: 0, 0, 4, 0>{{.*}} -> tensor<1x4x4x6xf32>
// CHECK: %[[T1:[^ ]*]] = graph.conv_transpose2d %[[S1]]
// CHECK: %[[R1:[^ ]*]] = graph.relu %[[T1]]
// CHECK: %[[U1:[^ ]*]] = graph.conv_transpose2d %[[R1]]
// CHECK: %[[G1:[^ ]*]] = graph.unary sigmoid %[[U1]]
// CHECK: %[[C:[^ ]*]] = graph.concat %[[G0]], %[[G1]] {axis = 2 : i64} : (tensor<1x1x16x24xf32>, tensor<1x1x16x24xf32>) -> tensor<1x1x32x24xf32>
// CHECK: return %[[C]]
// The default rule leaves maps this small whole.
// DEFAULT-LABEL: func.func @convt_head
// DEFAULT-NOT: graph.concat
func.func @convt_head(%x: tensor<1x4x8x6xf32>) -> tensor<1x1x32x24xf32> {
  %w1 = arith.constant dense<0.5> : tensor<4x4x2x2xf32>
  %b1 = arith.constant dense<0.25> : tensor<4xf32>
  %w2 = arith.constant dense<0.125> : tensor<4x1x2x2xf32>
  %t = graph.conv_transpose2d %x, %w1, %b1 {strides = array<i64: 2, 2>} : (tensor<1x4x8x6xf32>, tensor<4x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x16x12xf32> loc("ConvTranspose_1")
  %r = graph.relu %t : tensor<1x4x16x12xf32> loc("Relu_2")
  %u = graph.conv_transpose2d %r, %w2 {strides = array<i64: 2, 2>} : (tensor<1x4x16x12xf32>, tensor<4x1x2x2xf32>) -> tensor<1x1x32x24xf32> loc("ConvTranspose_3")
  %y = graph.unary sigmoid %u : tensor<1x1x32x24xf32> loc("Sigmoid_4")
  return %y : tensor<1x1x32x24xf32>
}

// A 2x2 stride-2 max pool, then a 1x1 conv: bands of 4 input rows are 2
// pooled rows each.
// CHECK-LABEL: func.func @pool_conv
// CHECK: graph.slice %arg0 {{.*}} -> tensor<1x2x4x8xf32>
// CHECK: graph.pool2d max {{.*}} -> tensor<1x2x2x4xf32>
// CHECK: graph.conv2d {{.*}} -> tensor<1x3x2x4xf32>
// CHECK: graph.slice %arg0 {accel.row_band, offsets = array<i64: 0, 0, 4, 0>
// CHECK: graph.concat {{.*}} {axis = 2 : i64} : (tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) -> tensor<1x3x4x4xf32>
func.func @pool_conv(%x: tensor<1x2x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<3x2x1x1xf32>
  %p = graph.pool2d max %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  %y = graph.conv2d %p, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// Ops of other kinds and ranks (a reduction to a scalar of a 4-D map, the
// ONNX loss tests' idiom) are no layers of a chain; the pass leaves them.
// CHECK-LABEL: func.func @scalar_reduce
// CHECK: graph.reduce sum
func.func @scalar_reduce(%x: tensor<3x5x2x7xf32>) -> tensor<f32> {
  %s = graph.reduce sum %x {axes = array<i64: 0, 1, 2, 3>, keepdims = false} : (tensor<3x5x2x7xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// Layers with a halo (a 3x3 conv), a second user of the map between two
// layers, and a residual add in a fused chain end a chain: none of these
// is cut.
// CHECK-LABEL: func.func @not_chains
// CHECK-NOT: graph.slice
// CHECK: return
// The band layers' names (the locations print after the last function).
// CHECK-DAG: #[[LS0]] = loc("ConvTranspose_1 input [rows 0:4]"
// CHECK-DAG: #[[LT0]] = loc("ConvTranspose_1 [rows 0:8]"
// CHECK-DAG: #[[LU0]] = loc("ConvTranspose_3 [rows 0:16]"
func.func @not_chains(%x: tensor<1x2x8x8xf32>, %res: tensor<1x2x16x16xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) {
  %w3 = arith.constant dense<0.5> : tensor<2x2x3x3xf32>
  %w1 = arith.constant dense<0.5> : tensor<2x2x1x1xf32>
  %wt = arith.constant dense<0.5> : tensor<2x2x2x2xf32>
  %a = graph.conv2d %x, %w1 : (tensor<1x2x8x8xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x8x8xf32>
  %b = graph.conv2d %a, %w3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  %t = graph.conv_transpose2d %b, %wt {strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x16x16xf32>
  %u = graph.conv2d %t, %w1 : (tensor<1x2x16x16xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x16x16xf32>
  %v = graph.conv_transpose2d %x, %wt {strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x16x16xf32>
  %s = graph.add %v, %res : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
  %z = graph.conv2d %s, %w1 : (tensor<1x2x16x16xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x16x16xf32>
  return %b, %t, %u, %z : tensor<1x2x8x8xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>
}

