// RUN: accel-opt --accel-default-pipeline="residency=off fuse=off" %s | FileCheck %s
// RUN: accel-opt --accel-default-pipeline="residency=off fuse=off dram-copy-time=false" %s | FileCheck %s --check-prefix=COPIES

// A ReLU's 512 KiB result read whole by every cluster of a matmul split by
// output columns (docs/passes.md, "Memory planning on channels"). Each
// cluster writes a quarter of it; the two clusters of each channel read
// all of it, twice the bytes written, so dram-copy-factor=1 alone copies
// every quarter onto the other channel and every store is issued twice
// (COPIES). The matmul is bound by its MACs (268 M MACs: 262 k cycles at the
// default machine's peak, against 2 MiB of reads, 16 k cycles on each
// channel), so the copies shorten no layer and dram-copy-time drops them:
// each quarter is stored once and read from where it is.

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK:      isa.dma load tag 0 src 0 dst 0 shape [64, 512] {{.*}} layer 1
// CHECK:      isa.dma store tag 2 src 0 dst {{[0-9]+}} shape [64, 512] {{.*}} layer 1
// CHECK-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe layer 1
// CHECK:      isa.cluster(1, 1) {
// CHECK:      isa.dma load tag 0 {{.*}} shape [64, 512] {{.*}} layer 1
// CHECK:      isa.dma store tag 2 src 0 dst {{[0-9]+}} shape [64, 512] {{.*}} layer 1
// CHECK-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe layer 1

// COPIES-LABEL: isa.cluster(0, 0) {
// COPIES:      isa.dma load tag 0 src 0 dst 0 shape [64, 512] {{.*}} layer 1
// COPIES:      isa.dma store tag 2 src 0 dst {{[0-9]+}} shape [64, 512] {{.*}} layer 1
// COPIES-NEXT: isa.dma store tag 2 src 0 dst {{[0-9]+}} shape [64, 512] {{.*}} layer 1
// COPIES:      isa.cluster(1, 1) {
// COPIES:      isa.dma load tag 0 {{.*}} shape [64, 512] {{.*}} layer 1
// COPIES:      isa.dma store tag 2 {{.*}} shape [64, 512] {{.*}} layer 1
// COPIES-NEXT: isa.dma store tag 2 {{.*}} shape [64, 512] {{.*}} layer 1
func.func @relu_then_matmul(%x: tensor<256x512xf32>) -> tensor<256x2048xf32> {
  %w = arith.constant dense<0.5> : tensor<512x2048xf32>
  %a = graph.relu %x : tensor<256x512xf32>
  %y = graph.matmul %a, %w : (tensor<256x512xf32>, tensor<512x2048xf32>) -> tensor<256x2048xf32>
  return %y : tensor<256x2048xf32>
}
