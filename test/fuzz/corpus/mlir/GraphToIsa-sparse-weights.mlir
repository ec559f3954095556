func.func @main(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %w = arith.constant dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0],
                             [0.0, 3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0],
                             [4.0, 0.0, 0.0, 0.0], [0.0, 0.0, 5.0, 0.0],
                             [0.0, 0.0, 0.0, 0.0], [6.0, 0.0, 0.0, 7.0]]> : tensor<8x4xf32>
  %y = graph.matmul %a, %w : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %r = graph.relu %y : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
