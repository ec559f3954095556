func.func @main(%a: tensor<4x8xf32> {accel.name = "a"}, %b: tensor<8x8xf32> {accel.name = "b"})
    -> (tensor<4x8xf32> {accel.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
