// split-strategy needs the labels of tensor-labeling.
// RUN: accel-opt --split-strategy %s -verify-diagnostics

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'graph.matmul' op split-strategy: operand 0 has no accel label (run tensor-labeling first)}}
  %y = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
