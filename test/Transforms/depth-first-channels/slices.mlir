// RUN: accel-opt --fuse-layers --depth-first-channels=slices=2 --mlir-print-debuginfo %s | FileCheck %s
// RUN: accel-opt --accel-hw=%S/../../../hw/bandwidth-starved.json --fuse-layers --depth-first-channels %s | FileCheck %s --check-prefix=STARVED
// RUN: accel-opt --fuse-layers --depth-first-channels %s | FileCheck %s --check-prefix=DEFAULT
// RUN: accel-opt --fuse-layers --depth-first-channels=min-dram-to-mac-ratio=16 %s | FileCheck %s --check-prefix=RATIO16

// An expand conv + relu feeding a depthwise conv + relu, two slices: each
// slice is the expand conv's 4 output channels with its chain, then the
// depthwise conv of those 4 channels (groups 4) with its chain; a concat
// along the channels replaces the depthwise result. The weights and biases
// are the slices of the constants (rows 0-3 and 4-7).
// CHECK-LABEL: func.func @pair
// CHECK: %[[W0:[^ ]*]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00]], {{\[\[}}1.000000e+00]]]{{.*}}> : tensor<4x2x1x1xf32>
// CHECK: arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<4xf32>
// CHECK: %[[E0:[^ ]*]] = graph.conv2d %arg0, %[[W0]], %{{.*}} {accel.fusion = #accel.fusion<steps = [relu], fused = ["Relu_2"]>} : {{.*}} -> tensor<1x4x6x6xf32> loc(#[[LE0:loc[0-9]*]])
// CHECK: %[[R0:[^ ]*]] = graph.relu %[[E0]] {accel.fused} : tensor<1x4x6x6xf32>
// CHECK: %[[D0:[^ ]*]] = graph.conv2d %[[R0]], %{{.*}}, %{{.*}} {accel.fusion = #accel.fusion<steps = [relu], fused = ["Relu_4"]>, groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : {{.*}} -> tensor<1x4x6x6xf32> loc(#[[LD0:loc[0-9]*]])
// CHECK: %[[S0:[^ ]*]] = graph.relu %[[D0]] {accel.fused} : tensor<1x4x6x6xf32>
// CHECK: %[[W1:[^ ]*]] = arith.constant dense<{{\[\[\[\[}}8.000000e+00]], {{\[\[}}9.000000e+00]]]{{.*}}> : tensor<4x2x1x1xf32>
// CHECK: arith.constant dense<[4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]> : tensor<4xf32>
// CHECK: %[[E1:[^ ]*]] = graph.conv2d %arg0, %[[W1]], %{{.*}} {accel.fusion
// CHECK: %[[R1:[^ ]*]] = graph.relu %[[E1]] {accel.fused}
// CHECK: %[[D1:[^ ]*]] = graph.conv2d %[[R1]], {{.*}}groups = 4 : i64
// CHECK: %[[S1:[^ ]*]] = graph.relu %[[D1]] {accel.fused}
// CHECK: %[[C:[^ ]*]] = graph.concat %[[S0]], %[[S1]] {axis = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32>
// CHECK: return %[[C]]
// The default rule leaves a map this small whole.
// DEFAULT-LABEL: func.func @pair
// DEFAULT-NOT: graph.concat
// STARVED-LABEL: func.func @pair
// STARVED-NOT: graph.concat
func.func @pair(%x: tensor<1x2x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w = arith.constant dense<[[[[0.0]], [[1.0]]], [[[2.0]], [[3.0]]], [[[4.0]], [[5.0]]], [[[6.0]], [[7.0]]],
                             [[[8.0]], [[9.0]]], [[[10.0]], [[11.0]]], [[[12.0]], [[13.0]]], [[[14.0]], [[15.0]]]]> : tensor<8x2x1x1xf32>
  %b = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %wd = arith.constant dense<0.25> : tensor<8x1x3x3xf32>
  %bd = arith.constant dense<0.5> : tensor<8xf32>
  %e = graph.conv2d %x, %w, %b : (tensor<1x2x6x6xf32>, tensor<8x2x1x1xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32> loc("Conv_1")
  %r = graph.relu %e : tensor<1x8x6x6xf32> loc("Relu_2")
  %d = graph.conv2d %r, %wd, %bd {groups = 8 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32> loc("Conv_3")
  %y = graph.relu %d : tensor<1x8x6x6xf32> loc("Relu_4")
  return %y : tensor<1x8x6x6xf32>
}

// MobileNetV3-Large's second block: 16 -> 64 channels at 112 x 112, a
// 3.2 MB map, depthwise stride 2. On the default machine its DRAM round
// trip is about 4x the expand's MAC time, on the starved one (8 B/cycle)
// about 64x: at least 2x on both, so eight slices of 8 channels (0.4 MB
// each, at most 0.3 of the 2 MiB of storage). With the ratio at 16 the
// default machine leaves it whole.
// DEFAULT-LABEL: func.func @large_map
// DEFAULT-COUNT-8: graph.conv2d {{.*}}groups = 8 : i64{{.*}} -> tensor<1x8x56x56xf32>
// DEFAULT: graph.concat {{.*}} -> tensor<1x64x56x56xf32>
// STARVED-LABEL: func.func @large_map
// STARVED-COUNT-8: graph.conv2d {{.*}}groups = 8 : i64{{.*}} -> tensor<1x8x56x56xf32>
// STARVED: graph.concat {{.*}} -> tensor<1x64x56x56xf32>
// RATIO16-LABEL: func.func @large_map
// RATIO16-NOT: graph.concat
func.func @large_map(%x: tensor<1x16x112x112xf32>) -> tensor<1x64x56x56xf32> {
  %w = arith.constant dense<0.5> : tensor<64x16x1x1xf32>
  %wd = arith.constant dense<0.25> : tensor<64x1x3x3xf32>
  %e = graph.conv2d %x, %w : (tensor<1x16x112x112xf32>, tensor<64x16x1x1xf32>) -> tensor<1x64x112x112xf32> loc("expand")
  %r = graph.relu %e : tensor<1x64x112x112xf32> loc("expand_relu")
  %d = graph.conv2d %r, %wd {groups = 64 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x112x112xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x56x56xf32> loc("dw")
  return %d : tensor<1x64x56x56xf32>
}

// Left alone even when forced: a residual add after the depthwise conv (its
// other operand is the whole map), two images, depthwise weights computed
// at run time, and an expand result with a second user.
// CHECK-LABEL: func.func @residual
// CHECK-NOT: graph.concat
func.func @residual(%x: tensor<1x2x4x4xf32>, %skip: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<4x2x1x1xf32>
  %wd = arith.constant dense<0.25> : tensor<4x1x3x3xf32>
  %e = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  %d = graph.conv2d %e, %wd {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32>
  %y = graph.add %d, %skip : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// CHECK-LABEL: func.func @two_images
// CHECK-NOT: graph.concat
func.func @two_images(%x: tensor<2x2x4x4xf32>) -> tensor<2x4x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<4x2x1x1xf32>
  %wd = arith.constant dense<0.25> : tensor<4x1x3x3xf32>
  %e = graph.conv2d %x, %w : (tensor<2x2x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<2x4x4x4xf32>
  %d = graph.conv2d %e, %wd {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x4x4x4xf32>, tensor<4x1x3x3xf32>) -> tensor<2x4x4x4xf32>
  return %d : tensor<2x4x4x4xf32>
}

// CHECK-LABEL: func.func @runtime_weights
// CHECK-NOT: graph.concat
func.func @runtime_weights(%x: tensor<1x2x4x4xf32>, %wd: tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<4x2x1x1xf32>
  %e = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  %d = graph.conv2d %e, %wd {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %d : tensor<1x4x4x4xf32>
}

// CHECK-LABEL: func.func @two_users
// CHECK-NOT: graph.concat
func.func @two_users(%x: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %w = arith.constant dense<0.5> : tensor<4x2x1x1xf32>
  %wd = arith.constant dense<0.25> : tensor<4x1x3x3xf32>
  %e = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  %d = graph.conv2d %e, %wd {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %d, %e : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}

// Each slice's layer is named after its source with its channel range (the
// location aliases are printed at the end of the output).
// CHECK-DAG: #[[LE0]] = loc("Conv_1 [0:4]")
// CHECK-DAG: #[[LD0]] = loc("Conv_3 [0:4]")
// CHECK-DAG: loc("Conv_1 [4:8]")
// CHECK-DAG: loc("Conv_3 [4:8]")
