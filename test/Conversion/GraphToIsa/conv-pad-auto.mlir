// conv-padding=auto (the default, convPadWindowPays): the window where its
// extra DMAs cost fewer cycles than the padding copy. On hw/default.json a
// ResNet-18 3x3 layer (64 -> 64, 56 x 56; measured window / copy = 0.905,
// docs/passes.md) reads its padding in the window; ResNet's 7x7 stem
// (3 -> 64, stride 2, 224 x 224), whose every 64-pixel tile is clipped,
// keeps the copy where each DMA holds its channel for the whole latency
// (hw/serial-dram.json; measured 1.45x slower in the window there); with
// DMAs in flight (hw/default.json, max_outstanding 16) its window pays.
// RUN: accel-opt --accel-default-pipeline="entry=layer1" %s | FileCheck %s --check-prefix=LAYER1
// RUN: accel-opt --accel-hw=%S/../../../hw/serial-dram.json --accel-default-pipeline="entry=stem" %s | FileCheck %s --check-prefix=STEM
// RUN: accel-opt --accel-default-pipeline="entry=stem" %s | FileCheck %s --check-prefix=LAYER1
// RUN: accel-opt --accel-default-pipeline="entry=stem conv-padding=window" %s | FileCheck %s --check-prefix=LAYER1

// LAYER1-NOT: dram_copy
// LAYER1: src_strides [0, 0]
// LAYER1-NOT: dram_copy

// STEM: isa.dma dram_copy
func.func @layer1(%x: tensor<1x64x56x56xf32> {accel.name = "x"}, %w: tensor<64x64x3x3xf32> {accel.name = "w"}) -> (tensor<1x64x56x56xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}
func.func @stem(%x: tensor<1x3x224x224xf32> {accel.name = "x"}, %w: tensor<64x3x7x7xf32> {accel.name = "w"}) -> (tensor<1x64x112x112xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<1x64x112x112xf32>
  return %y : tensor<1x64x112x112xf32>
}
