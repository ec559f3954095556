// Constant packets (docs/labels-and-splits.md, "Lowering: reduction trees,
// constant packets, materialisation"): the FC weight w (64 x 4, static
// order cn) is split by its label on the reduction dim c into four pieces
// of 16 rows; coreOfPieces deals them to core 0 of each cluster of the 2 x 2
// grid (16 cores). Each cluster's slab (its 16 rows, 256 bytes) is a
// constant segment of its own; the cluster's kernel loads its weight tile
// from there (not from the dense copy at 256), and the core's packet lists
// its block and the marker area: constant total 256, 1 block, 0 hidden, 2
// addresses, (offset 0, size 256), address table = the layer's input i (0)
// and output o (1280).
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa="dram-placement=linear residency=off" | FileCheck %s
// The packets survive the binary (PCKT section) and the validator (blocks
// are constant data, one packet per core).
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa="dram-placement=linear residency=off" | accel-translate --isa-to-binary -o %t.bin
// RUN: accel-translate --binary-to-isa %t.bin | FileCheck %s --check-prefix=BIN
// With the default placement (dram-placement=pieces) the slabs of grid row 1
// move into channel 1's region (from 536870912), the local channel of
// clusters (1, 0) / (1, 1); each region holds its constants first (the
// slabs), every marker area lies in its core's local channel, and the
// address tables follow the moved input (512) and output (1664). The input
// i is read by K halves, one per grid row: two pieces, one per channel.
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa=residency=off | FileCheck %s --check-prefix=CHAN
// CHAN:      isa.io input "i" at 512 pieces {{\[}}[0, 128) at 512, [128, 256) at 536871424] : tensor<1x64xf32>
// CHAN:      isa.packet cluster (0, 0) core 0 marker at 1728 = dense<[256, 1, 0, 2, 0, 256, 512, 1664]>
// CHAN-NEXT:   isa.block "w0" at 0 bytes 256
// CHAN:      isa.packet cluster (0, 1) core 0 marker at 1792
// CHAN-NEXT:   isa.block "w0" at 256 bytes 256
// CHAN:      isa.packet cluster (1, 0) core 0 marker at 536871616 = dense<[256, 1, 0, 2, 0, 256, 512, 1664]>
// CHAN-NEXT:   isa.block "w0" at 536870912 bytes 256
// CHAN:      isa.packet cluster (1, 1) core 0 marker at 536871680
// CHAN-NEXT:   isa.block "w0" at 536871168 bytes 256
// Whole buffers (dram-placement=channels): the input stays one piece.
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa="dram-placement=channels residency=off" | FileCheck %s --check-prefix=WHOLE
// WHOLE:      isa.io input "i" at {{[0-9]+}} : tensor<1x64xf32>
// WHOLE:      isa.packet cluster (1, 0) core 0
// WHOLE-NEXT:   isa.block "w0" at 5368{{[0-9]+}} bytes 256

// The kernels read the slabs only: the dense copy at 256 is not emitted.
// CHECK-NOT:  isa.data at 256 =
// CHECK:      isa.data at 1408 = dense<[-3.000000e+00, -2.000000e+00, -1.000000e+00, 0.000000e+00,
// CHECK:      isa.data at 1664 = dense<[-2.000000e+00,
// CHECK:      isa.data at 1920 = dense<[-1.000000e+00,
// CHECK:      isa.data at 2176 = dense<[0.000000e+00,
// CHECK:      isa.packet cluster (0, 0) core 0 marker at 2432 = dense<[256, 1, 0, 2, 0, 256, 0, 1280]> : tensor<8xi64> {
// CHECK-NEXT:   isa.block "w0" at 1408 bytes 256
// CHECK-NEXT: }
// CHECK-NEXT: isa.packet cluster (0, 1) core 0 marker at 2496 = dense<[256, 1, 0, 2, 0, 256, 0, 1280]> : tensor<8xi64> {
// CHECK-NEXT:   isa.block "w0" at 1664 bytes 256
// CHECK-NEXT: }
// CHECK-NEXT: isa.packet cluster (1, 0) core 0 marker at 2560 = dense<[256, 1, 0, 2, 0, 256, 0, 1280]> : tensor<8xi64> {
// CHECK-NEXT:   isa.block "w0" at 1920 bytes 256
// CHECK-NEXT: }
// CHECK-NEXT: isa.packet cluster (1, 1) core 0 marker at 2624 = dense<[256, 1, 0, 2, 0, 256, 0, 1280]> : tensor<8xi64> {
// CHECK-NEXT:   isa.block "w0" at 2176 bytes 256
// CHECK-NEXT: }
// CHECK-LABEL: isa.cluster(0, 0)
// CHECK:      isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [1, 16] src_strides [64, 1]
// CHECK-NEXT: isa.dma load tag 0 src 1408 dst {{[0-9]+}} shape [16, 4] src_strides [4, 1]
// CHECK-LABEL: isa.cluster(0, 1)
// CHECK:      isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [1, 16] src_strides [64, 1]
// CHECK-NEXT: isa.dma load tag 0 src 1664 dst {{[0-9]+}} shape [16, 4] src_strides [4, 1]
// CHECK-LABEL: isa.cluster(1, 0)
// CHECK:      isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [1, 16] src_strides [64, 1]
// CHECK-NEXT: isa.dma load tag 0 src 1920 dst {{[0-9]+}} shape [16, 4] src_strides [4, 1]
// CHECK-LABEL: isa.cluster(1, 1)
// CHECK:      isa.dma load tag 0 src 192 dst {{[0-9]+}} shape [1, 16] src_strides [64, 1]
// CHECK-NEXT: isa.dma load tag 0 src 2176 dst {{[0-9]+}} shape [16, 4] src_strides [4, 1]

// BIN-COUNT-4: isa.packet cluster
// BIN-NOT:     isa.packet

func.func @main(%i: tensor<1x64xf32> {accel.name = "i"})
    -> (tensor<1x4xf32> {accel.name = "o"}) {
  %w = arith.constant {accel.labels = [#accel.label<static = #accel.static_label<category = cw, type = "float32", order = "cn", dims = [64, 4]>,
        dynamic = #accel.dynamic_label<type = "float32", order = "nc", tile_dim = "c", tile = 64, pad_dim = "c", pad = 0, size = 1024, split_dim = "c", ranges = [(0, 15), (16, 31), (32, 47), (48, 63)], store = "mem", swap = none>>]}
      dense<[[-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0], [1.0, 2.0, 3.0, -3.0], [-2.0, -1.0, 0.0, 1.0], [2.0, 3.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [3.0, -3.0, -2.0, -1.0], [0.0, 1.0, 2.0, 3.0], [-3.0, -2.0, -1.0, 0.0]]> : tensor<64x4xf32>
  %o = graph.matmul %i, %w {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [K, K]>,
      accel.labels = [#accel.label<static = #accel.static_label<category = on, type = "float32", order = "nc", dims = [1, 4]>,
        dynamic = #accel.dynamic_label<type = "float32", order = "nc", tile_dim = "c", tile = 4, pad_dim = "c", pad = 0, size = 16, split_dim = "c", ranges = [(0, 3)], store = "cluster", swap = core>>]}
      : (tensor<1x64xf32>, tensor<64x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}
