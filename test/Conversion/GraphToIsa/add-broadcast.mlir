// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt --convert-graph-to-isa="sync=barrier dram-placement=channels" %s | FileCheck %s

// numpy broadcasting: the [5] operand is the same row for every row of the
// tile, so it is DMA'd once ([1, 5], zero stride along the broadcast
// dimension) and LD acts repeats it (row_stride 0, not printed).
// Returning an input forces a copy.

// CHECK-LABEL: isa.program
// CHECK-DAG: isa.io input "input0" at 0 : tensor<3x5xf32>
// CHECK-DAG: isa.io input "input1" at 64 : tensor<5xf32>
// CHECK-DAG: isa.io output "output0" at 128 : tensor<3x5xf32>
// CHECK-DAG: isa.io output "output1" at [[COPY:[0-9]+]] : tensor<5xf32>
// CHECK: isa.config ibuf 2
// CHECK: isa.ld acts slot 0 <rows = 3, cols = 5, row_stride = 5, pe_rows = 1>
// CHECK: isa.ld acts slot 8 <rows = 3, cols = 5, pe_rows = 1>
// CHECK: isa.spu binary in 0 out 0 <{{.*}}func = add>
// CHECK: isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [1, 5] src_strides [0, 1]
// CHECK: isa.barrier 0
// CHECK: isa.dma dram_copy tag 0 src 64 dst [[COPY]]
// CHECK: isa.barrier 1
func.func @main(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> (tensor<3x5xf32>, tensor<5xf32>) {
  %0 = graph.add %a, %b : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0, %b : tensor<3x5xf32>, tensor<5xf32>
}
