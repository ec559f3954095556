// RUN: accel-opt --depth-first-rows=slices=3 -verify-diagnostics -split-input-file %s

// A forced band count must cut the rows into whole rows at every layer.
func.func @not_a_divisor(%x: tensor<1x2x8x4xf32>) -> tensor<1x2x32x16xf32> {
  %w = arith.constant dense<0.5> : tensor<2x2x2x2xf32>
  // expected-error @+1 {{depth-first-rows: slices=3 does not cut the 8 rows into bands of whole multiples of 1}}
  %t = graph.conv_transpose2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x2x8x4xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x16x8xf32>
  %u = graph.conv_transpose2d %t, %w {strides = array<i64: 2, 2>} : (tensor<1x2x16x8xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x32x16xf32>
  return %u : tensor<1x2x32x16xf32>
}

// -----

// A 3x3 stride-3 pool: bands must be multiples of 3 rows; 48 rows in 3
// bands of 16 are not.
func.func @pooled_rows(%x: tensor<1x2x48x6xf32>) -> tensor<1x2x16x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x2x1x1xf32>
  // expected-error @+1 {{depth-first-rows: slices=3 does not cut the 48 rows into bands of whole multiples of 3}}
  %p = graph.pool2d max %x {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>} : (tensor<1x2x48x6xf32>) -> tensor<1x2x16x2xf32>
  %y = graph.conv2d %p, %w : (tensor<1x2x16x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x16x2xf32>
  return %y : tensor<1x2x16x2xf32>
}

