// A chain fused into conv_transpose2d (fuse-layers) in the GEMM lowering's
// epilogue: the first step is the chained function of the accumulator
// store, the others run on the stored tile before the depth-to-space DMA
// store; one layer. With taps that leave gaps (1x1 stride 2: pixels only
// the bias reaches) or overlap (zero-stuffing), the whole chain is one SFU
// pass after the layer instead.
// RUN: accel-opt %s -split-input-file --fuse-layers --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s

// CHECK-LABEL: isa.program
// CHECK: #isa.layer<name = "{{.*}}", op = "graph.conv_transpose2d", macs = 288,
// CHECK-SAME: fused = ["Relu_1", "Mul_2"]
// CHECK-NOT: #isa.layer
// CHECK: isa.cluster(0, 0)
// CHECK: isa.st acc {{.*}} func = relu>
// CHECK: isa.st inbuf {{.*}} func = scale, imm = 5.000000e-01
// CHECK: isa.dma store tag {{[0-9]+}} src {{[0-9]+}} dst {{[0-9]+}} shape [3, 3, 2, 2] src_strides [12, 4, 2, 1] dst_strides [2, 24, 6, 1]
// CHECK-NOT: isa.barrier 1
func.func @main(%x: tensor<1x4x2x3xf32> {accel.name = "x"}) -> (tensor<1x3x4x6xf32> {accel.name = "y"}) {
  %w = arith.constant dense<1.0> : tensor<4x3x2x2xf32>
  %b = arith.constant dense<0.5> : tensor<3xf32>
  %h = arith.constant dense<0.5> : tensor<f32>
  %c = graph.conv_transpose2d %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x4x2x3xf32>, tensor<4x3x2x2xf32>, tensor<3xf32>) -> tensor<1x3x4x6xf32>
  %r = graph.relu %c : tensor<1x3x4x6xf32> loc("Relu_1")
  %y = graph.binary mul %r, %h : (tensor<1x3x4x6xf32>, tensor<f32>) -> tensor<1x3x4x6xf32> loc("Mul_2")
  return %y : tensor<1x3x4x6xf32>
}

// -----

// Gaps: the bias fill, the GEMM (no function on its store), then one SFU
// pass applying sigmoid to every pixel (bias-only ones included).
// CHECK-LABEL: isa.program
// CHECK: fused = ["Sigmoid_1"]
// CHECK-NOT: #isa.layer
// CHECK: isa.cluster(0, 0)
// CHECK-NOT: func = sigmoid
// CHECK: isa.barrier 1
// CHECK: func = sigmoid
// CHECK: isa.barrier 2
func.func @main(%x: tensor<1x2x3x3xf32> {accel.name = "x"}) -> (tensor<1x2x5x5xf32> {accel.name = "y"}) {
  %w = arith.constant dense<1.0> : tensor<2x2x1x1xf32>
  %b = arith.constant dense<0.5> : tensor<2xf32>
  %c = graph.conv_transpose2d %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x5x5xf32>
  %y = graph.unary sigmoid %c : tensor<1x2x5x5xf32> loc("Sigmoid_1")
  return %y : tensor<1x2x5x5xf32>
}
