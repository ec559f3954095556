// RUN: accel-opt --convert-graph-to-isa %s | FileCheck %s
// RUN: accel-opt --convert-graph-to-isa=residency=off %s | FileCheck %s --check-prefix=OFF
// RUN: accel-opt --convert-graph-to-isa=residency-report %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not accel-opt --convert-graph-to-isa=residency=maybe %s 2>&1 | FileCheck %s --check-prefix=BAD

// On-chip residency (docs/passes.md) on the default 2 x 2 grid: two ReLUs
// of one 24 x 64 tile on cluster (0, 0) (fewer rows than spread an
// elementwise layer over the clusters), then a matmul whose N columns are
// split over clusters (0, 0) and (0, 1). The kernels leave the top of
// every storage unit to resident pieces (the largest intermediate's even
// share per cluster; pieces also use what the kernels leave above it).
// %0 lives in storage at 6144 (above the ReLUs' tiles, layers 0 and 1
// only): the store and the next load become local copies. %1 is read by
// cluster (0, 1) too, so it is held to the end, above the matmul's tiles
// (153600: the kernels take storage from address 0 up, only what they use);
// the matmul keeps its A tile in a resident slot (147456), and (0, 1) reads
// it over the mesh after the producer's SIGNAL.

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK:       isa.dma  load tag 0 src 0 dst 0 shape [24, 64]
// CHECK:       isa.dma  local_copy tag 2 src 0 dst 6144 shape [24, 64]
// CHECK-NEXT:  isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// CHECK:       isa.dma  local_copy tag 0 src 6144 dst 0 shape [24, 64]
// CHECK:       isa.dma  local_copy tag 2 src 0 dst 153600 shape [24, 64]
// CHECK-NEXT:  isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// CHECK-NEXT:  isa.signal to [(0, 1)] sem 0
// CHECK:       isa.dma  local_copy tag 0 src 153600 dst 147456 shape [24, 64]
// CHECK-NEXT:  isa.dma  load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [64, 192]
// CHECK:       isa.dma  store tag 2 src {{[0-9]+}} dst {{[0-9]+}} shape [24, 192]
// CHECK-LABEL: isa.cluster(0, 1) {
// CHECK:       isa.recv sem 0 count 1
// CHECK-NEXT:  isa.dma  remote_load from (0, 0) tag 0 src 153600 dst 147456 shape [24, 64]
// CHECK-NOT:   local_copy

// OFF-NOT:     local_copy
// OFF-NOT:     remote_load
// OFF:         isa.dma  store tag 2 src 0 dst [[A:[0-9]+]] shape [24, 64]
// OFF:         isa.dma  load tag 0 src [[A]] dst 0 shape [24, 64]

// REPORT: remark: residency: 12288 bytes of intermediates in 2 pieces kept on chip (30720 DMA bytes off DRAM), 0 bytes in 0 pieces spilled to DRAM (0 DMA bytes)

// BAD: Cannot find option named 'maybe'

func.func @main(%x: tensor<24x64xf32> {accel.name = "x"},
                %w: tensor<64x256xf32> {accel.name = "w"})
    -> (tensor<24x256xf32> {accel.name = "y"}) {
  %0 = graph.unary relu %x : tensor<24x64xf32>
  %1 = graph.unary relu %0 : tensor<24x64xf32>
  %2 = graph.matmul %1, %w : (tensor<24x64xf32>, tensor<64x256xf32>) -> tensor<24x256xf32>
  return %2 : tensor<24x256xf32>
}
