func.func @main(%a: tensor<128x128xf32> {accel.name = "a"}, %b: tensor<128x128xf32> {accel.name = "b"})
    -> (tensor<128x128xf32> {accel.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
