func.func @ops(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4xf32>,
               %x: tensor<1x4x7x5xf32>, %w: tensor<6x2x3x3xf32>, %bias: tensor<6xf32>,
               %bt: tensor<4x3xf32>, %x2: tensor<5x4x2xf32>) -> tensor<2x4xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = graph.gemm %a, %bt, %c {alpha = 0.5 : f32, trans_b = true} : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = graph.add %0, %1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = graph.relu %2 : tensor<2x4xf32>
  %4 = graph.conv2d %x, %w, %bias {groups = 2, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x7x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x3xf32>
  %5 = graph.matmul %c, %x2 : (tensor<4xf32>, tensor<5x4x2xf32>) -> tensor<5x2xf32>
  return %3 : tensor<2x4xf32>
}
