// Two residual adds in a row, each fused into a different conv (the sum of
// three convs, as ONNX exporters write a grouped Conv3d): c2's chain ends
// at its own add; the next add (whose other operand c3 comes after c2) is
// c3's residual add. Numerics: test/e2e (onnx-conformance test_Conv3d_groups).
// RUN: accel-opt %s --fuse-layers | FileCheck %s --check-prefix=FUSE
// RUN: accel-opt %s --fuse-layers --convert-graph-to-isa="sync=barrier residency=off" | FileCheck %s --check-prefix=ISA

// FUSE: %[[C1:.*]] = graph.conv2d %arg0
// FUSE-NOT: accel.fusion
// FUSE: %[[C2:.*]] = graph.conv2d {{.*}}steps = [residual], fused = ["A1"]
// FUSE: %[[A1:.*]] = graph.add %[[C1]], %[[C2]] {accel.fused}
// FUSE: %[[C3:.*]] = graph.conv2d {{.*}}steps = [residual], fused = ["A2"]
// FUSE: graph.add %[[A1]], %[[C3]] {accel.fused}

// Three layers (the three convs), two of them with a residual tile load.
// ISA-LABEL: isa.cluster(0, 0)
// ISA-COUNT-2: isa.dma load tag 4
// ISA-NOT: isa.barrier 3
func.func @main(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %w = arith.constant dense<0.5> : tensor<4x4x1x1xf32>
  %c1 = graph.conv2d %x, %w : (tensor<1x4x5x5xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %c2 = graph.conv2d %x, %w : (tensor<1x4x5x5xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %a1 = graph.add %c1, %c2 : (tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> loc("A1")
  %c3 = graph.conv2d %x, %w : (tensor<1x4x5x5xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %a2 = graph.add %a1, %c3 : (tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> loc("A2")
  return %a2 : tensor<1x4x5x5xf32>
}
