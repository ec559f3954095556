// RUN: accel-opt --fuse-layers %s | FileCheck %s
// RUN: accel-opt --fuse-layers=activations=false %s | FileCheck %s --check-prefix=NOACT
// RUN: accel-opt --fuse-layers=residual=false %s | FileCheck %s --check-prefix=NORES

// conv + relu6 (clip 0..6) + scale by a scalar constant: one epilogue.
// CHECK-LABEL: func.func @relu6_scale
// CHECK: graph.conv2d {{.*}}accel.fusion = #accel.fusion<steps = [max_imm, min_imm(6.000000e+00), scale(5.000000e-01)], fused = ["Clip_1", "Mul_2"]>
// CHECK: graph.unary clip {{.*}}accel.fused
// CHECK: graph.binary mul {{.*}}accel.fused
// NOACT-LABEL: func.func @relu6_scale
// NOACT-NOT: accel.fus
func.func @relu6_scale(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = arith.constant dense<1.0> : tensor<3x2x1x1xf32>
  %h = arith.constant dense<0.5> : tensor<f32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = graph.unary clip %c {alpha = 0.0 : f32, beta = 6.0 : f32} : tensor<1x3x4x4xf32> loc("Clip_1")
  %y = graph.binary mul %r, %h : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32> loc("Mul_2")
  return %y : tensor<1x3x4x4xf32>
}

// The exporters' x * hard_sigmoid(x) becomes one hard_swish step; sub and
// div by constants become add_imm / scale; then a leaky relu.
// CHECK-LABEL: func.func @hardswish_idiom
// CHECK: graph.matmul {{.*}}accel.fusion = #accel.fusion<steps = [hard_swish, add_imm(-1.000000e+00), scale(2.500000e-01), leaky_relu(1.000000e-01)], fused = ["HardSigmoid_1", "Mul_2", "Sub_3", "Div_4", "LeakyRelu_5"]>
// CHECK: graph.unary hard_swish {{.*}}accel.fused
// CHECK-NOT: hard_sigmoid
// NOACT-LABEL: func.func @hardswish_idiom
// NOACT-NOT: accel.fus
// NOACT: graph.unary hard_sigmoid
// NOACT: graph.binary mul
func.func @hardswish_idiom(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %one = arith.constant dense<1.0> : tensor<1xf32>
  %four = arith.constant dense<4.0> : tensor<f32>
  %m = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %hs = graph.unary hard_sigmoid %m {alpha = 0.16666667 : f32, beta = 0.5 : f32} : tensor<4x16xf32> loc("HardSigmoid_1")
  %sw = graph.binary mul %m, %hs : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32> loc("Mul_2")
  %s = graph.binary sub %sw, %one : (tensor<4x16xf32>, tensor<1xf32>) -> tensor<4x16xf32> loc("Sub_3")
  %d = graph.binary div %s, %four : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32> loc("Div_4")
  %l = graph.unary leaky_relu %d {alpha = 0.1 : f32} : tensor<4x16xf32> loc("LeakyRelu_5")
  return %l : tensor<4x16xf32>
}

// Residual block: conv2(relu(conv1(x))) + x, then relu.
// CHECK-LABEL: func.func @residual
// CHECK: graph.conv2d {{.*}}accel.fusion = #accel.fusion<steps = [relu], fused = ["Relu_1"]>
// CHECK: graph.conv2d {{.*}}accel.fusion = #accel.fusion<steps = [residual, relu], fused = ["Add_3", "Relu_4"]>
// CHECK: graph.add {{.*}}accel.fused
// NOACT-LABEL: func.func @residual
// NOACT: graph.conv2d
// NOACT-NOT: accel.fusion
// NOACT: graph.conv2d {{.*}}steps = [residual], fused = ["Add_3"]
// NOACT: graph.relu
// NOACT-NOT: accel.fused
// NOACT: return
// NORES-LABEL: func.func @residual
// NORES: graph.conv2d {{.*}}steps = [relu]
// NORES: graph.conv2d
// NORES-NOT: accel.fusion
// NORES: graph.add
// NORES-NOT: accel.fused
// NORES: graph.relu
func.func @residual(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<4x4x3x3xf32>
  %c1 = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %r1 = graph.relu %c1 : tensor<1x4x4x4xf32> loc("Relu_1")
  %c2 = graph.conv2d %r1, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %s = graph.add %c2, %x : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("Add_3")
  %y = graph.relu %s : tensor<1x4x4x4xf32> loc("Relu_4")
  return %y : tensor<1x4x4x4xf32>
}

// Negative cases. A chain value with two users stops the chain (the relu
// result must reach memory anyway, so the relu is fused but not the sigmoid).
// CHECK-LABEL: func.func @two_users
// CHECK: graph.conv2d {{.*}}steps = [relu], fused = ["Relu_1"]
// CHECK: graph.unary sigmoid
// CHECK-NOT: accel.fused
func.func @two_users(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<3x2x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = graph.relu %c : tensor<1x3x4x4xf32> loc("Relu_1")
  %s = graph.unary sigmoid %r : tensor<1x3x4x4xf32>
  return %r, %s : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// A producer with two users fuses nothing.
// CHECK-LABEL: func.func @producer_two_users
// CHECK-NOT: accel.fus
func.func @producer_two_users(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<3x2x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = graph.relu %c : tensor<1x3x4x4xf32>
  return %c, %r : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// Mul by a non-constant tensor and add of a same-shape value defined after
// the producer are not epilogue steps (an add of a broadcast is:
// broadcast-residual.mlir).
// CHECK-LABEL: func.func @not_fusable
// CHECK-NOT: accel.fus
func.func @not_fusable(%x: tensor<1x2x4x4xf32>, %y: tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<3x2x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %m = graph.binary mul %c, %y : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c3 = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %later = graph.unary exp %y : tensor<1x3x4x4xf32>
  %b = graph.add %c3, %later : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %m, %b : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}
