// RUN: accel-opt --depth-first-rows="slices=3 halos=true" -verify-diagnostics %s

// With halos, a chain's bands cut its result rows: a 7x7 stride-2 conv
// and a 3x3 stride-2 pool make 4 rows, which 3 bands do not cut evenly.
func.func @halo_rows(%x: tensor<1x1x16x16xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<2x1x7x7xf32>
  // expected-error @+1 {{depth-first-rows: slices=3 does not cut the 4 rows into bands of whole multiples of 1}}
  %c = graph.conv2d %x, %w {pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x1x16x16xf32>, tensor<2x1x7x7xf32>) -> tensor<1x2x8x8xf32>
  %p = graph.pool2d max %c {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  return %p : tensor<1x2x4x4xf32>
}
