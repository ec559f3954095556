func.func @small(%x: tensor<1x8x6x6xf32> {accel.name = "x"}, %w: tensor<16x8x3x3xf32> {accel.name = "w"}, %b: tensor<16xf32> {accel.name = "b"}) -> (tensor<1x16x6x6xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w, %b {groups = 1, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x6x6xf32>
  %r = graph.relu %y : tensor<1x16x6x6xf32>
  return %r : tensor<1x16x6x6xf32>
}

func.func @split(%x: tensor<1x300x4x4xf32> {accel.name = "x"}, %w: tensor<40x300x3x3xf32> {accel.name = "w"}) -> (tensor<1x40x4x4xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {groups = 1, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x300x4x4xf32>, tensor<40x300x3x3xf32>) -> tensor<1x40x4x4xf32>
  return %y : tensor<1x40x4x4xf32>
}

func.func @grouped(%x: tensor<1x8x6x6xf32> {accel.name = "x"}, %w: tensor<8x4x3x3xf32> {accel.name = "w"}) -> (tensor<1x8x6x6xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {groups = 2, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
