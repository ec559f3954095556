// A small CNN block in TOSA, lowered by upstream tosa-to-linalg (NHWC
// convolution with a linalg.generic bias broadcast, generics for the clamp
// and the broadcasting add, collapse_shape for the reshape), then legalised.
// RUN: mlir-opt %s --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-tensor,tosa-to-arith))' \
// RUN:   | accel-opt --convert-tosa-linalg-to-graph | FileCheck %s

// CHECK-LABEL: func.func @block
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x8x3xf32>, %[[W:.*]]: tensor<16x3x3x3xf32>, %[[B:.*]]: tensor<16xf32>, %[[A:.*]]: tensor<2x3x4xf32>, %[[M:.*]]: tensor<2x4x5xf32>)
// CHECK-DAG:     %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1x5xf32>
// CHECK-DAG:     %[[XT:.*]] = graph.transpose %[[X]] [0, 3, 1, 2]
// CHECK-DAG:     %[[WT:.*]] = graph.transpose %[[W]] [0, 3, 1, 2]
// CHECK:         %[[Y:.*]] = graph.conv2d %[[XT]], %[[WT]], %[[B]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
// CHECK-NEXT:    %[[YT:.*]] = graph.transpose %[[Y]] [0, 2, 3, 1]
// CHECK-NEXT:    %[[R:.*]] = graph.relu %[[YT]] : tensor<1x8x8x16xf32>
// CHECK-NEXT:    %[[F:.*]] = graph.reshape %[[R]] : (tensor<1x8x8x16xf32>) -> tensor<1x1024xf32>
// CHECK-NEXT:    %[[MM:.*]] = graph.matmul %[[A]], %[[M]] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[MM]], %[[ONE]] : (tensor<2x3x5xf32>, tensor<1x1x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:    return %[[F]], %[[S]]
// CHECK-NOT:     linalg.
// CHECK-NOT:     tensor.
func.func @block(%x: tensor<1x8x8x3xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>,
                 %a: tensor<2x3x4xf32>, %m: tensor<2x4x5xf32>) -> (tensor<1x1024xf32>, tensor<2x3x5xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %s = tosa.const_shape {values = dense<[1, 1024]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %2 = tosa.reshape %1, %s : (tensor<1x8x8x16xf32>, !tosa.shape<2>) -> tensor<1x1024xf32>
  %3 = tosa.matmul %a, %m, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  %c = "tosa.const"() <{values = dense<1.0> : tensor<1x1x5xf32>}> : () -> tensor<1x1x5xf32>
  %4 = tosa.add %3, %c : (tensor<2x3x5xf32>, tensor<1x1x5xf32>) -> tensor<2x3x5xf32>
  return %2, %4 : tensor<1x1024xf32>, tensor<2x3x5xf32>
}
