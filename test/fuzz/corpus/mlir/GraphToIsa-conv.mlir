func.func @main(%x: tensor<1x2x7x5xf32> {accel.name = "x"}) -> (tensor<1x3x4x3xf32> {accel.name = "y"}) {
  %w = arith.constant dense<0.5> : tensor<3x2x3x3xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x7x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x4x3xf32>
  return %y : tensor<1x3x4x3xf32>
}
