// RUN: accel-opt %s -canonicalize -split-input-file | FileCheck %s

// Folders and canonicalisation patterns of the graph dialect. ONNX Identity,
// Dropout (inference) and a Cast to the same type never reach the IR: the
// importer forwards the operand's value (test/Import/elementwise.test), and the
// graph dialect has no cast op (f32 <-> bool casts become graph.where /
// graph.binary equal). Squeeze, Unsqueeze and Flatten are imported as
// graph.reshape, so reshape-of-reshape covers their pairs. The IR-level
// identities are tested here, each with the cases that must not fire.

// ==== One spelling per operation

// CHECK-LABEL: func.func @binary_add_is_add
// CHECK-NEXT: %[[R:.*]] = graph.add %arg0, %arg1 {accel.name = "x"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @binary_add_is_add(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = graph.binary add %a, %b {accel.name = "x"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// An i64 add has no graph.add spelling (graph.add is f32 only).
// CHECK-LABEL: func.func @binary_add_i64_stays
// CHECK: graph.binary add
func.func @binary_add_i64_stays(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = graph.binary add %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @unary_relu_is_relu
// CHECK-NEXT: %[[R:.*]] = graph.relu %arg0 : tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @unary_relu_is_relu(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.unary relu %a : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Clip(x, 0, +inf) is a ReLU; Clip(x, 0, 6) and Clip(x, 0, FLT_MAX) are not
// (they change large / infinite inputs).
// CHECK-LABEL: func.func @clip_zero_inf_is_relu
// CHECK-NEXT: %[[R:.*]] = graph.relu %arg0
// CHECK-NEXT: graph.unary clip %arg0 {beta = 6.000000e+00 : f32}
// CHECK-NEXT: graph.unary clip %arg0 {beta = 3.40282347E+38 : f32}
func.func @clip_zero_inf_is_relu(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.unary clip %a {alpha = 0.0 : f32, beta = 0x7F800000 : f32} : tensor<4xf32>
  %1 = graph.unary clip %a {alpha = 0.0 : f32, beta = 6.0 : f32} : tensor<4xf32>
  %2 = graph.unary clip %a {alpha = 0.0 : f32, beta = 3.40282347E+38 : f32} : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// max(x, 0) with a zero splat is a ReLU when it does not broadcast x.
// CHECK-LABEL: func.func @max_zero_is_relu
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[NZ:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 0.000000e+00]> : tensor<3xf32>
// CHECK: %[[R0:.*]] = graph.relu %arg0 : tensor<2x3xf32>
// CHECK: %[[R1:.*]] = graph.relu %arg0 : tensor<2x3xf32>
// CHECK: %[[B:.*]] = graph.binary max %arg1, %[[Z]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[N:.*]] = graph.binary max %arg0, %[[NZ]]
// CHECK: return %[[R0]], %[[R1]], %[[B]], %[[N]]
func.func @max_zero_is_relu(%a: tensor<2x3xf32>, %b: tensor<3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %z = arith.constant dense<0.0> : tensor<f32>
  %zb = arith.constant dense<0.0> : tensor<2x3xf32>
  %nz = arith.constant dense<[0.0, 1.0, 0.0]> : tensor<3xf32>
  %0 = graph.binary max %a, %z : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = graph.binary max %z, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.binary max %b, %zb : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.binary max %a, %nz : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// ==== Neutral constants

// -----

// CHECK-LABEL: func.func @add_zero
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[NZ:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 0.000000e+00]> : tensor<3xf32>
// CHECK: %[[W:.*]] = graph.add %arg1, %[[Z]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[N:.*]] = graph.add %arg0, %[[NZ]]
// CHECK: return %arg0, %arg0, %arg0, %[[W]], %[[N]]
func.func @add_zero(%a: tensor<2x3xf32>, %b: tensor<3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %z = arith.constant dense<0.0> : tensor<3xf32>
  %nzero = arith.constant dense<-0.0> : tensor<1xf32>
  %zb = arith.constant dense<0.0> : tensor<2x3xf32>
  %nz = arith.constant dense<[0.0, 1.0, 0.0]> : tensor<3xf32>
  %0 = graph.add %a, %z : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %nzero, %a : (tensor<1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // graph.binary add becomes graph.add, which then folds.
  %2 = graph.binary add %a, %z : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // Must not fold: the zero broadcasts %b to a larger shape.
  %3 = graph.add %b, %zb : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // Must not fold: not a splat.
  %4 = graph.add %a, %nz : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// x - 0 folds; 0 - x is a negation and stays.
// CHECK-LABEL: func.func @sub_zero
// CHECK: %[[N:.*]] = graph.binary sub %{{.*}}, %arg0
// CHECK: return %arg0, %[[N]]
func.func @sub_zero(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %z = arith.constant dense<0.0> : tensor<f32>
  %0 = graph.binary sub %a, %z : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = graph.binary sub %z, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// x * 1, 1 * x and x / 1 fold; 1 / x, x * 2 and a broadcasting x * 1 stay.
// CHECK-LABEL: func.func @mul_div_one
// CHECK: %[[R:.*]] = graph.binary div %{{.*}}, %arg0
// CHECK: %[[T:.*]] = graph.binary mul %arg0, %{{.*}}
// CHECK: %[[W:.*]] = graph.binary mul %arg1, %{{.*}} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %arg0, %arg0, %arg0, %[[R]], %[[T]], %[[W]]
func.func @mul_div_one(%a: tensor<2x3xf32>, %b: tensor<3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %one = arith.constant dense<1.0> : tensor<f32>
  %two = arith.constant dense<2.0> : tensor<f32>
  %oneb = arith.constant dense<1.0> : tensor<2x3xf32>
  %0 = graph.binary mul %a, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = graph.binary mul %one, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.binary div %a, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = graph.binary div %one, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = graph.binary mul %a, %two : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %5 = graph.binary mul %b, %oneb : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// affine(alpha = 1, beta = 0) is the identity; other parameters stay.
// CHECK-LABEL: func.func @affine_identity
// CHECK: %[[A:.*]] = graph.unary affine %arg0 {alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32}
// CHECK: return %arg0, %[[A]]
func.func @affine_identity(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.unary affine %a {alpha = 1.0 : f32, beta = 0.0 : f32} : tensor<4xf32>
  %1 = graph.unary affine %a {alpha = 1.0 : f32, beta = 1.0 : f32} : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// ==== Layout

// -----

// CHECK-LABEL: func.func @reshape_same_type
// CHECK-NEXT: return %arg0
func.func @reshape_same_type(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.reshape %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Unsqueeze then flatten: one reshape of the original input.
// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_of_reshape(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.reshape %a : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %1 = graph.reshape %0 : (tensor<1x2x3x4xf32>) -> tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}

// -----

// An Unsqueeze / Squeeze pair cancels.
// CHECK-LABEL: func.func @squeeze_unsqueeze
// CHECK-NEXT: return %arg0
func.func @squeeze_unsqueeze(%a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = graph.reshape %a : (tensor<3x4xf32>) -> tensor<3x1x4xf32>
  %1 = graph.reshape %0 : (tensor<3x1x4xf32>) -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// A reshape with another user stays; the chain still skips it.
// CHECK-LABEL: func.func @reshape_shared
// CHECK-NEXT: %[[A:.*]] = graph.reshape %arg0 : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[B:.*]] = graph.reshape %arg0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @reshape_shared(%a: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3x2xf32>) {
  %0 = graph.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = graph.reshape %0 : (tensor<6xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<6xf32>, tensor<3x2xf32>
}

// -----

// A reshaped constant is a constant (same data, new type).
// CHECK-LABEL: func.func @reshape_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @reshape_constant() -> tensor<2x2xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = graph.reshape %c : (tensor<4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_identity
// CHECK-NEXT: return %arg0
func.func @transpose_identity(%a: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.transpose %a [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Inverse permutations cancel (NCHW -> NHWC -> NCHW).
// CHECK-LABEL: func.func @transpose_inverse
// CHECK-NEXT: return %arg0
func.func @transpose_inverse(%a: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> {
  %0 = graph.transpose %a [0, 2, 3, 1] : (tensor<1x2x3x4xf32>) -> tensor<1x3x4x2xf32>
  %1 = graph.transpose %0 [0, 3, 1, 2] : (tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32>
  return %1 : tensor<1x2x3x4xf32>
}

// -----

// Two transposes compose into one: result dim i = input dim p1[p2[i]].
// CHECK-LABEL: func.func @transpose_compose
// CHECK-NEXT: %[[T:.*]] = graph.transpose %arg0 [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_compose(%a: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %a [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 [2, 1, 0] : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// A non-identity permutation of non-unit dimensions stays a transpose.
// CHECK-LABEL: func.func @transpose_kept
// CHECK-NEXT: graph.transpose %arg0 [1, 0]
func.func @transpose_kept(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.transpose %a [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Moving only size-1 dimensions keeps the row-major data: a reshape.
// CHECK-LABEL: func.func @transpose_unit_dims
// CHECK-NEXT: %[[R:.*]] = graph.reshape %arg0 : (tensor<1x5x1x3xf32>) -> tensor<5x1x3x1xf32>
// CHECK-NEXT: return %[[R]]
func.func @transpose_unit_dims(%a: tensor<1x5x1x3xf32>) -> tensor<5x1x3x1xf32> {
  %0 = graph.transpose %a [1, 0, 3, 2] : (tensor<1x5x1x3xf32>) -> tensor<5x1x3x1xf32>
  return %0 : tensor<5x1x3x1xf32>
}

// -----

// A transposed splat constant is a splat of the new type.
// CHECK-LABEL: func.func @transpose_splat
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<3x2xf32>
// CHECK-NEXT: return %[[C]]
func.func @transpose_splat() -> tensor<3x2xf32> {
  %c = arith.constant dense<2.0> : tensor<2x3xf32>
  %0 = graph.transpose %c [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_same_shape
// CHECK: %[[B:.*]] = graph.broadcast %arg0 : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: return %arg1, %[[B]]
func.func @broadcast_same_shape(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.broadcast %b : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.broadcast %a : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A slice that takes everything folds; a reversing one of the same shape
// does not.
// CHECK-LABEL: func.func @slice_everything
// CHECK: %[[R:.*]] = graph.slice %arg0 {offsets = array<i64: 0, 3>, strides = array<i64: 1, -1>}
// CHECK: return %arg0, %[[R]]
func.func @slice_everything(%a: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = graph.slice %a {offsets = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = graph.slice %a {offsets = array<i64: 0, 3>, strides = array<i64: 1, -1>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @concat_one
// CHECK: %[[C:.*]] = graph.concat %arg0, %arg0
// CHECK: return %arg0, %[[C]]
func.func @concat_one(%a: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<4x4xf32>) {
  %0 = graph.concat %a {axis = 1} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = graph.concat %a, %a {axis = 0} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func.func @pad_nothing
// CHECK: %[[P:.*]] = graph.pad %arg0 {pads = array<i64: 0, 1, 0, 0>}
// CHECK: return %arg0, %arg0, %[[P]]
func.func @pad_nothing(%a: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x5xf32>) {
  %0 = graph.pad %a {pads = array<i64: 0, 0, 0, 0>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = graph.pad %a mode reflect {pads = array<i64: 0, 0, 0, 0>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = graph.pad %a {pads = array<i64: 0, 1, 0, 0>} : (tensor<2x4xf32>) -> tensor<2x5xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func.func @tile_once
// CHECK: %[[T:.*]] = graph.tile %arg0 {repeats = array<i64: 1, 2>}
// CHECK: return %arg0, %[[T]]
func.func @tile_once(%a: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x8xf32>) {
  %0 = graph.tile %a {repeats = array<i64: 1, 1>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = graph.tile %a {repeats = array<i64: 1, 2>} : (tensor<2x4xf32>) -> tensor<2x8xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x8xf32>
}

// -----

// A 1x1 stride-1 unpadded pooling window is the identity; a padded one is not.
// CHECK-LABEL: func.func @pool_1x1
// CHECK: %[[P:.*]] = graph.pool2d avg %arg0 {count_include_pad = true, kernel = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>}
// CHECK: return %arg0, %arg0, %[[P]]
func.func @pool_1x1(%x: tensor<1x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>) {
  %0 = graph.pool2d max %x {kernel = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.pool2d avg %x {kernel = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %2 = graph.pool2d avg %x {kernel = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : (tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %0, %1, %2 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x5x5xf32>
}

// -----

// where with a splat condition picks a side that has the result type.
// CHECK-LABEL: func.func @where_splat
// CHECK: %[[W:.*]] = graph.where %{{.*}}, %arg1, %arg0 : (tensor<i1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[M:.*]] = graph.where %{{.*}}, %arg0, %arg1 : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>)
// CHECK: return %arg0, %arg0, %[[W]], %[[M]]
func.func @where_splat(%a: tensor<2x3xf32>, %b: tensor<3xf32>)
    -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %t = arith.constant dense<true> : tensor<i1>
  %f = arith.constant dense<false> : tensor<i1>
  %m = arith.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %0 = graph.where %t, %a, %b : (tensor<i1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.where %f, %b, %a : (tensor<i1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // Must not fold: the picked side %b would have to be broadcast.
  %2 = graph.where %t, %b, %a : (tensor<i1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // Must not fold: not a splat.
  %3 = graph.where %m, %a, %b : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// ==== Broadcast operands as addressing (BroadcastOperandAsAddressing)

// A nearest x2 upsampling as the importer writes it (reshape -> broadcast ->
// reshape) added to a map: the add runs on the broadcast's shape and reads
// the small map with zero strides; the broadcast copy is gone. The operand
// order of a non-commutative op is kept.
// CHECK-LABEL: func.func @upsample_add
// CHECK-DAG: %[[Y:.*]] = graph.reshape %arg1 : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1x2x1xf32>
// CHECK-DAG: %[[X:.*]] = graph.reshape %arg0 : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2x2x2xf32>
// CHECK: %[[S:.*]] = graph.add %[[X]], %[[Y]] : (tensor<1x2x2x2x2x2xf32>, tensor<1x2x2x1x2x1xf32>) -> tensor<1x2x2x2x2x2xf32>
// CHECK: %[[R:.*]] = graph.reshape %[[S]] : (tensor<1x2x2x2x2x2xf32>) -> tensor<1x2x4x4xf32>
// CHECK: %[[D:.*]] = graph.binary sub %[[Y]], %{{.*}} : (tensor<1x2x2x1x2x1xf32>, tensor<1x2x2x2x2x2xf32>) -> tensor<1x2x2x2x2x2xf32>
// CHECK: %[[E:.*]] = graph.reshape %[[D]]
// CHECK-NOT: graph.broadcast
// CHECK: return %[[R]], %[[E]]
func.func @upsample_add(%x: tensor<1x2x4x4xf32>, %y: tensor<1x2x2x2xf32>)
    -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %0 = graph.reshape %y : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1x2x1xf32>
  %1 = graph.broadcast %0 : (tensor<1x2x2x1x2x1xf32>) -> tensor<1x2x2x2x2x2xf32>
  %2 = graph.reshape %1 : (tensor<1x2x2x2x2x2xf32>) -> tensor<1x2x4x4xf32>
  %3 = graph.add %x, %2 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %4 = graph.binary sub %2, %x : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %3, %4 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// Without a reshape the broadcast's input is the operand itself.
// CHECK-LABEL: func.func @broadcast_mul
// CHECK-NEXT: %[[M:.*]] = graph.binary mul %arg0, %arg1 : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %[[M]]
func.func @broadcast_mul(%x: tensor<4x3xf32>, %y: tensor<1x3xf32>) -> tensor<4x3xf32> {
  %0 = graph.broadcast %y : (tensor<1x3xf32>) -> tensor<4x3xf32>
  %1 = graph.binary mul %x, %0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}

// -----

// Must not fire: the other operand is itself broadcast by the op (its shape
// is not the result's), so the op's iteration space would grow.
// CHECK-LABEL: func.func @other_operand_broadcast
// CHECK: graph.broadcast
// CHECK: graph.add
func.func @other_operand_broadcast(%x: tensor<3xf32>, %y: tensor<1x3xf32>) -> tensor<4x3xf32> {
  %0 = graph.broadcast %y : (tensor<1x3xf32>) -> tensor<4x3xf32>
  %1 = graph.add %0, %x : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %1 : tensor<4x3xf32>
}
