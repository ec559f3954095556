// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt --convert-graph-to-isa=sync=barrier %s | FileCheck %s

// alpha scales the A tiles on the SFU inside the GEMM; beta != 1 sends C
// through a second, elementwise layer (scale C, add), with C broadcast (one
// row DMAd, repeated by LD acts with row_stride 0).

// CHECK-LABEL: isa.program
// CHECK: isa.cluster(0, 0) {
// CHECK: isa.config ibuf 1 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld acts slot 0
// CHECK-NEXT: isa.spu unary in 0 out 0 <{{.*}}func = scale, imm = 2.500000e-01 : f32>
// CHECK-NEXT: isa.ld weights slot 0
// CHECK-NEXT: isa.mac
// CHECK-NEXT: isa.st acc
// CHECK: isa.barrier 0
// CHECK: isa.config ibuf 2 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld acts slot 0
// CHECK-NEXT: isa.ld acts slot 8
// CHECK-NEXT: isa.spu unary in 8 out 8 <{{.*}}func = scale, imm = 3.500000e-01 : f32>
// CHECK-NEXT: isa.spu binary in 0 out 0 <{{.*}}depth = 8{{.*}}func = add>
// CHECK-NEXT: isa.st inbuf slot 0
// CHECK: isa.dma load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [1, 5] src_strides [0, 1]
// CHECK: isa.barrier 1
func.func @main(%a: tensor<4x3xf32>, %b: tensor<5x4xf32>, %c: tensor<1x5xf32>) -> tensor<3x5xf32> {
  %y = graph.gemm %a, %b, %c {alpha = 0.25 : f32, beta = 0.35 : f32, trans_a = true, trans_b = true}
      : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<1x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}
