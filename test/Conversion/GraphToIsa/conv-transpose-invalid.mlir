// RUN: accel-opt --convert-graph-to-isa %s -verify-diagnostics

// Overlapping taps (3x3 stride 2) go through the zero-stuffed conv, whose
// padding d * (k - 1) - p cannot be negative: pads larger than
// dilation * (kernel - 1) are refused there. (Non-overlapping taps accept
// any pads: conv-transpose.mlir.)
func.func @main(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x4x7xf32> {
  // expected-error @+1 {{pads larger than dilation * (kernel - 1) are not supported}}
  %y = graph.conv_transpose2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 3, 0, 0, 0>} : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x7xf32>
  return %y : tensor<1x1x4x7xf32>
}
