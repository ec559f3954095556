func.func @main(%x: tensor<1x2x5x4xf32> {accel.name = "x"}, %w: tensor<4x2x3x3xf32> {accel.name = "w"})
    -> (tensor<1x4x5x4xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x5x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x5x4xf32>
  return %y : tensor<1x4x5x4xf32>
}
