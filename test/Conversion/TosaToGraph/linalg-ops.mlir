// RUN: accel-opt %s --convert-tosa-linalg-to-graph --split-input-file | FileCheck %s
//
// linalg named elementwise ops, select, pooling and softmax (issue 3).

// CHECK-LABEL: func.func @binary
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x3xf32>)
// CHECK-NEXT:    %[[S:.*]] = graph.binary sub %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[M:.*]] = graph.binary mul %[[S]], %[[B]]
// CHECK-NEXT:    %[[D:.*]] = graph.binary div %[[M]], %[[B]]
// CHECK-NEXT:    %[[X:.*]] = graph.binary max %[[D]], %[[B]]
// CHECK-NEXT:    %[[N:.*]] = graph.binary min %[[X]], %[[A]]
// CHECK-NEXT:    return %[[N]]
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = linalg.sub ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = linalg.mul ins(%0, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = linalg.div ins(%1, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = linalg.max ins(%2, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = linalg.min ins(%3, %a : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @unary
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[V0:.*]] = graph.unary exp %[[X]] : tensor<4xf32>
// CHECK-NEXT:    %[[V1:.*]] = graph.unary log %[[V0]] : tensor<4xf32>
// CHECK-NEXT:    %[[V2:.*]] = graph.unary abs %[[V1]] : tensor<4xf32>
// CHECK-NEXT:    %[[V3:.*]] = graph.unary ceil %[[V2]] : tensor<4xf32>
// CHECK-NEXT:    %[[V4:.*]] = graph.unary floor %[[V3]] : tensor<4xf32>
// CHECK-NEXT:    %[[V5:.*]] = graph.unary neg %[[V4]] : tensor<4xf32>
// CHECK-NEXT:    %[[V6:.*]] = graph.unary sqrt %[[V5]] : tensor<4xf32>
// CHECK-NEXT:    %[[V7:.*]] = graph.unary tanh %[[V6]] : tensor<4xf32>
// CHECK-NEXT:    %[[V8:.*]] = graph.unary erf %[[V7]] : tensor<4xf32>
// CHECK-NEXT:    %[[V9:.*]] = graph.unary reciprocal %[[V8]] : tensor<4xf32>
// CHECK-NEXT:    return %[[V9]]
func.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.log ins(%0 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.abs ins(%1 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %3 = linalg.ceil ins(%2 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %4 = linalg.floor ins(%3 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %5 = linalg.negf ins(%4 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %6 = linalg.sqrt ins(%5 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %7 = linalg.tanh ins(%6 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %8 = linalg.erf ins(%7 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %9 = linalg.reciprocal ins(%8 : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %9 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @select
// CHECK-SAME:    (%[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[W:.*]] = graph.where %[[C]], %[[A]], %[[B]] : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[W]]
func.func @select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.select ins(%c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Max pooling over a -inf padded input with a -inf init: one graph.pool2d
// with the padding folded in.
// CHECK-LABEL: func.func @max_pool
// CHECK-SAME:    (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-NEXT:    %[[P:.*]] = graph.pool2d max %[[X]] {count_include_pad = true, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NEXT:    return %[[P]]
func.func @max_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<3x3xf32>) outs(%f : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Sum pooling = average including padding times the window size.
// CHECK-LABEL: func.func @sum_pool
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x4x4xf32>)
// CHECK-NEXT:    %[[P:.*]] = graph.pool2d avg %[[X]] {count_include_pad = true, kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.unary affine %[[P]] {alpha = 4.000000e+00 : f32} : tensor<1x1x2x2xf32>
// CHECK-NEXT:    return %[[S]]
func.func @sum_pool(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %0 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%f : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// A max pool into an arbitrary init combines with it.
// CHECK-LABEL: func.func @max_pool_init
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1x4x4xf32>, %[[I:.*]]: tensor<1x1x2x2xf32>)
// CHECK-NEXT:    %[[P:.*]] = graph.pool2d max %[[X]]
// CHECK-NEXT:    %[[M:.*]] = graph.binary max %[[P]], %[[I]]
// CHECK-NEXT:    return %[[M]]
func.func @max_pool_init(%x: tensor<1x1x4x4xf32>, %init: tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @softmax
// CHECK-NEXT:    %[[S:.*]] = graph.softmax %{{.*}} {axis = 1 : i64} : tensor<2x5xf32>
// CHECK-NEXT:    return %[[S]]
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %e = tensor.empty() : tensor<2x5xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x5xf32>) outs(%e : tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
