// RUN: accel-opt --fuse-layers %s | FileCheck %s
// RUN: accel-opt --fuse-layers=broadcast-residual=false %s | FileCheck %s --check-prefix=OFF

// A feature pyramid's top-down add: the lateral 1x1 conv's result, reshaped,
// plus the upper level read through a nearest 2x upsampling (a broadcast of
// size-1 dims, as canonicalisation leaves Resize). The upper level is
// computed after the lateral conv, so the conv moves down to the add and the
// reshape and add become its epilogue (residual step).

// CHECK-LABEL: func.func @pyramid
// CHECK: %[[UP:.*]] = graph.conv2d %arg1
// CHECK: %[[UPR:.*]] = graph.reshape %[[UP]] : {{.*}} -> tensor<1x4x2x1x2x1xf32>
// CHECK: %[[LAT:.*]] = graph.conv2d %arg0, {{.*}}accel.fusion = #accel.fusion<steps = [residual]
// CHECK-NEXT: %[[R:.*]] = graph.reshape %[[LAT]] {accel.fused}
// CHECK-NEXT: graph.add %[[R]], %[[UPR]] {accel.fused}
// OFF-LABEL: func.func @pyramid
// OFF: %[[LAT:.*]] = graph.conv2d %arg0
// OFF-NOT: accel.fusion
// OFF: graph.add
// OFF-NOT: accel.fused
func.func @pyramid(%x: tensor<1x3x4x4xf32>, %u: tensor<1x3x2x2xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<4x3x1x1xf32>
  %v = arith.constant dense<0.25> : tensor<4x3x1x1xf32>
  %lat = graph.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
  %up = graph.conv2d %u, %v : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32>
  %upr = graph.reshape %up : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x1x2x1xf32>
  %r = graph.reshape %lat : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2x2x2xf32>
  %s = graph.add %r, %upr : (tensor<1x4x2x2x2x2xf32>, tensor<1x4x2x1x2x1xf32>) -> tensor<1x4x2x2x2x2xf32>
  %y = graph.reshape %s : (tensor<1x4x2x2x2x2xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// A per-channel value (1/64 of the elements) is not an upsampled map: no
// fusion (it would be re-read through zero strides per tile row).
// CHECK-LABEL: func.func @per_channel
// CHECK-NOT: accel.fusion
func.func @per_channel(%x: tensor<1x3x8x8xf32>, %z: tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %w = arith.constant dense<0.5> : tensor<4x3x1x1xf32>
  %c = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x8x8xf32>
  %a = graph.add %c, %z : (tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  return %a : tensor<1x4x8x8xf32>
}
