// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt --convert-graph-to-isa="sync=barrier dram-placement=channels" %s | FileCheck %s

// A forced decision (accel.tiling, kept by the lowering): n loop outside,
// 64x64x64 partitions. The four N partitions (outer) are dealt over the four
// clusters; each cluster keeps its B strip (64 x 64 at storage 98304, the strip
// region above the halves and C tiles) for the whole inner m loop and streams the four A partitions
// through the ping-pong halves; its C tiles go down one column of C.

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK:      isa.dma load tag 0 src 0 dst [[HALF0:[0-9]+]] shape [64, 64] src_strides [64, 1]
// CHECK-NEXT: isa.dma load tag 0 src 536870912 dst [[STRIP:[0-9]+]] shape [64, 64] src_strides [256, 1]
// CHECK-NOT:  src 536870912
// CHECK:      isa.dma load tag 1 src 16384 dst
// CHECK-NOT:  src 536870912
// CHECK:      isa.execute ibuf 1 shift last
// CHECK-NOT:  src 536870912
// CHECK:      isa.dma store tag 2 {{.*}}dst 65536 shape [64, 64] src_strides [64, 1] dst_strides [256, 1]
// CHECK-NOT:  src 536870912
// CHECK:      isa.dma load tag 0 src 32768 dst [[HALF0]]
// CHECK-NOT:  src 536870912
// CHECK:      isa.dma store tag 3 {{.*}}dst 131072
// CHECK-NOT:  src 536870912
// CHECK:      isa.dma load tag 1 src 49152
// CHECK-NOT:  src 536870912
// CHECK:      isa.dma store tag 2 {{.*}}dst 196608
// CHECK-NOT:  src 536870912
// CHECK:      isa.dma store tag 3 {{.*}}dst 262144
// CHECK-NOT:  isa.dma
// CHECK:      isa.barrier 0
// The second cluster holds the second N partition (B columns 64..). B, read
// alike by all clusters, went to the second memory channel's region (byte
// 536870912 = 2^29 on the default machine), C to the first one's (after A).
// CHECK-LABEL: isa.cluster(0, 1) {
// CHECK:      isa.dma load tag 0 src 536871168 dst 98304 shape [64, 64] src_strides [256, 1]
// CHECK-NOT:  src 536871168
// CHECK:      isa.dma store tag 2 {{.*}}dst 65792
// CHECK:      isa.barrier 0
// CHECK-LABEL: isa.cluster(1, 1) {
// CHECK:      isa.dma load tag 0 src 536871680 dst 98304 shape [64, 64]
func.func @main(%a: tensor<256x64xf32> {accel.name = "a"}, %b: tensor<64x256xf32> {accel.name = "b"})
    -> (tensor<256x256xf32> {accel.name = "c"}) {
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = n>} : (tensor<256x64xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
