// RUN: accel-opt %s --convert-tosa-linalg-to-graph | FileCheck %s
//
// Graph-dialect input (what the ONNX importer produces) passes through
// unchanged, including the accel.name attributes; only transpose chains
// are composed.

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32> {accel.name = "x"}, %{{.*}}: tensor<4x2x3xf32>) -> (tensor<2x3xf32> {accel.name = "y"}, tensor<2x3x4xf32> {accel.name = "z"})
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<1.000000e+00> : tensor<3x3xf32>
// CHECK-NEXT:    %[[M:.*]] = graph.matmul %[[X]], %[[W]]
// CHECK-NEXT:    %[[R:.*]] = graph.relu %[[M]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %arg1 [1, 2, 0] : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    return %[[R]], %[[T]]
func.func @main(%x: tensor<2x3xf32> {accel.name = "x"}, %t: tensor<4x2x3xf32>)
    -> (tensor<2x3xf32> {accel.name = "y"}, tensor<2x3x4xf32> {accel.name = "z"}) {
  %w = arith.constant dense<1.0> : tensor<3x3xf32>
  %0 = graph.matmul %x, %w : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  %1 = graph.relu %0 : tensor<2x3xf32>
  %2 = graph.transpose %1 [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = graph.transpose %2 [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %4 = graph.transpose %t [2, 1, 0] : (tensor<4x2x3xf32>) -> tensor<3x2x4xf32>
  %5 = graph.transpose %4 [1, 0, 2] : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  return %3, %5 : tensor<2x3xf32>, tensor<2x3x4xf32>
}
