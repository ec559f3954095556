func.func @main(%x: tensor<1x2x9x6xf32> {accel.name = "x"}, %w: tensor<2x1x3x3xf32> {accel.name = "w"}, %b: tensor<2xf32> {accel.name = "b"}) -> (tensor<1x2x9x6xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w, %b {groups = 2, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x9x6xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x9x6xf32>
  %r = graph.relu %y : tensor<1x2x9x6xf32>
  return %r : tensor<1x2x9x6xf32>
}
