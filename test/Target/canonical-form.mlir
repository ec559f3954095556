// Non-canonical ISA text is accepted; the disassembly is its canonical form:
// clusters in row-major order (missing ones empty), isa.io before isa.data
// before clusters, data as f32 words (or i8 when not a multiple of 4 bytes),
// leading unit DMA dimensions dropped, WAIT tags sorted and deduplicated.
// RUN: accel-translate --isa-to-binary %s | accel-translate --binary-to-isa | FileCheck %s

isa.program grid(2 x 1) dram 4096 hw 0 {
  isa.cluster(1, 0) {
    isa.wait tags [3, 1, 3]
    isa.dma load tag 0 src 0 dst 0 shape [1, 1, 4] src_strides [0, 0, 1] dst_strides [0, 0, 1]
  }
  isa.data at 64 = dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>
  isa.data at 128 = dense<[1, 2]> : tensor<2xi16>
  isa.data at 192 = dense<7> : tensor<3xi8>
  isa.io output "out" at 0 : tensor<2xbf16>
}

// CHECK:      isa.program grid(2 x 1) dram 4096 hw 0 {
// CHECK-NEXT:   isa.io output "out" at 0 : tensor<2xbf16>
// CHECK-NEXT:   isa.data at 64 = dense<[1.53998961E-36, 4.06321607E-34]> : tensor<2xf32>
// CHECK-NEXT:   isa.data at 128 = dense<1.836720e-40> : tensor<1xf32>
// CHECK-NEXT:   isa.data at 192 = dense<7> : tensor<3xi8>
// CHECK-NEXT:   isa.cluster(0, 0) {
// CHECK-NEXT:   }
// CHECK-NEXT:   isa.cluster(1, 0) {
// CHECK-NEXT:     isa.wait tags [1, 3]
// CHECK-NEXT:     isa.dma load tag 0 src 0 dst 0 shape [4] src_strides [1] dst_strides [1]
// CHECK-NEXT:   }
// CHECK-NEXT: }
