func.func @main(%a: tensor<256x64xf32> {accel.name = "a"}, %b: tensor<64x256xf32> {accel.name = "b"})
    -> (tensor<256x256xf32> {accel.name = "c"}) {
  %0 = graph.matmul %a, %b {accel.tiling = {outer = "n", partition_m = 64 : i64, partition_n = 64 : i64, partition_k = 64 : i64}} : (tensor<256x64xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
