// RUN: accel-opt --fuse-layers %s | FileCheck %s
// RUN: accel-opt "--fuse-layers=pad=false squeeze-excite=false" %s | FileCheck %s --check-prefix=OFF

// A zero pad of H and W folds into the conv's pads (added to its own).
// CHECK-LABEL: func.func @pad_conv
// CHECK-NOT: graph.pad
// CHECK: graph.conv2d %arg0, {{.*}}accel.fusion = #accel.fusion<pad = "Pad_1">, pads = array<i64: 1, 3, 2, 3>
// OFF-LABEL: func.func @pad_conv
// OFF: graph.pad
// OFF-NOT: accel.fusion
func.func @pad_conv(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x7x10xf32> {
  %w = arith.constant dense<1.0> : tensor<3x2x1x1xf32>
  %p = graph.pad %x {pads = array<i64: 0, 0, 1, 2, 0, 0, 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x7x8xf32> loc("Pad_1")
  %c = graph.conv2d %p, %w {pads = array<i64: 0, 1, 0, 1>} : (tensor<1x2x7x8xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x7x10xf32>
  return %c : tensor<1x3x7x10xf32>
}

// Negative: a non-zero pad value, a pad of the channels, a pad with a second user.
// CHECK-LABEL: func.func @pad_not_folded
// CHECK-COUNT-3: graph.pad
// CHECK-NOT: accel.fusion
func.func @pad_not_folded(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x6x6xf32>, tensor<1x3x4x4xf32>, tensor<1x3x6x6xf32>, tensor<1x2x6x6xf32>) {
  %w = arith.constant dense<1.0> : tensor<3x2x1x1xf32>
  %w4 = arith.constant dense<1.0> : tensor<3x4x1x1xf32>
  %p = graph.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>, value = 1.0 : f32} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %c = graph.conv2d %p, %w : (tensor<1x2x6x6xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x6x6xf32>
  %q = graph.pad %x {pads = array<i64: 0, 1, 0, 0, 0, 1, 0, 0>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %d = graph.conv2d %q, %w4 : (tensor<1x4x4x4xf32>, tensor<3x4x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = graph.pad %x {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x6x6xf32>
  %e = graph.conv2d %r, %w : (tensor<1x2x6x6xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x6x6xf32>
  return %c, %d, %e, %r : tensor<1x3x6x6xf32>, tensor<1x3x4x4xf32>, tensor<1x3x6x6xf32>, tensor<1x2x6x6xf32>
}

// Squeeze-and-excite: pool -> conv1x1 -> relu -> conv1x1 -> hard_sigmoid ->
// mul with the map -> projection conv. The mul becomes a scale of the
// projection's weights (w * s, s reshaped to the weights' input-channel dim).
// CHECK-LABEL: func.func @squeeze_excite
// CHECK: graph.pool2d avg %[[X:[^ ]+]]
// CHECK: %[[S:[^ ]+]] = graph.conv2d {{.*}}accel.fusion = #accel.fusion<steps = [scale(
// CHECK: %[[H:[^ ]+]] = graph.unary hard_sigmoid %[[S]] {accel.fused
// CHECK: %[[WS:[^ ]+]] = graph.binary mul %{{[^ ]+}}, %[[H]] : (tensor<8x4x1x1xf32>, tensor<1x4x1x1xf32>) -> tensor<8x4x1x1xf32>
// CHECK: graph.conv2d %[[X]], %[[WS]] {accel.fusion = #accel.fusion<squeeze_excite = "Mul_9">}
// OFF-LABEL: func.func @squeeze_excite
// OFF: graph.binary mul %arg0
// OFF-NOT: squeeze_excite =
func.func @squeeze_excite(%x: tensor<1x4x5x5xf32>) -> tensor<1x8x5x5xf32> {
  %w1 = arith.constant dense<0.1> : tensor<2x4x1x1xf32>
  %w2 = arith.constant dense<0.2> : tensor<4x2x1x1xf32>
  %wp = arith.constant dense<0.3> : tensor<8x4x1x1xf32>
  %g = graph.pool2d avg %x {kernel = array<i64: 5, 5>} : (tensor<1x4x5x5xf32>) -> tensor<1x4x1x1xf32>
  %f1 = graph.conv2d %g, %w1 : (tensor<1x4x1x1xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x1x1xf32>
  %a = graph.relu %f1 : tensor<1x2x1x1xf32>
  %f2 = graph.conv2d %a, %w2 : (tensor<1x2x1x1xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x1x1xf32>
  %h = graph.unary hard_sigmoid %f2 {alpha = 0.2 : f32, beta = 0.5 : f32} : tensor<1x4x1x1xf32>
  %m = graph.binary mul %x, %h : (tensor<1x4x5x5xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x5x5xf32> loc("Mul_9")
  %y = graph.conv2d %m, %wp : (tensor<1x4x5x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x5x5xf32>
  return %y : tensor<1x8x5x5xf32>
}

// A depthwise conv after the excite: the scale is reshaped to [C, 1, 1, 1].
// CHECK-LABEL: func.func @squeeze_excite_depthwise
// CHECK: %[[R:[^ ]+]] = graph.reshape %{{[^ ]+}} : (tensor<1x4x1x1xf32>) -> tensor<4x1x1x1xf32>
// CHECK: graph.binary mul %{{[^ ]+}}, %[[R]] : (tensor<4x1x3x3xf32>, tensor<4x1x1x1xf32>)
// CHECK: squeeze_excite
func.func @squeeze_excite_depthwise(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %wd = arith.constant dense<0.3> : tensor<4x1x3x3xf32>
  %g = graph.reduce mean %x {axes = array<i64: 2, 3>, keepdims = true} : (tensor<1x4x5x5xf32>) -> tensor<1x4x1x1xf32>
  %h = graph.unary sigmoid %g : tensor<1x4x1x1xf32>
  %m = graph.binary mul %h, %x : (tensor<1x4x1x1xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %y = graph.conv2d %m, %wd {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  return %y : tensor<1x4x5x5xf32>
}

// A late MobileNetV3 block in miniature: the projection's 16 x 8 weights
// outnumber the 8 x 2 x 2 map, so scaling the map moves fewer bytes than
// scaling the weights: the excite mul stays its own (elementwise) layer.
// CHECK-LABEL: func.func @squeeze_excite_more_weights_than_map
// CHECK: %[[M:[^ ]+]] = graph.binary mul %arg0, %{{[^ ]+}} : (tensor<1x8x2x2xf32>, tensor<1x8x1x1xf32>)
// CHECK: graph.conv2d %[[M]], %{{[^ ]+}} :
// CHECK-NOT: squeeze_excite
func.func @squeeze_excite_more_weights_than_map(%x: tensor<1x8x2x2xf32>) -> tensor<1x16x2x2xf32> {
  %wp = arith.constant dense<0.3> : tensor<16x8x1x1xf32>
  %g = graph.reduce mean %x {axes = array<i64: 2, 3>, keepdims = true} : (tensor<1x8x2x2xf32>) -> tensor<1x8x1x1xf32>
  %h = graph.unary sigmoid %g : tensor<1x8x1x1xf32>
  %m = graph.binary mul %x, %h : (tensor<1x8x2x2xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x2x2xf32>
  %y = graph.conv2d %m, %wp : (tensor<1x8x2x2xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x2x2xf32>
  return %y : tensor<1x16x2x2xf32>
}

// Negative: a per-channel scale that is not a squeeze of the map, and an
// excite mul with a second user.
// CHECK-LABEL: func.func @scale_not_folded
// CHECK-COUNT-2: graph.binary mul %arg0
// CHECK-NOT: squeeze_excite
func.func @scale_not_folded(%x: tensor<1x4x5x5xf32>, %s: tensor<1x4x1x1xf32>) -> (tensor<1x8x5x5xf32>, tensor<1x8x5x5xf32>, tensor<1x4x5x5xf32>) {
  %wp = arith.constant dense<0.3> : tensor<8x4x1x1xf32>
  %m = graph.binary mul %x, %s : (tensor<1x4x5x5xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %y = graph.conv2d %m, %wp : (tensor<1x4x5x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x5x5xf32>
  %g = graph.pool2d avg %x {kernel = array<i64: 5, 5>} : (tensor<1x4x5x5xf32>) -> tensor<1x4x1x1xf32>
  %h = graph.unary sigmoid %g : tensor<1x4x1x1xf32>
  %n = graph.binary mul %x, %h : (tensor<1x4x5x5xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %z = graph.conv2d %n, %wp : (tensor<1x4x5x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x5x5xf32>
  return %y, %z, %n : tensor<1x8x5x5xf32>, tensor<1x8x5x5xf32>, tensor<1x4x5x5xf32>
}
