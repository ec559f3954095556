// RUN: accel-opt %s -split-input-file -verify-diagnostics

// Result types are inferred (InferTypeOpInterface): operands that admit no
// result give the reason and "failed to infer returned types"; a result type
// other than the inferred one is "incompatible".

func.func @matmul_k_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{contracting dimensions differ}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Contractions over an empty dimension are refused (the GEMM kernels' tiling
// divided by the zero extent: SIGFPE in accel-opt --convert-graph-to-isa).
func.func @matmul_empty_k(%a: tensor<4x0xf32>, %b: tensor<0x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{matmul operands [4,0] and [0,5] have a zero-sized dimension (empty tensors are not supported)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<4x0xf32>, tensor<0x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @gemm_empty_m(%a: tensor<0x3xf32>, %b: tensor<3x5xf32>) -> tensor<0x5xf32> {
  // expected-error @+2 {{gemm operands [0,3] and [3,5] have a zero-sized dimension}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gemm %a, %b : (tensor<0x3xf32>, tensor<3x5xf32>) -> tensor<0x5xf32>
  return %0 : tensor<0x5xf32>
}

// -----

func.func @conv_empty_weight(%x: tensor<1x3x8x8xf32>, %w: tensor<0x3x3x3xf32>) -> tensor<1x0x6x6xf32> {
  // expected-error @+2 {{conv2d operands [1,3,8,8] and [0,3,3,3] have a zero-sized dimension}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<0x3x3x3xf32>) -> tensor<1x0x6x6xf32>
  return %0 : tensor<1x0x6x6xf32>
}

// -----

func.func @matmul_bad_result(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{'graph.matmul' op inferred type(s) 'tensor<2x5xf32>' are incompatible with return type(s) of operation 'tensor<2x6xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @add_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gemm_bad_c(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{gemm C [3] does not broadcast to [2,4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @conv_groups(%x: tensor<1x3x5x5xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32> {
  // expected-error @+2 {{groups (2) must divide input channels and output channels}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w {groups = 2} : (tensor<1x3x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

func.func @conv_kernel_too_big(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
  // expected-error @+2 {{kernel is larger than the padded input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.conv2d %x, %w : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %0 : tensor<1x1x1x1xf32>
}

// -----

func.func @f64_rejected(%a: tensor<2xf64>) -> tensor<2xf64> {
  // expected-error @+1 {{must be ranked tensor of 32-bit float values}}
  %0 = graph.relu %a : tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @comparison_is_i1(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.binary less %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @argmax_is_i64(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<3xi64>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.reduce argmax %a {axes = array<i64: 1>, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @argmax_one_axis(%a: tensor<3x4xf32>) -> tensor<i64> {
  // expected-error @+1 {{argmax / argmin reduce exactly one axis}}
  %0 = graph.reduce argmax %a {axes = array<i64: 0, 1>, keepdims = false} : (tensor<3x4xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @transpose_not_a_permutation(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+2 {{perm is not a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %a [0, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @transpose_wrong_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<3x2xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.transpose %a [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @where_broadcast(%c: tensor<2xi1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{shapes [2] and [3] do not broadcast}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.where %c, %a, %a : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @pool_wrong_result(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<1x2x2x2xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pool2d max %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

func.func @concat_dims_differ(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{inputs differ in dimension 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @pad_entries(%a: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{pads needs 2 entries per dimension}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.pad %a {pads = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @tile_wrong_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<4x3xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = graph.tile %a {repeats = array<i64: 2, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Sizes computed in int64 with overflow checks (found by probing,
// 2026-12-07): each of these wrapped around and verified.

func.func @slice_stride_wraps(%x: tensor<8x4xf32>) -> tensor<5x4xf32> {
  // 4 x 2^62 wrapped to 0: the slice read row 0 five times.
  // expected-error @+1 {{slice of dimension 0 leaves the input}}
  %y = graph.slice %x {offsets = array<i64: 0, 0>, strides = array<i64: 4611686018427387904, 1>} : (tensor<8x4xf32>) -> tensor<5x4xf32>
  return %y : tensor<5x4xf32>
}

// -----

func.func @pad_sum_wraps(%x: tensor<8x4xf32>) -> tensor<9x4xf32> {
  // expected-error @+2 {{pads of dimension 0 give no valid size}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = graph.pad %x {pads = array<i64: 9223372036854775807, 0, -9223372036854775806, 0>} : (tensor<8x4xf32>) -> tensor<9x4xf32>
  return %y : tensor<9x4xf32>
}

// -----

func.func @tile_negative_repeats(%x: tensor<2x4xf32>) -> tensor<0x4xf32> {
  // 2 x -2^63 wrapped to 0.
  // expected-error @+2 {{repeats of dimension 0 (-9223372036854775808) must be >= 0 and keep the size in int64}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = graph.tile %x {repeats = array<i64: -9223372036854775808, 1>} : (tensor<2x4xf32>) -> tensor<0x4xf32>
  return %y : tensor<0x4xf32>
}

// -----

func.func @tile_size_overflows(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{repeats of dimension 0 (4611686018427387904) must be >= 0 and keep the size in int64}}
  // expected-error @+1 {{failed to infer returned types}}
  %y = graph.tile %x {repeats = array<i64: 4611686018427387904, 1>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

func.func @relu_type_changes(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "graph.relu"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @rnn_hidden_size(%x: tensor<2x1x3xf32>, %w: tensor<1x0x3xf32>, %r: tensor<1x0x0xf32>)
    -> (tensor<2x1x1x0xf32>, tensor<1x1x0xf32>, tensor<1x1x0xf32>) {
  // expected-error @+2 {{hidden_size must be >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h, %c = graph.recurrent rnn %x, %w, %r {hidden_size = 0 : i64, direction = "forward", activations = ["Tanh"]}
      : (tensor<2x1x3xf32>, tensor<1x0x3xf32>, tensor<1x0x0xf32>) -> (tensor<2x1x1x0xf32>, tensor<1x1x0xf32>, tensor<1x1x0xf32>)
  return %y, %h, %c : tensor<2x1x1x0xf32>, tensor<1x1x0xf32>, tensor<1x1x0xf32>
}
