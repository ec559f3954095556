// The band rule of conv-bands (docs/mapping.md, "Convolution input bands"):
// the kernel takes bands per cluster where they move less than the plain
// image tiles (conv-bands=on, the default since 2026-12-02) and, with
// conv-bands=auto, only where the cluster's loads without them take at
// least half its MAC time. A 3x3 conv of 64 -> 256 channels on 28 x 28
// (default machine, selected tiling and mapping): 256 output channels make
// the MACs long against the loads, so auto keeps the plain tiles and on
// takes bands.
// RUN: accel-opt %s --select-tiling --select-mapping --convert-graph-to-isa | FileCheck %s --check-prefix=ON
// RUN: accel-opt %s --select-tiling --select-mapping --convert-graph-to-isa=conv-bands=auto | FileCheck %s --check-prefix=AUTO
// RUN: accel-opt %s --select-tiling --select-mapping --convert-graph-to-isa=conv-bands=on | FileCheck %s --check-prefix=ON
// RUN: accel-opt %s --select-tiling --select-mapping --convert-graph-to-isa=conv-bands=off | FileCheck %s --check-prefix=AUTO

// AUTO-LABEL: isa.program
// AUTO-NOT: local_copy
// ON-LABEL: isa.program
// ON: isa.dma local_copy
func.func @main(%x: tensor<1x64x28x28xf32> {accel.name = "x"}) -> (tensor<1x256x28x28xf32> {accel.name = "y"}) {
  %w = arith.constant dense<0.5> : tensor<256x64x3x3xf32>
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x28x28xf32>, tensor<256x64x3x3xf32>) -> tensor<1x256x28x28xf32>
  return %y : tensor<1x256x28x28xf32>
}
