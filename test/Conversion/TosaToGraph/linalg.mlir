// RUN: accel-opt %s --convert-tosa-linalg-to-graph --split-input-file | FileCheck %s

// linalg.matmul with a zero-filled init -> graph.matmul.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4x5xf32>)
// CHECK-NEXT:    %[[C:.*]] = graph.matmul %[[A]], %[[B]] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    return %[[C]]
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%f : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A non-zero init accumulates: graph.add of the init.
// CHECK-LABEL: func.func @matmul_accumulate
// CHECK-SAME:    (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<4x5xf32>, %[[C:.*]]: tensor<3x5xf32>)
// CHECK-NEXT:    %[[P:.*]] = graph.matmul %[[A]], %[[B]]
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[P]], %[[C]] : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    return %[[S]]
func.func @matmul_accumulate(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%c : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A fill with a non-zero constant becomes a splat constant that is added.
// CHECK-LABEL: func.func @matmul_fill_one
// CHECK:         %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<3x5xf32>
// CHECK:         %[[P:.*]] = graph.matmul
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[P]], %[[ONE]]
// CHECK-NEXT:    return %[[S]]
func.func @matmul_fill_one(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%f : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// matmul with indexing maps that transpose B (torch-mlir's
// matmul_transpose_b form) -> graph.gemm; the init becomes C.
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK-SAME:    (%[[A:.*]]: tensor<3x4xf32>, %[[B:.*]]: tensor<5x4xf32>, %[[C:.*]]: tensor<3x5xf32>)
// CHECK-NEXT:    %[[G:.*]] = graph.gemm %[[A]], %[[B]], %[[C]] {trans_b = true} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    return %[[G]]
func.func @matmul_transpose_b(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>, %c: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<3x4xf32>, tensor<5x4xf32>) outs(%c : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK-NEXT:    %[[C:.*]] = graph.matmul %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:    return %[[C]]
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%f : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// conv_2d_nchw_fchw: the zero tensor.pad before it folds into pads
// [top, left, bottom, right]; strides / dilations come from the attributes.
// CHECK-LABEL: func.func @conv_nchw_padded
// CHECK-SAME:    (%[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<16x3x3x3xf32>)
// CHECK-NEXT:    %[[Y:.*]] = graph.conv2d %[[X]], %[[W]] {dilations = array<i64: 1, 2>, pads = array<i64: 1, 2, 0, 3>, strides = array<i64: 2, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x4x9xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK-NOT:     tensor.pad
func.func @conv_nchw_padded(%x: tensor<1x3x8x8xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<1x16x4x9xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 2] high[0, 0, 0, 3] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x3x8x8xf32> to tensor<1x3x9x13xf32>
  %e = tensor.empty() : tensor<1x16x4x9xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x9xf32>) -> tensor<1x16x4x9xf32>
  %0 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%p, %w : tensor<1x3x9x13xf32>, tensor<16x3x3x3xf32>) outs(%f : tensor<1x16x4x9xf32>) -> tensor<1x16x4x9xf32>
  return %0 : tensor<1x16x4x9xf32>
}

// -----

// Without pad and strides / dilations attributes (defaults 1); a bias
// broadcast with linalg.broadcast along N, H, W becomes the conv bias.
// CHECK-LABEL: func.func @conv_nchw_bias
// CHECK-SAME:    (%[[X:.*]]: tensor<1x3x5x5xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[Y:.*]] = graph.conv2d %[[X]], %[[W]], %[[B]] : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @conv_nchw_bias(%x: tensor<1x3x5x5xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x3x3xf32>) dimensions = [0, 2, 3]
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>) outs(%bb : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// Any other init is added after the convolution.
// CHECK-LABEL: func.func @conv_nchw_init
// CHECK-NEXT:    %[[Y:.*]] = graph.conv2d %arg0, %arg1 :
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[Y]], %arg2 : (tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
// CHECK-NEXT:    return %[[S]]
func.func @conv_nchw_init(%x: tensor<1x3x5x5xf32>, %w: tensor<4x3x3x3xf32>, %init: tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// NHWC convolutions (what tosa-to-linalg-named emits) get layout transposes.
// CHECK-LABEL: func.func @conv_nhwc_fhwc
// CHECK-SAME:    (%[[X:.*]]: tensor<1x5x5x3xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>)
// CHECK-NEXT:    %[[XT:.*]] = graph.transpose %[[X]] [0, 3, 1, 2] : (tensor<1x5x5x3xf32>) -> tensor<1x3x5x5xf32>
// CHECK-NEXT:    %[[WT:.*]] = graph.transpose %[[W]] [0, 3, 1, 2] : (tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv2d %[[XT]], %[[WT]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
// CHECK-NEXT:    %[[YT:.*]] = graph.transpose %[[Y]] [0, 2, 3, 1] : (tensor<1x4x5x5xf32>) -> tensor<1x5x5x4xf32>
// CHECK-NEXT:    return %[[YT]]
func.func @conv_nhwc_fhwc(%x: tensor<1x5x5x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x5x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x5x5x3xf32> to tensor<1x7x7x3xf32>
  %e = tensor.empty() : tensor<1x5x5x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x7x7x3xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  return %0 : tensor<1x5x5x4xf32>
}

// -----

// HWCF filter -> OIHW; the bias broadcast that tosa-to-linalg emits as a
// linalg.generic copy is recognised as well.
// CHECK-LABEL: func.func @conv_nhwc_hwcf
// CHECK-SAME:    (%[[X:.*]]: tensor<1x4x4x2xf32>, %[[W:.*]]: tensor<3x3x2x5xf32>, %[[B:.*]]: tensor<5xf32>)
// CHECK-NEXT:    %[[XT:.*]] = graph.transpose %[[X]] [0, 3, 1, 2]
// CHECK-NEXT:    %[[WT:.*]] = graph.transpose %[[W]] [3, 2, 0, 1] : (tensor<3x3x2x5xf32>) -> tensor<5x2x3x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv2d %[[XT]], %[[WT]], %[[B]] : (tensor<1x2x4x4xf32>, tensor<5x2x3x3xf32>, tensor<5xf32>) -> tensor<1x5x2x2xf32>
// CHECK-NEXT:    %[[YT:.*]] = graph.transpose %[[Y]] [0, 2, 3, 1]
// CHECK-NEXT:    return %[[YT]]
#bias = affine_map<(d0, d1, d2, d3) -> (d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_nhwc_hwcf(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x5xf32>, %b: tensor<5xf32>) -> tensor<1x2x2x5xf32> {
  %e = tensor.empty() : tensor<1x2x2x5xf32>
  %bb = linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<5xf32>) outs(%e : tensor<1x2x2x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2x5xf32>
  %0 = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x4x4x2xf32>, tensor<3x3x2x5xf32>) outs(%bb : tensor<1x2x2x5xf32>) -> tensor<1x2x2x5xf32>
  return %0 : tensor<1x2x2x5xf32>
}

// -----

// linalg.add, linalg.transpose, linalg.max with a zero fill (either side).
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.relu %[[S]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R2:.*]] = graph.relu %[[R]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %[[R2]] [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    return %[[T]]
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = linalg.max ins(%0, %z : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = linalg.max ins(%z, %1 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<3x2xf32>
  %3 = linalg.transpose ins(%2 : tensor<2x3xf32>) outs(%e2 : tensor<3x2xf32>) permutation = [1, 0]
  return %3 : tensor<3x2xf32>
}

// -----

// Elementwise linalg.generic: ReLU (max(min(x, FLT_MAX), 0), as
// tosa-to-linalg lowers a clamp) and addition with numpy-style broadcast
// operands (dropped leading dims, size-1 dims read at index 0).
// CHECK-LABEL: func.func @generics
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>, %[[V:.*]]: tensor<4xf32>, %[[U:.*]]: tensor<1x3x1xf32>)
// CHECK-NEXT:    %[[R:.*]] = graph.relu %[[X]] : tensor<2x3x4xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[R]], %[[V]] : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %[[S2:.*]] = graph.add %[[U]], %[[S]] : (tensor<1x3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    return %[[S2]]
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#last = affine_map<(d0, d1, d2) -> (d2)>
#mid = affine_map<(d0, d1, d2) -> (0, d1, 0)>
func.func @generics(%x: tensor<2x3x4xf32>, %v: tensor<4xf32>, %u: tensor<1x3x1xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %0 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %max = arith.constant 3.40282347E+38 : f32
    %a = arith.minimumf %in, %max : f32
    %b = arith.maximumf %a, %zero : f32
    linalg.yield %b : f32
  } -> tensor<2x3x4xf32>
  %1 = linalg.generic {indexing_maps = [#id3, #last, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%0, %v : tensor<2x3x4xf32>, tensor<4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  %2 = linalg.generic {indexing_maps = [#mid, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%u, %1 : tensor<1x3x1xf32>, tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in2, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  return %2 : tensor<2x3x4xf32>
}

// -----

// tensor.expand_shape / collapse_shape -> graph.reshape; a fill that
// survives becomes a splat constant.
// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[E:.*]] = graph.reshape %arg0 : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[F:.*]] = graph.reshape %arg1 : (tensor<2x2x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    return %[[E]], %[[F]], %[[C]]
func.func @reshapes(%a: tensor<6xf32>, %b: tensor<2x2x2xf32>) -> (tensor<2x3xf32>, tensor<4x2xf32>, tensor<4xf32>) {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  %1 = tensor.collapse_shape %b [[0, 1], [2]] : tensor<2x2x2xf32> into tensor<4x2xf32>
  %c = arith.constant 2.5 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %f : tensor<2x3xf32>, tensor<4x2xf32>, tensor<4xf32>
}
