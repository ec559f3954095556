// RUN: accel-opt --fuse-layers %s | FileCheck %s
// RUN: accel-opt --fuse-layers=activations=false %s | FileCheck %s --check-prefix=NOACT

// The FPN text detector's head: conv_transpose2d (BN folded) + relu, then
// conv_transpose2d + sigmoid: each activation is its producer's epilogue.
// CHECK-LABEL: func.func @head
// CHECK: graph.conv_transpose2d {{.*}}accel.fusion = #accel.fusion<steps = [relu], fused = ["Relu_1"]>
// CHECK: graph.relu {{.*}}accel.fused
// CHECK: graph.conv_transpose2d {{.*}}accel.fusion = #accel.fusion<steps = [sigmoid, scale(2.000000e+00)], fused = ["Sigmoid_2", "Mul_3"]>
// CHECK: graph.unary sigmoid {{.*}}accel.fused
// NOACT-LABEL: func.func @head
// NOACT-NOT: accel.fus
func.func @head(%x: tensor<1x4x3x3xf32>) -> tensor<1x1x12x12xf32> {
  %w = arith.constant dense<1.0> : tensor<4x4x2x2xf32>
  %b = arith.constant dense<0.5> : tensor<4xf32>
  %w2 = arith.constant dense<1.0> : tensor<4x1x2x2xf32>
  %two = arith.constant dense<2.0> : tensor<f32>
  %c = graph.conv_transpose2d %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.relu %c : tensor<1x4x6x6xf32> loc("Relu_1")
  %d = graph.conv_transpose2d %r, %w2 {strides = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>, tensor<4x1x2x2xf32>) -> tensor<1x1x12x12xf32>
  %s = graph.unary sigmoid %d : tensor<1x1x12x12xf32> loc("Sigmoid_2")
  %y = graph.binary mul %s, %two : (tensor<1x1x12x12xf32>, tensor<f32>) -> tensor<1x1x12x12xf32> loc("Mul_3")
  return %y : tensor<1x1x12x12xf32>
}

// A residual add (the other operand defined before the producer) and an
// overlapping kernel (3x3 stride 2: lowered through zero-stuffing, the
// chain becomes one SFU pass there) are fused the same way.
// CHECK-LABEL: func.func @residual_overlap
// CHECK: graph.conv_transpose2d {{.*}}accel.fusion = #accel.fusion<steps = [residual, relu], fused = ["Add_1", "Relu_2"]>
// NOACT-LABEL: func.func @residual_overlap
// NOACT: graph.conv_transpose2d {{.*}}accel.fusion = #accel.fusion<steps = [residual], fused = ["Add_1"]>
func.func @residual_overlap(%x: tensor<1x2x3x3xf32>, %skip: tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32> {
  %w = arith.constant dense<1.0> : tensor<2x2x3x3xf32>
  %c = graph.conv_transpose2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  %a = graph.add %c, %skip : (tensor<1x2x7x7xf32>, tensor<1x2x7x7xf32>) -> tensor<1x2x7x7xf32> loc("Add_1")
  %y = graph.relu %a : tensor<1x2x7x7xf32> loc("Relu_2")
  return %y : tensor<1x2x7x7xf32>
}

// A second user of the transposed conv's result: nothing fused.
// CHECK-LABEL: func.func @two_users
// CHECK-NOT: accel.fus
func.func @two_users(%x: tensor<1x2x3x3xf32>) -> (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %w = arith.constant dense<1.0> : tensor<2x2x2x2xf32>
  %c = graph.conv_transpose2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x6x6xf32>
  %y = graph.relu %c : tensor<1x2x6x6xf32>
  return %y, %c : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}
