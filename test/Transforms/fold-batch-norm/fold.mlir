// RUN: accel-opt --fold-batch-norm %s | FileCheck %s

// scale [2, 3], var [1 - eps, 1 - eps] -> a = scale / sqrt(var + eps) = [2, 3]
// w' = w * a = [2, 3]; mean [1, 2], bias [10, 20]
// b' = (b - mean) * a + bias = (0.5 - 1) * 2 + 10, (0.5 - 2) * 3 + 20.

// CHECK-LABEL: func.func @folds
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}3.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[9.000000e+00, 1.550000e+01]> : tensor<2xf32>
// CHECK: graph.conv2d %{{.*}}, %[[W]], %[[B]]
// CHECK-NOT: graph.batch_norm
func.func @folds(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %b = arith.constant dense<0.5> : tensor<2xf32>
  %s = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %bb = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %m = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = arith.constant dense<[0.99999, 0.99999]> : tensor<2xf32>
  %c = graph.conv2d %x, %w, %b : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.batch_norm %c, %s, %bb, %m, %v {epsilon = 1.0e-5 : f32}
      : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// A conv result with a second user cannot be folded.
// CHECK-LABEL: func.func @shared
// CHECK: graph.batch_norm
func.func @shared(%x: tensor<1x1x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %s = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.batch_norm %c, %s, %s, %s, %s : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y, %c : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// Runtime normalisation parameters stay a batch_norm.
// CHECK-LABEL: func.func @runtime
// CHECK: graph.batch_norm
func.func @runtime(%x: tensor<1x1x3x3xf32>, %s: tensor<2xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.batch_norm %c, %s, %s, %s, %s : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// The folded conv carries both source operators: FusedLoc[conv, batch norm]
// (the layer table names the layer after the conv and lists the batch norm
// as fused, docs/passes.md "Layer table").
// RUN: accel-opt --fold-batch-norm --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC
// LOC-LABEL: func.func @named
// LOC: graph.conv2d {{.*}} loc(#[[FUSED:loc[0-9]+]])
// LOC-DAG: #[[CONV:loc[0-9]+]] = loc("conv1"
// LOC-DAG: #[[BN:loc[0-9]+]] = loc("bn1"
// LOC-DAG: #[[FUSED]] = loc(fused[#[[CONV]], #[[BN]]])
func.func @named(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %s = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %bb = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %m = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = arith.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32> loc("conv1"("Conv"("m.onnx":0:0)))
  %y = graph.batch_norm %c, %s, %bb, %m, %v
      : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32> loc("bn1"("BatchNormalization"("m.onnx":0:0)))
  return %y : tensor<1x2x3x3xf32>
}

// conv_transpose2d: weight [C, O/g, KH, KW], the scale runs along axis 1.
// Groups 2, C = 2, O/g = 1: w[c=0][0] belongs to output channel 0, w[c=1][0]
// to channel 1. a = [2, 3]; b' = (0 - mean) * a + bias = [8, 14].
// CHECK-LABEL: func.func @conv_transpose
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00, 2.000000e+00]]], {{\[\[\[}}3.000000e+00, 3.000000e+00]]]]> : tensor<2x1x1x2xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[8.000000e+00, 1.400000e+01]> : tensor<2xf32>
// CHECK: graph.conv_transpose2d %{{.*}}, %[[W]], %[[B]] {groups = 2 : i64, strides = array<i64: 1, 2>}
// CHECK-NOT: graph.batch_norm
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x6xf32> {
  %w = arith.constant dense<1.0> : tensor<2x1x1x2xf32>
  %s = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %bb = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %m = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = arith.constant dense<[0.99999, 0.99999]> : tensor<2xf32>
  %c = graph.conv_transpose2d %x, %w {groups = 2 : i64, strides = array<i64: 1, 2>} : (tensor<1x2x3x3xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3x6xf32>
  %y = graph.batch_norm %c, %s, %bb, %m, %v {epsilon = 1.0e-5 : f32}
      : (tensor<1x2x3x6xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x6xf32>
  return %y : tensor<1x2x3x6xf32>
}

// Groups 1, C = 2, O = 2: w[c][o] scaled by a[o] for every c.
// CHECK-LABEL: func.func @conv_transpose_g1
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}2.000000e+00]], {{\[\[}}3.000000e+00]]], {{\[\[\[}}2.000000e+00]], {{\[\[}}3.000000e+00]]]]> : tensor<2x2x1x1xf32>
// CHECK: graph.conv_transpose2d %{{.*}}, %[[W]], %{{.*}} :
func.func @conv_transpose_g1(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %s = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %v = arith.constant dense<[0.99999, 0.99999]> : tensor<2xf32>
  %c = graph.conv_transpose2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.batch_norm %c, %s, %s, %s, %v {epsilon = 1.0e-5 : f32}
      : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// A transposed conv with a second user keeps its batch norm.
// CHECK-LABEL: func.func @conv_transpose_shared
// CHECK: graph.batch_norm
func.func @conv_transpose_shared(%x: tensor<1x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %s = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %c = graph.conv_transpose2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y = graph.batch_norm %c, %s, %s, %s, %s : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  return %y, %c : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}
