// graph.pool2d under convert-graph-to-isa{pool=window} (the default): one
// layer; each tile loads a band of one input plane into a storage half once
// (padding filled in storage), the PEs combine the taps as strided LDs of
// the band, and the output band is stored (docs/passes.md, graph.pool2d).
// RUN: accel-opt --split-input-file --convert-graph-to-isa=sync=barrier %s | FileCheck %s
// pool=taps: one SFU layer per kernel position through DRAM.
// RUN: accel-opt --split-input-file --convert-graph-to-isa="pool=taps sync=barrier" %s | FileCheck %s --check-prefix=TAPS
// RUN: not accel-opt --convert-graph-to-isa=pool=fast %s 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: for the --pool option: Cannot find option named 'fast'!

// Max 3x3 stride 2 pad 1 over 2 planes of 7 x 6 -> 4 x 3. Two planes are
// fewer than two tiles per cluster, so bands are one output row: 8 tiles,
// two per cluster. A band is 3 padded rows of Wn = 7 floats (the right
// padding column is never read). Tap (i, j) is an LD at band element
// i*7 + j with row stride sh*Wn = 14 and column stride sw = 2; SPU max
// folds it into slot 0; ST writes the output band after the input band
// (3*7 floats = byte 84).
// CHECK-LABEL: isa.program grid(2 x 2)
// CHECK: isa.io input "input0" at [[#IN:]]
// CHECK: isa.data at {{[0-9]+}} replicas [{{[0-9]+}}] = dense<0xFF800000> : tensor<1xf32>
// CHECK: isa.cluster(0, 0) {
// CHECK-NEXT: isa.config ibuf 2 layer 0 {
// CHECK-NEXT: isa.ld acts slot 0 <cols = 3, row_stride = 14, col_stride = 2, pe_rows = 1>
// CHECK-NEXT: isa.ld acts slot 8 <cols = 3, row_stride = 14, col_stride = 2, pe_rows = 1>
// CHECK-NEXT: isa.spu binary in 0 out 0 <cols = 3, row_stride = 3, pe_rows = 1, depth = 8, func = max>
// CHECK-COUNT-7: isa.spu binary in 0 out 0
// CHECK-NEXT: isa.st inbuf slot 0 acc 0 <cols = 3, row_stride = 3, pe_rows = 1>
// CHECK-NEXT: }
// Output row 0 reads padded rows 0..2: the top padding row (a broadcast of
// the -inf constant), input rows 0..1 at column 1 (one DMA from the
// unpadded plane), and their left padding column. (The constant is read
// from its copy on the cluster's memory channel.)
// CHECK-NEXT: isa.dma load tag 0 src [[NEGINF:[0-9]+]] dst 0 shape [1, 1, 7] src_strides [0, 0, 0] dst_strides [21, 7, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[#IN]] dst 32 shape [1, 2, 6] src_strides [42, 6, 1] dst_strides [21, 7, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[NEGINF]] dst 28 shape [1, 2, 1] src_strides [0, 0, 0] dst_strides [21, 7, 1]
// Tiles are dealt round-robin: the cluster's next one (plane 1, output row
// 0; its plane starts at byte 7*6*4 = 168) goes into the other half, which
// starts right after half 0's regions (byte 128).
// CHECK-NEXT: isa.wait tags [3] pe
// CHECK-NEXT: isa.dma load tag 1 src [[NEGINF]] dst 128 shape [1, 1, 7]
// CHECK-NEXT: isa.dma load tag 1 src [[#IN+168]] dst 160 shape [1, 2, 6] src_strides [42, 6, 1] dst_strides [21, 7, 1]
// CHECK-NEXT: isa.dma load tag 1 src [[NEGINF]] dst 156 shape [1, 2, 1]
// CHECK-NEXT: isa.wait tags [0, 2]
// CHECK-NEXT: isa.execute ibuf 2 last patches [#isa.patch<1, addr, 4>, #isa.patch<3, addr, 8>, #isa.patch<5, addr, 28>, #isa.patch<7, addr, 32>, #isa.patch<9, addr, 36>, #isa.patch<11, addr, 56>, #isa.patch<13, addr, 60>, #isa.patch<15, addr, 64>, #isa.patch<17, addr, 84>]
// CHECK-NEXT: isa.wait tags [] pe
// CHECK-NEXT: isa.dma store tag 2 src 84 dst [[OUT:[0-9]+]] shape [1, 3] src_strides [3, 1] dst_strides [3, 1]
// One layer: one barrier per cluster.
// CHECK: isa.barrier 0
// CHECK-NOT: isa.barrier 1
// TAPS-LABEL: isa.program grid(2 x 2)
// TAPS: isa.barrier 9
// TAPS-NOT: isa.barrier 11
func.func @max(%x: tensor<1x2x7x6xf32>) -> tensor<1x2x4x3xf32> {
  %0 = graph.pool2d max %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x7x6xf32>) -> tensor<1x2x4x3xf32>
  return %0 : tensor<1x2x4x3xf32>
}

// -----

// Average 2x2 stride 2, right padding 1 counted (count_include_pad): the
// padding is 0 (the data ZERO), the sum of the four taps (SPU add) is
// multiplied by the band's rows of the 1/count map (the data INV: every
// window counts 4 elements), loaded beside the input band.
// CHECK-LABEL: isa.program grid(2 x 2)
// CHECK: isa.io input "input0" at [[#AVGIN:]]
// CHECK: isa.data at [[ZERO:[0-9]+]] = dense<0.000000e+00> : tensor<1xf32>
// CHECK: isa.data at [[INV:[0-9]+]] = dense<2.500000e-01> : tensor<6xf32>
// CHECK: isa.cluster(0, 0) {
// CHECK-NEXT: isa.config ibuf 2 layer 0 {
// CHECK-NEXT: isa.ld acts slot 0 <cols = 3, row_stride = 12, col_stride = 2, pe_rows = 1>
// CHECK-COUNT-3: isa.spu binary in 0 out 0 {{.*}} func = add>
// CHECK-NEXT: isa.ld acts slot 8 <cols = 3, row_stride = 3, pe_rows = 1>
// CHECK-NEXT: isa.spu binary in 0 out 0 <cols = 3, row_stride = 3, pe_rows = 1, depth = 8, func = mul>
// CHECK-NEXT: isa.st inbuf slot 0 acc 0
// CHECK-NEXT: }
// CHECK-NEXT: isa.dma load tag 0 src [[#AVGIN]] dst 0 shape [1, 2, 5] src_strides [20, 5, 1] dst_strides [12, 6, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO]] dst 20 shape [1, 2, 1] src_strides [0, 0, 0] dst_strides [12, 6, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[INV]] dst 60 shape [1, 1, 3] src_strides [0, 3, 1] dst_strides [3, 3, 1]
// TAPS-LABEL: isa.program grid(2 x 2)
// TAPS: isa.barrier 5
// TAPS-NOT: isa.barrier 6
func.func @avg(%x: tensor<1x1x4x5xf32>) -> tensor<1x1x2x3xf32> {
  %0 = graph.pool2d avg %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 1>, count_include_pad = true} : (tensor<1x1x4x5xf32>) -> tensor<1x1x2x3xf32>
  return %0 : tensor<1x1x2x3xf32>
}

// -----

// 2x2 stride 2 over 16 planes of 4 x 6: windows do not overlap, so whole
// planes share a tile (16 planes / 8 tiles = 2): the bands of a tile are
// OH*sh = 4 rows of Wn = 6 floats a plane (pitch 24), one DMA loads both
// planes, and the LDs cover 2 planes x 2 output rows = 4 rows with row
// stride sh*Wn = 12: output row 2 (plane 1, row 0) reads band element 24.
// CHECK-LABEL: isa.program grid(2 x 2)
// CHECK: isa.io input "input0" at [[#PLANES:]]
// CHECK: isa.cluster(0, 0) {
// CHECK-NEXT: isa.config ibuf 2 layer 0 {
// CHECK-NEXT: isa.ld acts slot 0 <rows = 4, cols = 3, row_stride = 12, col_stride = 2, pe_rows = 1>
// CHECK-COUNT-3: isa.spu binary in 0 out 0 <rows = 4, cols = 3, row_stride = 3, pe_rows = 1, depth = 8, func = max>
// CHECK-NEXT: isa.st inbuf slot 0 acc 0 <rows = 4, cols = 3, row_stride = 3, pe_rows = 1>
// CHECK-NEXT: }
// CHECK-NEXT: isa.dma load tag 0 src [[#PLANES]] dst 0 shape [2, 4, 6] src_strides [24, 6, 1] dst_strides [24, 6, 1]
// CHECK: isa.execute ibuf 2 last patches [#isa.patch<1, addr, 4>, #isa.patch<3, addr, 24>, #isa.patch<5, addr, 28>, #isa.patch<7, addr, 192>]
// CHECK-NEXT: isa.wait tags [] pe
// CHECK-NEXT: isa.dma store tag 2 src 192 dst {{[0-9]+}} shape [4, 3] src_strides [3, 1] dst_strides [3, 1]
func.func @planes(%x: tensor<1x16x4x6xf32>) -> tensor<1x16x2x3xf32> {
  %0 = graph.pool2d max %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x4x6xf32>) -> tensor<1x16x2x3xf32>
  return %0 : tensor<1x16x2x3xf32>
}
