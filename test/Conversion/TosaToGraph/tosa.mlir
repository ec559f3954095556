// RUN: accel-opt %s --convert-tosa-linalg-to-graph --split-input-file | FileCheck %s

// TOSA 1.0 matmul (3-D, zero points 0) -> graph.matmul.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3x4xf32>, %[[B:.*]]: tensor<2x4x5xf32>)
// CHECK-NEXT:    %[[C:.*]] = graph.matmul %[[A]], %[[B]] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:    return %[[C]]
func.func @matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// conv2d: NHWC input and OHWI weight transposed to NCHW / OIHW, pad
// [top, bottom, left, right] reordered to [top, left, bottom, right], the
// per-channel bias kept, the result transposed back to NHWC.
// CHECK-LABEL: func.func @conv2d
// CHECK-SAME:    (%[[X:.*]]: tensor<1x9x8x3xf32>, %[[W:.*]]: tensor<16x3x3x3xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK-NEXT:    %[[XT:.*]] = graph.transpose %[[X]] [0, 3, 1, 2] : (tensor<1x9x8x3xf32>) -> tensor<1x3x9x8xf32>
// CHECK-NEXT:    %[[WT:.*]] = graph.transpose %[[W]] [0, 3, 1, 2] : (tensor<16x3x3x3xf32>) -> tensor<16x3x3x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv2d %[[XT]], %[[WT]], %[[B]] {dilations = array<i64: 1, 2>, pads = array<i64: 1, 3, 1, 4>, strides = array<i64: 2, 1>} : (tensor<1x3x9x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x5x11xf32>
// CHECK-NEXT:    %[[YT:.*]] = graph.transpose %[[Y]] [0, 2, 3, 1] : (tensor<1x16x5x11xf32>) -> tensor<1x5x11x16xf32>
// CHECK-NEXT:    return %[[YT]]
func.func @conv2d(%x: tensor<1x9x8x3xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x5x11x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 1, 3, 4>, stride = array<i64: 2, 1>} : (tensor<1x9x8x3xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x11x16xf32>
  return %0 : tensor<1x5x11x16xf32>
}

// -----

// Constant weights are transposed at compile time; a zero bias disappears;
// the NCHW -> NHWC -> conv -> NCHW round trip of an NCHW model cancels.
// CHECK-LABEL: func.func @conv2d_nchw_model
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}0.000000e+00, 2.000000e+00], [4.000000e+00, 6.000000e+00]], {{\[\[}}1.000000e+00, 3.000000e+00], [5.000000e+00, 7.000000e+00]]]]> : tensor<1x2x2x2xf32>
// CHECK-NEXT:    %[[Y:.*]] = graph.conv2d %[[X]], %[[W]] : (tensor<1x2x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x3x3xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @conv2d_nchw_model(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // OHWI weight [1, 2, 2, 2]: w[0, h, w, i] = 4h + 2w + i.
  %w = "tosa.const"() <{values = dense<[[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]]> : tensor<1x2x2x2xf32>}> : () -> tensor<1x2x2x2xf32>
  %xt = tosa.transpose %x {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x4x4x2xf32>
  %y = tosa.conv2d %xt, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  %yt = tosa.transpose %y {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x3x3x1xf32>) -> tensor<1x1x3x3xf32>
  return %yt : tensor<1x1x3x3xf32>
}

// -----

// A single bias value for several output channels is added after the conv.
// CHECK-LABEL: func.func @conv2d_scalar_bias
// CHECK:         %[[Y:.*]] = graph.conv2d %{{[^,]*}}, %{{[^ ]*}} :
// CHECK-NEXT:    %[[YT:.*]] = graph.transpose %[[Y]] [0, 2, 3, 1]
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[YT]], %arg2 : (tensor<1x2x2x4xf32>, tensor<1xf32>) -> tensor<1x2x2x4xf32>
// CHECK-NEXT:    return %[[S]]
func.func @conv2d_scalar_bias(%x: tensor<1x2x2x3xf32>, %w: tensor<4x1x1x3xf32>, %b: tensor<1xf32>) -> tensor<1x2x2x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x3xf32>, tensor<4x1x1x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

// -----

// add (broadcasting), clamp-as-ReLU, maximum-with-zero as ReLU, constants.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<1x3xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[X]], %[[C]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[R1:.*]] = graph.relu %[[S]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R2:.*]] = graph.relu %[[R1]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R3:.*]] = graph.relu %[[R2]] : tensor<2x3xf32>
// CHECK-NEXT:    return %[[R3]]
func.func @elementwise(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>}> : () -> tensor<1x3xf32>
  %0 = tosa.add %x, %c : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 0x7F800000 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %3 = tosa.maximum %zero, %2 : (tensor<1x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}

// -----

// transpose, reshape (tosa.const_shape operand), identity.
// CHECK-LABEL: func.func @layout
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %[[X]] [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %[[T]] : (tensor<4x2x3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     tosa.
func.func @layout(%x: tensor<2x3x4xf32>) -> tensor<8x3xf32> {
  %0 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %s = tosa.const_shape {values = dense<[8, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.reshape %0, %s : (tensor<4x2x3xf32>, !tosa.shape<2>) -> tensor<8x3xf32>
  %2 = tosa.identity %1 : (tensor<8x3xf32>) -> tensor<8x3xf32>
  return %2 : tensor<8x3xf32>
}
