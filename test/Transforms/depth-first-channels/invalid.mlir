// RUN: accel-opt --depth-first-channels=slices=3 -verify-diagnostics -split-input-file %s

// A forced slice count must divide the depthwise conv's channels.
func.func @not_a_divisor(%x: tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<4x2x1x1xf32>
  %wd = arith.constant dense<0.25> : tensor<4x1x3x3xf32>
  %e = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x4x4xf32>
  // expected-error @+1 {{depth-first-channels: slices=3 does not divide the 4 channels}}
  %d = graph.conv2d %e, %wd {groups = 4 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %d : tensor<1x4x4x4xf32>
}
