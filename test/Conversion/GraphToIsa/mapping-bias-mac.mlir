// A convolution's bias added by a depth-1 MAC (docs/mapping.md, "Bias as
// one value per row"). 256 -> 256 channels, 1 x 1, 14 x 14, output
// stationary on [M, M]: each cluster computes 64 output channels, and its
// MACs (64 x 256 x 196 per cluster) outlast its loads, so instead of LD
// psums broadcasting the 64 bias values along the tile's columns, the
// init sequence loads them as a one-column tile into the input-buffer slot
// past the A tile (LD acts, 64 rows, row_stride 1), loads a row of ones
// (LD weights of the init region's 1.0, col_stride 0) and adds values x
// ones with a MAC of depth 1 into each accumulation group; the main MACs
// then accumulate onto them. The 1.0 is one program constant, DMA'd once
// per init region.
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,M dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s

// CHECK: isa.program
// CHECK-LABEL: isa.cluster(0, 0)
// CHECK-NOT: isa.ld  psums
// CHECK: isa.ld  acts slot [[BS:[1-9][0-9]*]] <addr = [[VALUES:[0-9]+]], rows = 64, row_stride = 1, pe_rows = 16>
// CHECK-NEXT: isa.ld  weights slot 0 <addr = [[ONE:[0-9]+]], cols = {{[0-9]+}}, col_stride = 0>
// CHECK-NEXT: isa.mac slot [[BS]] acc 0 <rows = 64, cols = {{[0-9]+}}, pe_rows = 16, depth = 1>
// CHECK: isa.ld  acts slot 0 <
// CHECK: isa.mac slot 0 acc 0 <rows = 64, {{.*}}depth =
// CHECK-NOT: isa.ld  psums
// CHECK: isa.dma  load tag 0 src {{[0-9]+}} dst [[VALUES]] shape [64]
// CHECK-NEXT: isa.dma  load tag 0 src [[ONEDRAM:[0-9]+]] dst [[ONE]] shape [1]
// CHECK-NOT: src [[ONEDRAM]] dst [[ONE]]
// CHECK-LABEL: isa.cluster(0, 1)

func.func @main(%x: tensor<1x256x14x14xf32> {accel.name = "x"}, %w: tensor<256x256x1x1xf32> {accel.name = "w"}, %b: tensor<256xf32> {accel.name = "b"})
    -> (tensor<1x256x14x14xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w, %b
      : (tensor<1x256x14x14xf32>, tensor<256x256x1x1xf32>, tensor<256xf32>) -> tensor<1x256x14x14xf32>
  return %y : tensor<1x256x14x14xf32>
}
