func.func @main(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> (tensor<3x5xf32>, tensor<5xf32>) {
  %0 = graph.add %a, %b : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0, %b : tensor<3x5xf32>, tensor<5xf32>
}
