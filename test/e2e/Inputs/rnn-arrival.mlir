func.func @main(%x: tensor<6x1x32xf32> {accel.name = "x"}, %w: tensor<1x128x32xf32> {accel.name = "w"}, %r: tensor<1x128x32xf32> {accel.name = "r"}) -> (tensor<1x1x32xf32> {accel.name = "h"}) {
  %y, %h, %c = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 32 : i64, accel.arrival = 50000 : i64} : (tensor<6x1x32xf32>, tensor<1x128x32xf32>, tensor<1x128x32xf32>) -> (tensor<6x1x1x32xf32>, tensor<1x1x32xf32>, tensor<1x1x32xf32>)
  return %h : tensor<1x1x32xf32>
}
