// RUN: accel-opt %s --convert-tosa-linalg-to-graph --split-input-file | FileCheck %s
//
// TOSA elementwise, reduction, pooling and layout ops (issue 3).

// CHECK-LABEL: func.func @binary
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<1x3xf32>)
// CHECK-NEXT:    %[[S:.*]] = graph.binary sub %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[M:.*]] = graph.binary mul %[[S]], %[[B]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[P:.*]] = graph.binary pow %[[M]], %[[B]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[X:.*]] = graph.binary max %[[P]], %[[B]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[N:.*]] = graph.binary min %[[X]], %[[A]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[N]]
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.mul %0, %b, %shift : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %2 = tosa.pow %1, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.maximum %2, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.minimum %3, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @unary
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[V0:.*]] = graph.unary neg %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[V1:.*]] = graph.unary abs %[[V0]] : tensor<4xf32>
// CHECK-NEXT:    %[[V2:.*]] = graph.unary reciprocal %[[V1]] : tensor<4xf32>
// CHECK-NEXT:    %[[V3:.*]] = graph.unary sqrt %[[V2]] : tensor<4xf32>
// CHECK-NEXT:    %[[V4:.*]] = graph.unary reciprocal %[[V3]] : tensor<4xf32>
// CHECK-NEXT:    %[[V5:.*]] = graph.unary exp %[[V4]] : tensor<4xf32>
// CHECK-NEXT:    %[[V6:.*]] = graph.unary log %[[V5]] : tensor<4xf32>
// CHECK-NEXT:    %[[V7:.*]] = graph.unary erf %[[V6]] : tensor<4xf32>
// CHECK-NEXT:    %[[V8:.*]] = graph.unary floor %[[V7]] : tensor<4xf32>
// CHECK-NEXT:    %[[V9:.*]] = graph.unary ceil %[[V8]] : tensor<4xf32>
// CHECK-NEXT:    %[[V10:.*]] = graph.unary sin %[[V9]] : tensor<4xf32>
// CHECK-NEXT:    %[[V11:.*]] = graph.unary cos %[[V10]] : tensor<4xf32>
// CHECK-NEXT:    %[[V12:.*]] = graph.unary tanh %[[V11]] : tensor<4xf32>
// CHECK-NEXT:    %[[V13:.*]] = graph.unary sigmoid %[[V12]] : tensor<4xf32>
// CHECK-NEXT:    return %[[V13]]
func.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.negate %x, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %1 = tosa.abs %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = tosa.reciprocal %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = tosa.rsqrt %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = tosa.exp %3 : (tensor<4xf32>) -> tensor<4xf32>
  %5 = tosa.log %4 : (tensor<4xf32>) -> tensor<4xf32>
  %6 = tosa.erf %5 : (tensor<4xf32>) -> tensor<4xf32>
  %7 = tosa.floor %6 : (tensor<4xf32>) -> tensor<4xf32>
  %8 = tosa.ceil %7 : (tensor<4xf32>) -> tensor<4xf32>
  %9 = tosa.sin %8 : (tensor<4xf32>) -> tensor<4xf32>
  %10 = tosa.cos %9 : (tensor<4xf32>) -> tensor<4xf32>
  %11 = tosa.tanh %10 : (tensor<4xf32>) -> tensor<4xf32>
  %12 = tosa.sigmoid %11 : (tensor<4xf32>) -> tensor<4xf32>
  return %12 : tensor<4xf32>
}

// -----

// A clamp that is not a ReLU is a clip (alpha = min, beta = max).
// CHECK-LABEL: func.func @clamp
// CHECK-NEXT:    %[[C:.*]] = graph.unary clip %{{.*}} {alpha = -1.000000e+00 : f32, beta = 6.000000e+00 : f32} : tensor<2x3xf32>
// CHECK-NEXT:    return %[[C]]
func.func @clamp(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.clamp %x {min_val = -1.0 : f32, max_val = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Comparisons produce i1; select is graph.where.
// CHECK-LABEL: func.func @compare_select
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[E:.*]] = graph.binary equal %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %[[G:.*]] = graph.binary greater %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %[[GE:.*]] = graph.binary greater_equal %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %[[W:.*]] = graph.where %[[G]], %[[A]], %[[B]] : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[E]], %[[GE]], %[[W]]
func.func @compare_select(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xf32>) {
  %0 = tosa.equal %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = tosa.greater %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = tosa.greater_equal %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = tosa.select %1, %a, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %2, %3 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xf32>
}

// -----

// TOSA reductions keep the reduced dimension.
// CHECK-LABEL: func.func @reduce
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    graph.reduce sum %[[X]] {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT:    graph.reduce max %[[X]] {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
// CHECK-NEXT:    graph.reduce min %[[X]] {axes = array<i64: 0>} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NEXT:    graph.reduce prod %[[X]] {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
func.func @reduce(%x: tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x3x1xf32>, tensor<1x3x4xf32>, tensor<2x3x1xf32>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %2 = tosa.reduce_min %x {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %3 = tosa.reduce_product %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  return %0, %1, %2, %3 : tensor<2x1x4xf32>, tensor<2x3x1xf32>, tensor<1x3x4xf32>, tensor<2x3x1xf32>
}

// -----

// argmax drops the axis; i64 indices.
// CHECK-LABEL: func.func @argmax
// CHECK-NEXT:    %[[R:.*]] = graph.reduce argmax %{{.*}} {axes = array<i64: 1>, keepdims = false} : (tensor<2x3xf32>) -> tensor<2xi64>
// CHECK-NEXT:    return %[[R]]
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// NHWC pooling: transposes around graph.pool2d, pad [top, bottom, left,
// right] reordered; TOSA's average excludes the padding.
// CHECK-LABEL: func.func @pool
// CHECK-SAME:    (%[[X:.*]]: tensor<1x5x6x3xf32>)
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %[[X]] [0, 3, 1, 2] : (tensor<1x5x6x3xf32>) -> tensor<1x3x5x6xf32>
// CHECK-NEXT:    %[[A:.*]] = graph.pool2d avg %[[T]] {kernel = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x5x6xf32>) -> tensor<1x3x3x3xf32>
// CHECK-NEXT:    %[[AT:.*]] = graph.transpose %[[A]] [0, 2, 3, 1] : (tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK-NEXT:    %[[T2:.*]] = graph.transpose %[[X]] [0, 3, 1, 2] : (tensor<1x5x6x3xf32>) -> tensor<1x3x5x6xf32>
// CHECK-NEXT:    %[[M:.*]] = graph.pool2d max %[[T2]] {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x6xf32>) -> tensor<1x3x5x6xf32>
// CHECK-NEXT:    %[[MT:.*]] = graph.transpose %[[M]] [0, 2, 3, 1] : (tensor<1x3x5x6xf32>) -> tensor<1x5x6x3xf32>
// CHECK-NEXT:    return %[[AT]], %[[MT]]
func.func @pool(%x: tensor<1x5x6x3xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x5x6x3xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x5x6x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3xf32>
  %1 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x5x6x3xf32>) -> tensor<1x5x6x3xf32>
  return %0, %1 : tensor<1x3x3x3xf32>, tensor<1x5x6x3xf32>
}

// -----

// CHECK-LABEL: func.func @layout
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>)
// CHECK-NEXT:    %[[C:.*]] = graph.concat %[[A]], %[[B]] {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.slice %[[C]] {offsets = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<6x3xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    %[[P:.*]] = graph.pad %[[S]] {pads = array<i64: 1, 0, 2, 3>, value = 5.000000e-01 : f32} : (tensor<4x2xf32>) -> tensor<7x5xf32>
// CHECK-NEXT:    %[[T:.*]] = graph.tile %[[P]] {repeats = array<i64: 2, 1>} : (tensor<7x5xf32>) -> tensor<14x5xf32>
// CHECK-NEXT:    return %[[T]]
func.func @layout(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<14x5xf32> {
  %0 = tosa.concat %a, %b {axis = 0 : i32} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %start = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[4, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.slice %0, %start, %size : (tensor<6x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x2xf32>
  %padding = tosa.const_shape {values = dense<[1, 2, 0, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pc = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %2 = tosa.pad %1, %padding, %pc : (tensor<4x2xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<7x5xf32>
  %mult = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %3 = tosa.tile %2, %mult : (tensor<7x5xf32>, !tosa.shape<2>) -> tensor<14x5xf32>
  return %3 : tensor<14x5xf32>
}

// -----

// reverse: a slice with stride -1.
// CHECK-LABEL: func.func @reverse
// CHECK-NEXT:    %[[R:.*]] = graph.slice %{{.*}} {offsets = array<i64: 0, 2>, strides = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[R]]
func.func @reverse(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.reverse %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// resize, nearest by 2 with offset -1 (output o samples input floor(o / 2),
// as ONNX's asymmetric / floor nearest Resize is legalised): the rows and
// columns repeat, so reshape -> broadcast -> reshape on the NCHW view, the
// importer's spelling of a nearest upsampling.
// CHECK-LABEL: func.func @resize_repeat
// CHECK:         %[[T:.*]] = graph.transpose %{{.*}} [0, 3, 1, 2] : (tensor<1x4x3x2xf32>) -> tensor<1x2x4x3xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %[[T]] : (tensor<1x2x4x3xf32>) -> tensor<1x2x4x1x3x1xf32>
// CHECK-NEXT:    %[[B:.*]] = graph.broadcast %[[R]] : (tensor<1x2x4x1x3x1xf32>) -> tensor<1x2x4x2x3x2xf32>
// CHECK-NEXT:    %[[U:.*]] = graph.reshape %[[B]] : (tensor<1x2x4x2x3x2xf32>) -> tensor<1x2x8x6xf32>
// CHECK-NEXT:    graph.transpose %[[U]] [0, 2, 3, 1] : (tensor<1x2x8x6xf32>) -> tensor<1x8x6x2xf32>
func.func @resize_repeat(%x: tensor<1x4x3x2xf32>) -> tensor<1x8x6x2xf32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<-1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x4x3x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x6x2xf32>
  return %y : tensor<1x8x6x2xf32>
}

// -----

// resize, nearest by 2 with offset 0: TOSA rounds half up, output rows
// 0..7 read input rows 0, 1, 1, 2, 2, 3, 3, 3 (the last clamped): not a
// repetition, so the interpolation matrices, columns ([W, OW], 3 -> 6:
// 0, 1, 1, 2, 2, 2) then rows ([OH, H]).
// CHECK-LABEL: func.func @resize_nearest_rounds
// CHECK-DAG:     %[[MY:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<8x4xf32>
// CHECK-DAG:     %[[MX:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]]> : tensor<3x6xf32>
// CHECK:         %[[C:.*]] = graph.matmul %{{.*}}, %[[MX]] : (tensor<1x2x4x3xf32>, tensor<3x6xf32>) -> tensor<1x2x4x6xf32>
// CHECK-NEXT:    graph.matmul %[[MY]], %[[C]] : (tensor<8x4xf32>, tensor<1x2x4x6xf32>) -> tensor<1x2x8x6xf32>
func.func @resize_nearest_rounds(%x: tensor<1x4x3x2xf32>) -> tensor<1x8x6x2xf32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x4x3x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x6x2xf32>
  return %y : tensor<1x8x6x2xf32>
}

// -----

// resize, bilinear by 2 with offset 0 over 2 rows: output rows 0..3 take
// input row 0, rows 0 and 1 halved, row 1, row 1 (clamped); the columns
// stay (scale 1 / 1: no column matmul).
// CHECK-LABEL: func.func @resize_bilinear
// CHECK:         %[[MY:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [5.000000e-01, 5.000000e-01], [0.000000e+00, 1.000000e+00], [0.000000e+00, 1.000000e+00]]> : tensor<4x2xf32>
// CHECK-NOT:     graph.matmul %{{.*}}, %
// CHECK:         graph.matmul %[[MY]], %{{.*}} : (tensor<4x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x1x4x3xf32>
func.func @resize_bilinear(%x: tensor<1x2x3x1xf32>) -> tensor<1x4x3x1xf32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x2x3x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x4x3x1xf32>
  return %y : tensor<1x4x3x1xf32>
}
