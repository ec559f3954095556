// Concat as addressing: a concat operand whose slice of the result is
// contiguous (every dim before the axis is 1) and whose producer (or fused
// chain) is used only by the concat is written in place by its producer;
// the concat copies only the other operands. x at 0.
// RUN: accel-opt %s -split-input-file --fuse-layers --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s

// Two convs (the second with a fused relu) written into the two halves of
// the concat's buffer: two layers, no copy layer for the concat.
// CHECK-LABEL: isa.program
// CHECK-SAME: layers [
// CHECK-NEXT: op = "graph.conv2d"
// CHECK-NEXT: op = "graph.conv2d", {{.*}}fused = ["Relu_1"], input_symbols = ["x"], output_symbols = ["y"], output_bytes = 128>
// CHECK-NEXT: ]
// CHECK: isa.io output "y" at 128
// CHECK: isa.dma store tag 2 src {{[0-9]+}} dst 128 shape [2, 4, 4]
// CHECK: isa.dma store tag 2 src {{[0-9]+}} dst 256 shape [2, 4, 4]
// CHECK-NOT: dram_copy
func.func @main(%x: tensor<1x2x4x4xf32> {accel.name = "x"}) -> (tensor<1x4x4x4xf32> {accel.name = "y"}) {
  %w = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %a = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %b = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = graph.relu %b : tensor<1x2x4x4xf32> loc("Relu_1")
  %y = graph.concat %a, %r {axis = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

// An operand with a second user (also returned) and an input operand are
// copied; the conv with the concat as its only user is not.
// CHECK-LABEL: isa.program
// CHECK: op = "graph.concat"
// CHECK: isa.io input "x" at 0
// CHECK: isa.io output "y" at 128
// CHECK: isa.io output "a" at 576
// The third operand's conv stores into its slice (128 + 2 * 2 * 16 * 4).
// CHECK: isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [2, 4, 4]
// CHECK: isa.dma dram_copy tag 0 src 0 dst 128
// CHECK: isa.dma dram_copy tag 0 src 576 dst 256
// CHECK-NOT: dst 384
func.func @main(%x: tensor<1x2x4x4xf32> {accel.name = "x"}) -> (tensor<1x6x4x4xf32> {accel.name = "y"}, tensor<1x2x4x4xf32> {accel.name = "a"}) {
  %w = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %a = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %b = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %y = graph.concat %x, %a, %b {axis = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x6x4x4xf32>
  return %y, %a : tensor<1x6x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// Batch 2: the slices are strided (the channel axis is not the outermost
// varying one): the concat copies.
// CHECK-LABEL: isa.program
// CHECK: op = "graph.concat"
// CHECK: isa.dma store {{.*}} dst_strides [64, 1] layer 2
func.func @main(%x: tensor<2x2x4x4xf32> {accel.name = "x"}) -> (tensor<2x4x4x4xf32> {accel.name = "y"}) {
  %w = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %a = graph.conv2d %x, %w : (tensor<2x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<2x2x4x4xf32>
  %b = graph.conv2d %x, %w : (tensor<2x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<2x2x4x4xf32>
  %y = graph.concat %a, %b {axis = 1 : i64} : (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %y : tensor<2x4x4x4xf32>
}
