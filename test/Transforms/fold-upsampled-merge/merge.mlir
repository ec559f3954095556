// RUN: accel-opt --fold-upsampled-merge %s | FileCheck %s

// The importer's form: conv_b(add(conv1x1_a(x), nearest_up2(y))), one
// output channel, conv_a with wa = [1, 2] (2 channels from 1), conv_b's
// channel 0 taps 1..9 and channel 1 taps all 1.
//  - composed: wc = wb[0] * 1 + wb[1] * 2 = taps 1..9 plus 2 = 3..11, with
//    conv_b's pads;
//  - phase (0, 0): rows q-1 (tap 0) and q (taps 1 + 2), the same for the
//    columns: channel 0 [[1, 2+3], [4+7, 5+6+8+9]] = [[1, 5], [11, 28]],
//    channel 1 [[1, 2], [2, 4]], pads [1, 1, 0, 0];
//  - phase (1, 1): rows q (taps 0 + 1) and q+1 (tap 2): channel 0
//    [[1+2+4+5, 3+6], [7+8, 9]] = [[12, 9], [15, 9]], channel 1
//    [[4, 2], [2, 1]], pads [0, 0, 1, 1];
//  - phases (0, 1) and (1, 0) mix the two, pads [1, 0, 0, 1] / [0, 1, 1, 0];
//  - the phases concatenated, interleaved by reshape / transpose / reshape,
//    and added to the composed conv.
// CHECK-LABEL: func.func @plain_merge
// CHECK-DAG: %[[K00:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 5.000000e+00], [1.100000e+01, 2.800000e+01]], {{\[\[}}1.000000e+00, 2.000000e+00], [2.000000e+00, 4.000000e+00]]]]> : tensor<1x2x2x2xf32>
// CHECK-DAG: %[[K11:.*]] = arith.constant dense<{{\[\[\[\[}}1.200000e+01, 9.000000e+00], [1.500000e+01, 9.000000e+00]], {{\[\[}}4.000000e+00, 2.000000e+00], [2.000000e+00, 1.000000e+00]]]]> : tensor<1x2x2x2xf32>
// CHECK-DAG: %[[WC:.*]] = arith.constant dense<{{\[\[\[\[}}3.000000e+00, 4.000000e+00, 5.000000e+00], [6.000000e+00, 7.000000e+00, 8.000000e+00], [9.000000e+00, 1.000000e+01, 1.100000e+01]]]]> : tensor<1x1x3x3xf32>
// CHECK: %[[P00:.*]] = graph.conv2d %[[Y:.*]], %[[K00]] {pads = array<i64: 1, 1, 0, 0>} : (tensor<1x2x8x8xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x8x8xf32>
// CHECK: %[[P01:.*]] = graph.conv2d %[[Y]], %{{.*}} {pads = array<i64: 1, 0, 0, 1>}
// CHECK: %[[P10:.*]] = graph.conv2d %[[Y]], %{{.*}} {pads = array<i64: 0, 1, 1, 0>}
// CHECK: %[[P11:.*]] = graph.conv2d %[[Y]], %[[K11]] {pads = array<i64: 0, 0, 1, 1>}
// CHECK: %[[ALL:.*]] = graph.concat %[[P00]], %[[P01]], %[[P10]], %[[P11]] {axis = 1 : i64}
// CHECK: %[[S:.*]] = graph.reshape %[[ALL]] : (tensor<1x4x8x8xf32>) -> tensor<1x2x2x1x8x8xf32>
// CHECK: %[[T:.*]] = graph.transpose %[[S]] [0, 3, 4, 1, 5, 2] : (tensor<1x2x2x1x8x8xf32>) -> tensor<1x1x8x2x8x2xf32>
// CHECK: %[[U:.*]] = graph.reshape %[[T]] : (tensor<1x1x8x2x8x2xf32>) -> tensor<1x1x16x16xf32>
// CHECK: %[[A:.*]] = graph.conv2d %arg0, %[[WC]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x16x16xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x16x16xf32>
// CHECK: %[[R:.*]] = graph.add %[[A]], %[[U]]
// CHECK: return %[[R]]
// CHECK-NOT: graph.broadcast
func.func @plain_merge(%x: tensor<1x1x16x16xf32>, %y: tensor<1x2x8x8xf32>) -> tensor<1x1x16x16xf32> {
  %wa = arith.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %wb = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],
                                [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]]]> : tensor<1x2x3x3xf32>
  %lat = graph.conv2d %x, %wa : (tensor<1x1x16x16xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x16x16xf32>
  %r1 = graph.reshape %y : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1x8x1xf32>
  %bc = graph.broadcast %r1 : (tensor<1x2x8x1x8x1xf32>) -> tensor<1x2x8x2x8x2xf32>
  %up = graph.reshape %bc : (tensor<1x2x8x2x8x2xf32>) -> tensor<1x2x16x16xf32>
  %sum = graph.add %lat, %up : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
  %out = graph.conv2d %sum, %wb {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x16x16xf32>, tensor<1x2x3x3xf32>) -> tensor<1x1x16x16xf32>
  return %out : tensor<1x1x16x16xf32>
}

// The canonicaliser's form of the same sum (the upsampling as a 6-D
// broadcasting add), the upsampled operand first: the same rewrite, the
// coarse map reshaped back to 4-D, conv_b's bias on the composed conv
// (weights 2 channels x 0.5 x 0.25 = 0.25).
// CHECK-LABEL: func.func @canonical_merge
// CHECK-DAG: %[[WC:.*]] = arith.constant dense<2.500000e-01> : tensor<3x1x3x3xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK: %[[Y4:.*]] = graph.reshape %arg1 : (tensor<1x2x4x1x4x1xf32>) -> tensor<1x2x4x4xf32>
// CHECK-COUNT-4: graph.conv2d %[[Y4]], %{{.*}} {pads = {{.*}}} : (tensor<1x2x4x4xf32>, tensor<3x2x2x2xf32>) -> tensor<1x3x4x4xf32>
// CHECK: graph.concat
// CHECK: graph.transpose
// CHECK: %[[A:.*]] = graph.conv2d %arg0, %[[WC]], %[[B]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x8x8xf32>, tensor<3x1x3x3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
// CHECK: graph.add %[[A]]
// CHECK-NOT: tensor<1x2x4x2x4x2xf32>
func.func @canonical_merge(%x: tensor<1x1x8x8xf32>, %y6: tensor<1x2x4x1x4x1xf32>) -> tensor<1x3x8x8xf32> {
  %wa = arith.constant dense<0.5> : tensor<2x1x1x1xf32>
  %wb = arith.constant dense<0.25> : tensor<3x2x3x3xf32>
  %b = arith.constant dense<1.0> : tensor<3xf32>
  %lat = graph.conv2d %x, %wa : (tensor<1x1x8x8xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x8x8xf32>
  %split = graph.reshape %lat : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x2x4x2xf32>
  %sum6 = graph.add %y6, %split : (tensor<1x2x4x1x4x1xf32>, tensor<1x2x4x2x4x2xf32>) -> tensor<1x2x4x2x4x2xf32>
  %sum = graph.reshape %sum6 : (tensor<1x2x4x2x4x2xf32>) -> tensor<1x2x8x8xf32>
  %out = graph.conv2d %sum, %wb, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  return %out : tensor<1x3x8x8xf32>
}

// A lateral convolution with a bias (torchvision's FPN has one): the bias
// [0.5, -1] moves to the coarse map, added before the phases (a per-channel
// constant commutes with the upsampling, and conv_b's zero padding then
// sees the same border); the composed convolution has conv_b's (no) bias.
// CHECK-LABEL: func.func @lateral_bias
// CHECK-DAG: %[[BA:.*]] = arith.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}-1.000000e+00]]]]> : tensor<1x2x1x1xf32>
// CHECK: %[[YB:.*]] = graph.add %arg1, %[[BA]] : (tensor<1x2x8x8xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x8x8xf32>
// CHECK-COUNT-4: graph.conv2d %[[YB]], %{{.*}} {pads
// CHECK: %[[A:.*]] = graph.conv2d %arg0, %{{[^,]*}} {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x16x16xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x16x16xf32>
// CHECK: graph.add %[[A]]
// CHECK-NOT: graph.broadcast
func.func @lateral_bias(%x: tensor<1x1x16x16xf32>, %y: tensor<1x2x8x8xf32>) -> tensor<1x1x16x16xf32> {
  %wa = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %ba = arith.constant dense<[0.5, -1.0]> : tensor<2xf32>
  %wb = arith.constant dense<1.0> : tensor<1x2x3x3xf32>
  %lat = graph.conv2d %x, %wa, %ba : (tensor<1x1x16x16xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x16x16xf32>
  %r1 = graph.reshape %y : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1x8x1xf32>
  %bc = graph.broadcast %r1 : (tensor<1x2x8x1x8x1xf32>) -> tensor<1x2x8x2x8x2xf32>
  %up = graph.reshape %bc : (tensor<1x2x8x2x8x2xf32>) -> tensor<1x2x16x16xf32>
  %sum = graph.add %lat, %up : (tensor<1x2x16x16xf32>, tensor<1x2x16x16xf32>) -> tensor<1x2x16x16xf32>
  %out = graph.conv2d %sum, %wb {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x16x16xf32>, tensor<1x2x3x3xf32>) -> tensor<1x1x16x16xf32>
  return %out : tensor<1x1x16x16xf32>
}
