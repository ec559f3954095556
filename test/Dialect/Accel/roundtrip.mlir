// RUN: accel-opt %s | FileCheck %s
// RUN: accel-opt %s | accel-opt | FileCheck %s
//
// The syntax of #accel.tiling and #accel.mapping: every field is printed
// back as written; the optional ones (the decision's figures, cycles) may be
// omitted and are then not printed.

// CHECK-LABEL: func.func @full
// CHECK: accel.mapping = #accel.mapping<dataflow = weight_stationary, array = [K, N], cycles = 1234>
// CHECK-SAME: accel.tiling = #accel.tiling<partition_m = 256, partition_n = 128, partition_k = 64, outer = n, tile_m = 128, tile_n = 64, split_k = true, acc_bytes = 131072, loads_a = 2, loads_b = 4, util = 7.500000e-01, cycles = 4096, strategy = split_k>
func.func @full(%a: tensor<256x1024xf32> {accel.name = "a"}, %b: tensor<1024x128xf32> {accel.name = "b"}) -> (tensor<256x128xf32> {accel.name = "c"}) {
  %0 = graph.matmul %a, %b {
      accel.tiling = #accel.tiling<partition_m = 256, partition_n = 128,
          partition_k = 64, outer = n, tile_m = 128, tile_n = 64,
          split_k = true, acc_bytes = 131072, loads_a = 2, loads_b = 4,
          util = 0.75, cycles = 4096, strategy = split_k>,
      accel.mapping = #accel.mapping<dataflow = weight_stationary, array = [K, N], cycles = 1234>}
      : (tensor<256x1024xf32>, tensor<1024x128xf32>) -> tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}

// Fields in any order; the optional ones left out.
// CHECK-LABEL: func.func @minimal
// CHECK: accel.mapping = #accel.mapping<dataflow = input_stationary, array = [none, M]>
// CHECK-SAME: accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = m>
func.func @minimal(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %x: tensor<1x8x6x6xf32>, %w: tensor<16x8x3x3xf32>, %c: tensor<64xf32>) -> (tensor<64x64xf32>, tensor<1x16x4x4xf32>) {
  %0 = graph.gemm %a, %b, %c {
      accel.tiling = #accel.tiling<outer = m, partition_k = 64, partition_m = 64, partition_n = 64>,
      accel.mapping = #accel.mapping<dataflow = input_stationary, array = [none, M]>}
      : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  // conv2d as implicit GEMM: m = 16 output channels, k = 8*3*3 = 72, n = 16 pixels.
  // CHECK: graph.conv2d {{.*}}accel.tiling = #accel.tiling<partition_m = 16, partition_n = 16, partition_k = 72, outer = m, strategy = resident_b>
  %1 = graph.conv2d %x, %w {accel.tiling = #accel.tiling<partition_m = 16, partition_n = 16, partition_k = 72, outer = m, strategy = resident_b>}
      : (tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x4x4xf32>
  return %0, %1 : tensor<64x64xf32>, tensor<1x16x4x4xf32>
}
