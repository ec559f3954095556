func.func @matmul_bad_result(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x6xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
