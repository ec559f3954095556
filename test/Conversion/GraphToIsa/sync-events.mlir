// RUN: accel-opt --convert-graph-to-isa %s | FileCheck %s
// RUN: accel-opt --convert-graph-to-isa=sync=barrier %s | FileCheck %s --check-prefix=BAR
// RUN: not accel-opt --convert-graph-to-isa=sync=never %s 2>&1 | FileCheck %s --check-prefix=BAD

// Two layers on the default 2 x 2 grid (docs/passes.md, "Synchronisation"):
// cluster (0, 0) computes the ReLU (one tile: 24 rows, fewer than the 2 x 4
// clusters x 4 PEs that make an elementwise layer spread its tiles) into the
// intermediate at 6144;
// the transpose copy is spread over the four clusters, each reading a
// column block of all rows. Cluster (0, 0) waits for its DMAs and signals
// the three others (semaphore 0 = its index) once; each of them receives
// that signal right before its dependent DMA. Cluster (0, 0) itself needs no
// RECV (its own WAIT orders its accesses), and nobody needs the last layer's
// signals, so there are none; no BARRIER at all.

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK:       isa.dma  store tag 2 src 0 dst 6144 shape [24, 64]
// CHECK-NEXT:  isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// CHECK-NEXT:  isa.signal to [(0, 1), (1, 0), (1, 1)] sem 0
// CHECK-NEXT:  isa.dma  dram_copy tag 0 src 6144
// CHECK-NEXT:  isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// CHECK-NEXT:  }
// CHECK-LABEL: isa.cluster(0, 1) {
// CHECK-NEXT:  isa.recv sem 0 count 1
// CHECK-NEXT:  isa.dma  dram_copy tag 0 src 6208
// CHECK-LABEL: isa.cluster(1, 0) {
// CHECK-NEXT:  isa.recv sem 0 count 1
// CHECK-NEXT:  isa.dma  dram_copy tag 0 src 6272
// CHECK-LABEL: isa.cluster(1, 1) {
// CHECK-NEXT:  isa.recv sem 0 count 1
// CHECK-NEXT:  isa.dma  dram_copy tag 0 src 6336
// CHECK-NOT:   isa.barrier
// CHECK-NOT:   isa.signal

// The old behaviour: every cluster waits and meets the others after every
// layer.
// BAR-LABEL: isa.cluster(0, 0) {
// BAR:       isa.dma  store tag 2 src 0 dst 6144
// BAR-NEXT:  isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// BAR-NEXT:  isa.barrier 0
// BAR-LABEL: isa.cluster(0, 1) {
// BAR-NEXT:  isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// BAR-NEXT:  isa.barrier 0
// BAR-NEXT:  isa.dma  dram_copy tag 0 src 6208
// BAR-NOT:   isa.signal
// BAR-NOT:   isa.recv

// BAD: for the --sync option: Cannot find option named 'never'!

func.func @main(%a: tensor<24x64xf32> {accel.name = "a"}) -> (tensor<64x24xf32> {accel.name = "y"}) {
  %0 = graph.relu %a : tensor<24x64xf32>
  %1 = graph.transpose %0 [1, 0] : (tensor<24x64xf32>) -> tensor<64x24xf32>
  return %1 : tensor<64x24xf32>
}
