// Convolution input bands (conv-bands, docs/mapping.md "Convolution input
// bands"): a 3x3 pad-1 conv, x 1x16x6x10 at DRAM 0, w 8x16x3x3 at 3840,
// one cluster (output stationary [none, none]), one 16-channel chunk per
// kernel position, the whole image as one 60-pixel N tile. With
// conv-bands=on the cluster loads the padded band once (16 channels x 8
// rows x 12 columns, plane stride 96) into a band slot: the input box
// shifted by one row and one column, and zero-source DMAs (a zeroed f32
// at 8448) for the top / bottom rows and the left / right columns. Every
// kernel position's image tile is then a local_copy of one strided box of
// the band (kernel column kw at +4 kw bytes, kernel row kh at +48 kh), no
// DRAM read. The chunks of one band are consecutive (channel range
// major), so the band serves all nine.
// RUN: accel-opt %s --accel-hw=%src_root/test/e2e/Inputs/mapping-block16.json --select-tiling="partition-m=8 partition-n=16 partition-k=16" --select-mapping="dataflow=output_stationary array=none,none" --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=window conv-bands=on" | FileCheck %s --check-prefix=ON
// RUN: accel-opt %s --accel-hw=%src_root/test/e2e/Inputs/mapping-block16.json --select-tiling="partition-m=8 partition-n=16 partition-k=16" --select-mapping="dataflow=output_stationary array=none,none" --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=window conv-bands=off" | FileCheck %s --check-prefix=OFF
// The default (auto) takes them too: without bands the cluster's loads
// take at least half its MAC time (conv-bands-rule.mlir: a layer where
// they do not).
// RUN: accel-opt %s --accel-hw=%src_root/test/e2e/Inputs/mapping-block16.json --select-tiling="partition-m=8 partition-n=16 partition-k=16" --select-mapping="dataflow=output_stationary array=none,none" --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=window" | FileCheck %s --check-prefix=ON

// ON: isa.cluster(0, 0) {
// ON: isa.dma load tag 0 src 3840 dst [[A0:[0-9]+]] shape [8, 16] src_strides [144, 9] dst_strides [16, 1]
// ON-NEXT: isa.dma load tag 5 src 0 dst 10676 shape [16, 6, 10] src_strides [60, 10, 1] dst_strides [96, 12, 1]
// ON-NEXT: isa.dma load tag 5 src 8448 dst 10624 shape [2, 16, 13] src_strides [0, 0, 0] dst_strides [83, 96, 1]
// ON-NEXT: isa.dma load tag 5 src 8448 dst 10716 shape [5, 16, 2] src_strides [0, 0, 0] dst_strides [12, 96, 1]
// ON-NEXT: isa.wait tags [5]
// ON-NEXT: isa.dma local_copy tag 0 src 10624 dst [[B0:[0-9]+]] shape [16, 6, 10] src_strides [96, 12, 1] dst_strides [60, 10, 1]
// ON: isa.dma load tag 1 src 3844
// ON-NEXT: isa.dma local_copy tag 1 src 10628 dst [[B1:[0-9]+]] shape [16, 6, 10] src_strides [96, 12, 1] dst_strides [60, 10, 1]
// ON: isa.execute ibuf 0
// ON: isa.dma local_copy tag 0 src 10632 dst [[B0]]
// ON: isa.dma local_copy tag 1 src 10672 dst [[B1]]
// ON: isa.dma local_copy tag 0 src 10676 dst [[B0]]
// ON: isa.dma local_copy tag 1 src 10680 dst [[B1]]
// ON: isa.dma local_copy tag 0 src 10720 dst [[B0]]
// ON: isa.dma local_copy tag 1 src 10724 dst [[B1]]
// ON: isa.dma local_copy tag 0 src 10728 dst [[B0]]
// ON-NOT: isa.dma load tag {{[56]}}
// ON: isa.dma store tag 2 {{.*}} dst 8512 shape [8, 6, 10]
// ON: isa.cluster(0, 1) {

// OFF: isa.cluster(0, 0) {
// OFF-NOT: local_copy
// OFF-NOT: tag 5
// OFF: isa.cluster(0, 1) {

func.func @main(%x: tensor<1x16x6x10xf32> {accel.name = "x"}, %w: tensor<8x16x3x3xf32> {accel.name = "w"})
    -> (tensor<1x8x6x10xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x16x6x10xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x6x10xf32>
  return %y : tensor<1x8x6x10xf32>
}
