func.func @f(%x: tensor<1x2x5x5xf32>, %a: tensor<3x4xf32>, %b: tensor<4xf32>) {
  %0 = graph.unary leaky_relu %a {alpha = 0.1 : f32} : tensor<3x4xf32>
  %1 = graph.binary less %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xi1>
  %2 = graph.where %1, %a, %b : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %3 = graph.reduce argmax %a {axes = array<i64: 1>, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xi64>
  %4 = graph.pool2d max %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32>
  %5 = graph.concat %a, %a {axis = 0} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<6x4xf32>
  %6 = graph.slice %a {offsets = array<i64: 2, 0>, strides = array<i64: -1, 2>} : (tensor<3x4xf32>) -> tensor<3x2xf32>
  %7 = graph.pad %a mode reflect {pads = array<i64: 1, 0, 1, 2>} : (tensor<3x4xf32>) -> tensor<5x6xf32>
  %8 = graph.softmax %a {axis = 1} : tensor<3x4xf32>
  %9 = graph.broadcast %b : (tensor<4xf32>) -> tensor<2x4xf32>
  return
}
