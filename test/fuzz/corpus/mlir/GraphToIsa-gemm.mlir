func.func @main(%a: tensor<4x3xf32>, %b: tensor<5x4xf32>, %c: tensor<1x5xf32>) -> tensor<3x5xf32> {
  %y = graph.gemm %a, %b, %c {alpha = 0.25 : f32, beta = 0.35 : f32, trans_a = true, trans_b = true}
      : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<1x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
