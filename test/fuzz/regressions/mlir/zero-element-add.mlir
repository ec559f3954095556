func.func @main(%a: tensor<0x3xf32>, %b: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0 = graph.add %a, %b : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}
