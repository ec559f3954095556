// RUN: accel-opt --fold-upsampled-merge %s | FileCheck %s

// Each function breaks one condition of the rewrite; all stay as they are.

// The merged map has a second reader: it must be written anyway.
// CHECK-LABEL: func.func @merged_map_read_twice
// CHECK: graph.broadcast
// CHECK: %[[SUM:.*]] = graph.add
// CHECK: graph.conv2d %[[SUM]]
func.func @merged_map_read_twice(%x: tensor<1x1x2x2xf32>, %y: tensor<1x2x1x1xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x2x2x2xf32>) {
  %wa = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %wb = arith.constant dense<1.0> : tensor<1x2x3x3xf32>
  %lat = graph.conv2d %x, %wa : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %r1 = graph.reshape %y : (tensor<1x2x1x1xf32>) -> tensor<1x2x1x1x1x1xf32>
  %bc = graph.broadcast %r1 : (tensor<1x2x1x1x1x1xf32>) -> tensor<1x2x1x2x1x2xf32>
  %up = graph.reshape %bc : (tensor<1x2x1x2x1x2xf32>) -> tensor<1x2x2x2xf32>
  %sum = graph.add %lat, %up : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %out = graph.conv2d %sum, %wb {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x2x2xf32>, tensor<1x2x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %out, %sum : tensor<1x1x2x2xf32>, tensor<1x2x2x2xf32>
}

// A strided conv_b does not keep the upsampled grid.
// CHECK-LABEL: func.func @strided
// CHECK: graph.broadcast
func.func @strided(%x: tensor<1x1x2x2xf32>, %y: tensor<1x2x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %wa = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %wb = arith.constant dense<1.0> : tensor<1x2x3x3xf32>
  %lat = graph.conv2d %x, %wa : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x2x2xf32>
  %r1 = graph.reshape %y : (tensor<1x2x1x1xf32>) -> tensor<1x2x1x1x1x1xf32>
  %bc = graph.broadcast %r1 : (tensor<1x2x1x1x1x1xf32>) -> tensor<1x2x1x2x1x2xf32>
  %up = graph.reshape %bc : (tensor<1x2x1x2x1x2xf32>) -> tensor<1x2x2x2xf32>
  %sum = graph.add %lat, %up : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %out = graph.conv2d %sum, %wb {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %out : tensor<1x1x1x1xf32>
}

// A valid (unpadded) conv_b changes the size: no phase grid.
// CHECK-LABEL: func.func @valid_conv
// CHECK: graph.broadcast
func.func @valid_conv(%x: tensor<1x1x4x4xf32>, %y: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %wa = arith.constant dense<1.0> : tensor<2x1x1x1xf32>
  %wb = arith.constant dense<1.0> : tensor<1x2x3x3xf32>
  %lat = graph.conv2d %x, %wa : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r1 = graph.reshape %y : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1x2x1xf32>
  %bc = graph.broadcast %r1 : (tensor<1x2x2x1x2x1xf32>) -> tensor<1x2x2x2x2x2xf32>
  %up = graph.reshape %bc : (tensor<1x2x2x2x2x2xf32>) -> tensor<1x2x4x4xf32>
  %sum = graph.add %lat, %up : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %out = graph.conv2d %sum, %wb : (tensor<1x2x4x4xf32>, tensor<1x2x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %out : tensor<1x1x2x2xf32>
}

// Eight input channels into one merged channel: the composed 3x3 conv
// (72 multiply-adds per pixel) costs more than the 1x1 and conv_b (17).
// CHECK-LABEL: func.func @no_fewer_macs
// CHECK: graph.broadcast
func.func @no_fewer_macs(%x: tensor<1x8x2x2xf32>, %y: tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32> {
  %wa = arith.constant dense<1.0> : tensor<1x8x1x1xf32>
  %wb = arith.constant dense<1.0> : tensor<1x1x3x3xf32>
  %lat = graph.conv2d %x, %wa : (tensor<1x8x2x2xf32>, tensor<1x8x1x1xf32>) -> tensor<1x1x2x2xf32>
  %r1 = graph.reshape %y : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1x1x1xf32>
  %bc = graph.broadcast %r1 : (tensor<1x1x1x1x1x1xf32>) -> tensor<1x1x1x2x1x2xf32>
  %up = graph.reshape %bc : (tensor<1x1x1x2x1x2xf32>) -> tensor<1x1x2x2xf32>
  %sum = graph.add %lat, %up : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %out = graph.conv2d %sum, %wb {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x2xf32>
  return %out : tensor<1x1x2x2xf32>
}

// An 8x upsampling of a 1 x 1 map under a 3 x 3 conv with 64 channels: 64
// phases of 2 x 2 taps would store 4 MB of kernels (64 x 64 x 64 x 4 x 4 B)
// to save an 8 x 8 x 64 merged map (16 KB written and read): left alone
// although it needs fewer multiply-adds.
// CHECK-LABEL: func.func @phase_kernels_outweigh_the_map
// CHECK: graph.broadcast
// CHECK-NOT: [phase
func.func @phase_kernels_outweigh_the_map(%x: tensor<1x1x8x8xf32>, %y: tensor<1x64x1x1xf32>) -> tensor<1x64x8x8xf32> {
  %wa = arith.constant dense<1.0> : tensor<64x1x1x1xf32>
  %wb = arith.constant dense<1.0> : tensor<64x64x3x3xf32>
  %lat = graph.conv2d %x, %wa : (tensor<1x1x8x8xf32>, tensor<64x1x1x1xf32>) -> tensor<1x64x8x8xf32>
  %r1 = graph.reshape %y : (tensor<1x64x1x1xf32>) -> tensor<1x64x1x1x1x1xf32>
  %bc = graph.broadcast %r1 : (tensor<1x64x1x1x1x1xf32>) -> tensor<1x64x1x8x1x8xf32>
  %up = graph.reshape %bc : (tensor<1x64x1x8x1x8xf32>) -> tensor<1x64x8x8xf32>
  %sum = graph.add %lat, %up : (tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %out = graph.conv2d %sum, %wb {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x8x8xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x8x8xf32>
  return %out : tensor<1x64x8x8xf32>
}
