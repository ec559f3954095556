// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt --convert-graph-to-isa="sync=barrier conv-padding=copy" %s | FileCheck %s

// A padded, strided conv with bias: the input is first copied into the
// interior of a zeroed buffer (DRAM -> DRAM DMA), then the implicit GEMM
// initialises the accumulators from the bias (LD psums) on the first K chunk
// (ibuf 0) and accumulates the other kernel positions with ibuf 1.

// CHECK-LABEL: isa.program grid(2 x 2)
// CHECK: isa.data at {{[0-9]+}} = dense<5.000000e-01> : tensor<54xf32>
// CHECK: isa.data at {{[0-9]+}} = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK: isa.cluster(0, 0) {
// CHECK: isa.dma dram_copy tag 0
// CHECK: isa.barrier 0
// CHECK: isa.config ibuf 0 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld psums slot 0
// CHECK-NEXT: isa.ld acts slot 0
// CHECK-NEXT: isa.ld weights slot 0
// CHECK-NEXT: isa.mac slot 0 acc 0
// CHECK-NEXT: isa.st acc slot 0 acc 0
// CHECK: isa.config ibuf 1 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld acts slot 0
// CHECK-NEXT: isa.ld weights slot 0
// CHECK-NEXT: isa.mac slot 0 acc 0
// CHECK-NEXT: isa.st acc slot 0 acc 0
// CHECK: isa.execute ibuf 0
// CHECK: isa.execute ibuf 1 {{.*}}shift last
// CHECK: isa.barrier 1
func.func @main(%x: tensor<1x2x7x5xf32> {accel.name = "x"}) -> (tensor<1x3x4x3xf32> {accel.name = "y"}) {
  %w = arith.constant dense<0.5> : tensor<3x2x3x3xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x7x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x4x3xf32>
  return %y : tensor<1x3x4x3xf32>
}
