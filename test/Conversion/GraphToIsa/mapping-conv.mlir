// Partitions of a convolution (implicit GEMM: M = output channels, N =
// output pixels, K = kernel position x input channel, channels fastest).
// x 1x2x5x4 padded by 1 (planes of 7x6), w 4x2x3x3 at 192. The padded copy
// is per cluster: a band of the padded rows its pixels read (PadBands.cpp),
// or one 2x7x6 copy at 512 shared by all (an M / K split); y 1x4x5x4 after
// it (output pixel p of channel o at y + 4 (20 o + p)).
// The slices are read off the addresses of the linear DRAM plan
// (dram-placement=linear); placement on memory channels: channel-placement.mlir.
// Layer ends are read off sync=barrier listings (one BARRIER per layer; the
// [M,K] run keeps its partial sums in DRAM with residency=off, which the
// compact kernel storage would otherwise keep on chip);
// the default SIGNAL / RECV synchronisation: sync-events.mlir. Every image
// tile is loaded from DRAM (conv-bands=off; input bands: conv-bands.mlir).
// RUN: accel-opt %s --select-tiling --select-mapping="array=N,N dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=copy conv-bands=off" | FileCheck %s --check-prefix=NN
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,K dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=copy conv-bands=off residency=off" | FileCheck %s --check-prefix=MK

// [N,N]: 20 pixels in four ranges of 5, across row boundaries (rows of 4):
// cluster (0, 0) pixels 0-4 = row 0 + the first pixel of row 1; (0, 1)
// pixels 5-9 = the rest of row 1 + the first two of row 2; ... Each cluster
// copies the input rows of its band (padded rows [r0, r1): (0, 0) [0, 4),
// (0, 1) [1, 5), (1, 0) [2, 6), (1, 1) [3, 7); planes of 4 x 6 = 24) into
// its own zeroed buffer (512, 704, 896, 1088, 192 bytes each), row 0 of the
// input landing at band row 1 - r0; its loads address the band; y at 1280.
// NN-LABEL: isa.cluster(0, 0)
// NN: isa.dma dram_copy tag 0 src 0 dst 540 shape [2, 3, 4] src_strides [20, 4, 1] dst_strides [24, 6, 1]
// NN-NEXT: isa.wait
// NN: isa.dma load tag 1 src 536 {{.*}} shape [3, 2, 4] src_strides [1, 24, 1]
// NN: isa.dma store tag 2 {{.*}} dst 1280 shape [4, 1, 4] {{.*}} dst_strides [20, 4, 1]
// NN: isa.dma store tag 3 {{.*}} dst 1296 shape [4, 1, 1]
// NN-LABEL: isa.cluster(0, 1)
// NN: isa.dma dram_copy tag 0 src 0 dst 708 shape [2, 4, 4] src_strides [20, 4, 1] dst_strides [24, 6, 1]
// NN: isa.dma load tag 1 src 732 {{.*}} shape [3, 2, 3] src_strides [1, 24, 1]
// NN: isa.dma store tag 2 {{.*}} dst 1300 shape [4, 1, 3]
// NN: isa.dma store tag 3 {{.*}} dst 1312 shape [4, 1, 2]
// NN-LABEL: isa.cluster(1, 0)
// NN: isa.dma dram_copy tag 0 src 16 dst 900 shape [2, 4, 4] src_strides [20, 4, 1] dst_strides [24, 6, 1]
// NN: isa.dma store tag 2 {{.*}} dst 1320 shape [4, 1, 2]
// NN: isa.dma store tag 3 {{.*}} dst 1328 shape [4, 1, 3]
// NN-LABEL: isa.cluster(1, 1)
// NN: isa.dma dram_copy tag 0 src 32 dst 1092 shape [2, 3, 4] src_strides [20, 4, 1] dst_strides [24, 6, 1]
// NN: isa.dma store tag 2 {{.*}} dst 1340 shape [4, 1, 1]
// NN: isa.dma store tag 3 {{.*}} dst 1344 shape [4, 1, 4]

// [M,K]: grid rows split the output channels (2 each), grid columns split
// K = 18 into [0, 9) and [9, 18). K chunks hold whole kernel positions of
// one kernel row (the pixel boxes span several output rows): column 0 runs
// kernel row 0 (3 positions x 2 channels: filter box [2, 3, 2], image box
// kernel columns x channels x 5 x 4), position (1, 0), then channel 0 of
// (1, 1). Column 1 starts at kernel position (1, 1), channel 1: filter
// slice at 192 + 4 * 13, image box at 512 + 4 * (42 + 6 + 1); then (1, 2)
// and kernel row 2. Each cluster writes its partial sums (K part c,
// channels 2r..2r+1) to 1216 + 320 c + 160 r; one add layer sums the two
// parts into y.
// MK-LABEL: isa.cluster(0, 0)
// MK: isa.dma load tag 0 src 192 dst {{[0-9]+}} shape [2, 3, 2] src_strides [18, 1, 9]
// MK-NEXT: isa.dma load tag 0 src 512 dst {{[0-9]+}} shape [3, 2, 5, 4] src_strides [1, 42, 6, 1]
// MK: isa.dma load tag 1 src 204 dst {{[0-9]+}} shape [2, 2] src_strides [18, 9]
// MK: isa.dma store tag 2 {{.*}} dst 1216 shape [2, 5, 4]
// MK: isa.barrier 1
// MK: isa.spu binary in 0 out 0 {{.*}}func = add
// MK: isa.dma load tag 0 src 1216 dst {{[0-9]+}} shape [80]
// MK-NEXT: isa.dma load tag 0 src 1536 dst {{[0-9]+}} shape [80]
// MK: isa.dma store tag 2 src {{[0-9]+}} dst 896 shape [80]
// MK-LABEL: isa.cluster(0, 1)
// MK: isa.dma load tag 0 src 244 dst {{[0-9]+}} shape [2, 1] src_strides [18, 9]
// MK-NEXT: isa.dma load tag 0 src 708 dst {{[0-9]+}} shape [1, 5, 4] src_strides [42, 6, 1]
// MK: isa.dma load tag 0 src 216 dst {{[0-9]+}} shape [2, 3, 2] src_strides [18, 1, 9]
// MK: isa.dma store tag 2 {{.*}} dst 1536 shape [2, 5, 4]
// MK-LABEL: isa.cluster(1, 0)
// MK: isa.dma load tag 0 src 336 dst {{[0-9]+}} shape [2, 3, 2] src_strides [18, 1, 9]
// MK: isa.dma store tag 2 {{.*}} dst 1376 shape [2, 5, 4]
// MK-LABEL: isa.cluster(1, 1)
// MK: isa.dma store tag 2 {{.*}} dst 1696 shape [2, 5, 4]

func.func @main(%x: tensor<1x2x5x4xf32> {accel.name = "x"}, %w: tensor<4x2x3x3xf32> {accel.name = "w"})
    -> (tensor<1x4x5x4xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x5x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x5x4xf32>
  return %y : tensor<1x4x5x4xf32>
}
