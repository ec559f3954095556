// Elementwise layers (lib/Codegen/ElementwiseKernel.cpp): trailing extent-1
// dimensions do not make rows of one element, an operand that is the same
// row for every row of a tile is DMA'd once per tile and repeated by LD acts
// (row_stride 0), and a layer with rows enough gives every cluster a tile.
// Here: the squeeze-and-excite weight scaling w * s of a 1x1 conv, w
// [64, 8, 1, 1], s [1, 8, 1, 1]: 64 rows of 8 columns in four tiles of 16
// rows, one per cluster of the default 2 x 2 grid; s read as one row
// (DRAM read: 2048 B of w + 4 x 32 B of s). The regions of a half are one
// tile each (16 x 8 floats), so s goes to byte 512.
// RUN: accel-opt --convert-graph-to-isa="dram-placement=linear" %s | FileCheck %s
// RUN: accel-opt --convert-graph-to-isa %s | accel-translate --isa-to-binary -o %t.bin
// RUN: %python -c "import numpy as np; np.save('%t.w.npy', np.arange(512, dtype='f4').reshape(64, 8, 1, 1) - 256); np.save('%t.s.npy', np.linspace(-2, 2, 8, dtype='f4').reshape(1, 8, 1, 1)); np.save('%t.ref.npy', np.load('%t.w.npy') * np.load('%t.s.npy'))"
// RUN: accel-run %t.bin --strict-hazards -i w=%t.w.npy -i s=%t.s.npy --expect y=%t.ref.npy --atol 0 --rtol 0 -o %t.out | FileCheck %s --check-prefix=SIM

// CHECK-LABEL: isa.cluster(0, 0)
// CHECK:      isa.ld  acts slot 0 <rows = 16, cols = 8, row_stride = 8, pe_rows = 4>
// CHECK-NEXT: isa.ld  acts slot 8 <rows = 16, cols = 8, pe_rows = 4>
// CHECK-NEXT: isa.spu  binary in 0 out 0 <rows = 16, cols = 8, row_stride = 8, pe_rows = 4, depth = 8, func = mul>
// CHECK:      isa.dma  load tag 0 src 0 dst 0 shape [16, 8] src_strides [8, 1]
// CHECK-NEXT: isa.dma  load tag 0 src 2048 dst 512 shape [1, 8] src_strides [0, 1]
// CHECK:      isa.dma  store tag 2 src 0 dst 2112 shape [16, 8]
// CHECK-LABEL: isa.cluster(0, 1)
// CHECK:      isa.dma  load tag 0 src 512 dst 0 shape [16, 8] src_strides [8, 1]
// CHECK-NEXT: isa.dma  load tag 0 src 2048 dst 512 shape [1, 8] src_strides [0, 1]
// CHECK-LABEL: isa.cluster(1, 1)
// CHECK:      isa.dma  store tag 2 src 0 dst 3648 shape [16, 8]

// SIM: DRAM: 2176 B {{.*}} read, 2048 B {{.*}} written
// SIM: y matches the reference (max abs error 0)
func.func @main(%w: tensor<64x8x1x1xf32> {accel.name = "w"}, %s: tensor<1x8x1x1xf32> {accel.name = "s"}) -> (tensor<64x8x1x1xf32> {accel.name = "y"}) {
  %0 = graph.binary mul %w, %s : (tensor<64x8x1x1xf32>, tensor<1x8x1x1xf32>) -> tensor<64x8x1x1xf32>
  return %0 : tensor<64x8x1x1xf32>
}
