// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt --convert-graph-to-isa=sync=barrier %s | FileCheck %s

// The spec's I(4x8) . W(8x8) example on the default 2x2 grid: one partition
// (the tile selection's decision, docs/tiling.md), computed by cluster (0,0);
// the ReLU is fused into the final store (chained SFU), one CONFIG then
// EXECUTE per partition step.

// CHECK-LABEL: isa.program grid(2 x 2) dram 512
// CHECK-DAG: isa.io input "a" at 0 : tensor<4x8xf32>
// CHECK-DAG: isa.io input "b" at 128 : tensor<8x8xf32>
// CHECK-DAG: isa.io output "y" at 384 : tensor<4x8xf32>
// CHECK: isa.cluster(0, 0) {
// CHECK-NEXT: isa.config ibuf 1 layer {{[0-9]+}} {
// CHECK-NEXT:   isa.ld acts slot 0 <{{(addr = [0-9]+, )?}}rows = 4, cols = 8, row_stride = 8, pe_rows = 1>
// CHECK-NEXT:   isa.ld weights slot 0 <{{(addr = [0-9]+, )?}}rows = 8, cols = [[NC:[0-9]+]], row_stride = [[NC]]>
// CHECK-NEXT:   isa.mac slot 0 acc 0 sfu <rows = 4, cols = [[NC]], pe_rows = 1, depth = 8>
// CHECK-NEXT:   isa.st acc slot 0 acc 0 <{{.*}}func = relu>
// CHECK-NEXT: }
// CHECK-NEXT: isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1] dst_strides [8, 1]
// CHECK-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, [[NC]]] src_strides [8, 1]
// CHECK-NEXT: isa.wait tags [0, 2]
// CHECK-NEXT: isa.execute ibuf 1 shift last
// CHECK-NEXT: isa.wait tags [] pe
// CHECK-NEXT: isa.dma store tag 2 {{.*}} dst 384
// CHECK:      isa.barrier 0
// CHECK: isa.cluster(0, 1)
// CHECK: isa.cluster(1, 0)
// CHECK: isa.cluster(1, 1)
// CHECK-NOT: graph.
func.func @main(%a: tensor<4x8xf32> {accel.name = "a"}, %b: tensor<8x8xf32> {accel.name = "b"})
    -> (tensor<4x8xf32> {accel.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = graph.relu %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
