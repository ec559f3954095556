// RUN: accel-opt %s -split-input-file -verify-diagnostics
//
// A malformed or inconsistent accel.* attribute is a verifier error naming
// the op and the field (before any pass runs).

// Yesterday's dictionary form is not silently ignored any more.
func.func @tiling_dictionary(%a: tensor<256x64xf32>, %b: tensor<64x256xf32>) -> tensor<256x256xf32> {
  // expected-error @+1 {{'graph.matmul' op accel.tiling: expected an #accel.tiling<...> attribute, got {outer = "n", partition_k = 64 : i64, partition_m = 64 : i64, partition_n = 64 : i64}}}
  %0 = graph.matmul %a, %b {accel.tiling = {outer = "n", partition_m = 64 : i64, partition_n = 64 : i64, partition_k = 64 : i64}} : (tensor<256x64xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// -----

func.func @mapping_string(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{'graph.conv2d' op accel.mapping: expected an #accel.mapping<...> attribute, got "output_stationary"}}
  %0 = graph.conv2d %x, %w {accel.mapping = "output_stationary"}
      : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

func.func @tiling_on_relu(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.relu' op accel.tiling applies to graph.matmul, graph.gemm and graph.conv2d only}}
  %0 = graph.relu %a {accel.tiling = #accel.tiling<partition_m = 4, partition_n = 8, partition_k = 8, outer = m>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @mapping_on_relu(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.relu' op accel.mapping applies to graph.matmul, graph.gemm and graph.conv2d only}}
  %0 = graph.relu %a {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [M, N]>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @partition_exceeds_m(%a: tensor<256x64xf32>, %b: tensor<64x128xf32>) -> tensor<256x128xf32> {
  // expected-error @+1 {{'graph.matmul' op accel.tiling: partition_m = 512 exceeds the GEMM's m = 256}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 512, partition_n = 64, partition_k = 64, outer = m>} : (tensor<256x64xf32>, tensor<64x128xf32>) -> tensor<256x128xf32>
  return %0 : tensor<256x128xf32>
}

// -----

func.func @partition_exceeds_n(%a: tensor<64x32xf32>, %b: tensor<32x96xf32>, %c: tensor<96xf32>) -> tensor<64x96xf32> {
  // expected-error @+1 {{'graph.gemm' op accel.tiling: partition_n = 128 exceeds the GEMM's n = 96}}
  %0 = graph.gemm %a, %b, %c {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 128, partition_k = 32, outer = m>} : (tensor<64x32xf32>, tensor<32x96xf32>, tensor<96xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}

// -----

// conv2d: the implicit GEMM's k is C/groups * KH * KW = 8 * 3 * 3 = 72.
func.func @partition_exceeds_conv_k(%x: tensor<1x8x6x6xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x4x4xf32> {
  // expected-error @+1 {{'graph.conv2d' op accel.tiling: partition_k = 128 exceeds the GEMM's k = 72}}
  %0 = graph.conv2d %x, %w {accel.tiling = #accel.tiling<partition_m = 16, partition_n = 16, partition_k = 128, outer = m>}
      : (tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x4x4xf32>
  return %0 : tensor<1x16x4x4xf32>
}

// -----

func.func @split_k_inconsistent(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'graph.matmul' op accel.tiling: split_k = false contradicts partition_k = 64 and the GEMM's k = 256 (split_k means partition_k < k)}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = m, split_k = false>} : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @partition_zero(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{accel.tiling: partition_n must be >= 1, got 0}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 0, partition_k = 64, outer = m>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @tile_exceeds_partition(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{accel.tiling: tile_m = 128 exceeds its partition (64)}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = m, tile_m = 128>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @util_out_of_range(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{accel.tiling: util must be in [0, 1], got 1.5}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = m, util = 1.5>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @loads_negative(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{accel.tiling: loads_a must be >= 0, got -1}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = m, loads_a = -1>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @bad_outer(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+2 {{expected ::accel::OuterLoop to be one of: m, n}}
  // expected-error @+1 {{failed to parse Accel_TilingAttr parameter 'outer'}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = k>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @bad_strategy(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+2 {{strategy must be resident_a, resident_b, reload_a, reload_b or split_k, got 'resident'}}
  // expected-error @+1 {{failed to parse Accel_TilingAttr parameter 'strategy'}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = m, strategy = resident>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @missing_partition(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{struct is missing required parameter: partition_k}}
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, outer = m>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

func.func @bad_dataflow(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{dataflow must be input_stationary, output_stationary or weight_stationary, got 'row_stationary'}}
  // expected-error @+1 {{failed to parse Accel_MappingAttr parameter 'dataflow'}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<dataflow = row_stationary, array = [M, N]>}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @bad_split(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{expected ::accel::ArraySplit to be one of: M, N, K, none}}
  // expected-error @+1 {{failed to parse Accel_MappingAttr parameter 'cols'}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<dataflow = input_stationary, array = [M, X]>}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @three_splits(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expected ']'}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<dataflow = input_stationary, array = [M, N, K]>}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @mapping_negative_cycles(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{accel.mapping: cycles must be >= 0, got -5}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<dataflow = input_stationary, array = [M, N], cycles = -5>}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// accel.parallel (split-strategy parallel=best's choice) names a database
// mode, not the option value that chose it.
func.func @parallel_not_a_mode(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.matmul' op accel.parallel: expected one of "model", "data", "hybrid", got "best"}}
  %0 = graph.matmul %a, %b {accel.parallel = "best"}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @parallel_not_gemm(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.relu' op accel.parallel applies to graph.matmul, graph.gemm and graph.conv2d only}}
  %0 = graph.relu %a {accel.parallel = "data"} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @unknown_attr(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.relu' op unknown attribute 'accel.tilling' of the accel dialect (known: accel.tiling, accel.mapping, accel.hw, accel.name, accel.label on arguments, accel.labels, accel.parallel, accel.fusion, accel.fused, accel.row_band, accel.rnn_parallelism, accel.rnn_threads, accel.arrival)}}
  %0 = graph.relu %a {accel.tilling = 1 : i64} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// expected-error @+1 {{'func.func' op accel.name: expected a string, got 3 : i64}}
func.func @name_not_string(%a: tensor<4x8xf32> {accel.name = 3 : i64}) -> tensor<4x8xf32> {
  return %a : tensor<4x8xf32>
}

// -----

func.func @hw_on_op(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'graph.relu' op accel.hw belongs on the module, not on an op}}
  %0 = graph.relu %a {accel.hw = 1 : i64} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
