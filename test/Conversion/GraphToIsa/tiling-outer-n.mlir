// RUN: accel-opt --convert-graph-to-isa %s | FileCheck %s

// A forced decision (accel.tiling, kept by the lowering): n loop outside,
// 64x64x64 partitions. The four N partitions (outer) are dealt over the four
// clusters; each cluster keeps its B strip (64 x 64 at storage 0, the strip
// region) for the whole inner m loop and streams the four A partitions
// through the ping-pong halves; its C tiles go down one column of C.

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK:      isa.dma load tag 0 src 0 dst [[HALF0:[0-9]+]] shape [64, 64] src_strides [64, 1]
// CHECK-NEXT: isa.dma load tag 0 src 65536 dst 0 shape [64, 64] src_strides [256, 1]
// CHECK-NOT:  src 65536
// CHECK:      isa.dma load tag 1 src 16384 dst
// CHECK-NOT:  src 65536
// CHECK:      isa.execute ibuf 1 shift last
// CHECK-NOT:  src 65536
// CHECK:      isa.dma store tag 2 {{.*}}dst 131072 shape [64, 64] src_strides [64, 1] dst_strides [256, 1]
// CHECK-NOT:  src 65536
// CHECK:      isa.dma load tag 0 src 32768 dst [[HALF0]]
// CHECK-NOT:  src 65536
// CHECK:      isa.dma store tag 3 {{.*}}dst 196608
// CHECK-NOT:  src 65536
// CHECK:      isa.dma load tag 1 src 49152
// CHECK-NOT:  src 65536
// CHECK:      isa.dma store tag 2 {{.*}}dst 262144
// CHECK-NOT:  src 65536
// CHECK:      isa.dma store tag 3 {{.*}}dst 327680
// CHECK-NOT:  isa.dma
// CHECK:      isa.barrier 0
// The second cluster holds the second N partition (B columns 64.., byte 65792).
// CHECK-LABEL: isa.cluster(0, 1) {
// CHECK:      isa.dma load tag 0 src 65792 dst 0 shape [64, 64] src_strides [256, 1]
// CHECK-NOT:  src 65792
// CHECK:      isa.dma store tag 2 {{.*}}dst 131328
// CHECK:      isa.barrier 0
// CHECK-LABEL: isa.cluster(1, 1) {
// CHECK:      isa.dma load tag 0 src 66304 dst 0 shape [64, 64]
func.func @main(%a: tensor<256x64xf32> {accel.name = "a"}, %b: tensor<64x256xf32> {accel.name = "b"})
    -> (tensor<256x256xf32> {accel.name = "c"}) {
  %0 = graph.matmul %a, %b {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 64, outer = n>} : (tensor<256x64xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}
