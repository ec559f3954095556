// An input whose byte size (2^62 f32) overflows 64 bits (accel-compile.test).
func.func @main(%a: tensor<4611686018427387904xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
