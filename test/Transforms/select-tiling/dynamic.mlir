// RUN: accel-opt --select-tiling %s -split-input-file -verify-diagnostics
//
// A dynamic dimension reached the tiling as a size of -1 and was reported
// as "count must be >= 1" (until 2026-12-07); the error now names the
// operand and says what to do.

func.func @dynamic_batch(%x: tensor<?x3x8x8xf32>) -> tensor<?x4x8x8xf32> {
  %w = arith.constant dense<1.0> : tensor<4x3x3x3xf32>
  // expected-error @+1 {{'graph.conv2d' op select-tiling: operand #0 has type 'tensor<?x3x8x8xf32>'; the accelerator needs static shapes (accel-compile --input-shape NAME=SHAPE fixes a model input's)}}
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32>
  return %y : tensor<?x4x8x8xf32>
}

// -----

func.func @dynamic_rows(%a: tensor<?x16xf32>, %b: tensor<16x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{select-tiling: operand #0 has type 'tensor<?x16xf32>'}}
  %y = graph.matmul %a, %b : (tensor<?x16xf32>, tensor<16x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
