func.func @f64_rejected(%a: tensor<2xf64>) -> tensor<2xf64> {
  %0 = graph.relu %a : tensor<2xf64>
  return %0 : tensor<2xf64>
}
