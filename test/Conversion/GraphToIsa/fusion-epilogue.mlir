// Lowering of #accel.fusion (fuse-layers): the first unary step is the
// accumulator store's chained function, the others run on the stored C
// tile before its DMA store (LD acts of the tile, LD acts of the residual
// tile loaded from DRAM with tag 4, SPU steps, ST inbuf applying the last
// step), no layer for the fused ops. x at 0, r at 1152, w at 2304, y at 2560.
// RUN: accel-opt %s --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=DEALT
// RUN: accel-opt %s --select-tiling --select-mapping="array=N,N dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=MAPPED

// DEALT-LABEL: isa.cluster(0, 0)
// DEALT: isa.config ibuf 1
// DEALT: isa.st acc slot 0 acc 0 <addr = [[C:[0-9]+]], rows = 8, cols = 36, row_stride = 36, pe_rows = 2, func = max_imm>
// DEALT: isa.config ibuf 2
// DEALT-NEXT: isa.ld acts slot 0 <addr = [[C]], rows = 8, cols = 36, row_stride = 36, pe_rows = 2>
// DEALT-NEXT: isa.ld acts slot 1 <addr = [[R:[0-9]+]], rows = 8, cols = 36, row_stride = 36, pe_rows = 2>
// DEALT-NEXT: isa.spu unary in 0 out 0 <rows = 8, cols = 36, pe_rows = 2, func = min_imm, imm = 6.000000e+00 : f32>
// DEALT-NEXT: isa.spu binary in 0 out 0 <rows = 8, cols = 36, pe_rows = 2, depth = 1, func = add>
// DEALT-NEXT: isa.st inbuf slot 0 acc 0 <addr = [[C]], rows = 8, cols = 36, row_stride = 36, pe_rows = 2, func = leaky_relu, imm = 5.000000e-01 : f32>
// DEALT: isa.dma load tag 4 src 1152 dst [[R]] shape [8, 6, 6]
// DEALT-NEXT: isa.wait tags [4]
// DEALT-NEXT: isa.execute ibuf 2 last
// DEALT-NEXT: isa.wait tags [] pe
// DEALT-NEXT: isa.dma store tag 2 src [[C]] dst 2560 shape [8, 6, 6]
// One layer (one barrier): no SFU layer for the clip, the add and the
// leaky relu.
// DEALT: isa.barrier 0
// DEALT-NOT: isa.barrier 1

// The mapped kernel: each cluster's final C tiles go through the same
// sequence (its own instruction buffer after the main ones).
// MAPPED-LABEL: isa.cluster(0, 0)
// MAPPED: isa.st acc {{.*}} func = max_imm>
// MAPPED: isa.ld acts slot 0
// MAPPED-NEXT: isa.ld acts slot 1
// MAPPED-NEXT: isa.spu unary {{.*}} func = min_imm
// MAPPED-NEXT: isa.spu binary {{.*}} func = add>
// MAPPED-NEXT: isa.st inbuf {{.*}} func = leaky_relu
// MAPPED: isa.dma load tag 4 src 1152
// MAPPED-LABEL: isa.cluster(1, 1)
// MAPPED: isa.dma load tag 4 src
func.func @main(%x: tensor<1x8x6x6xf32> {accel.name = "x"}, %r: tensor<1x8x6x6xf32> {accel.name = "r"}) -> (tensor<1x8x6x6xf32> {accel.name = "y"}) {
  %w = arith.constant dense<0.125> : tensor<8x8x1x1xf32>
  %c = graph.conv2d %x, %w {accel.fusion = #accel.fusion<steps = [max_imm, min_imm(6.0), residual, leaky_relu(0.5)], fused = ["Clip", "Add", "Leaky"]>} : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %c6 = graph.unary clip %c {accel.fused, alpha = 0.0 : f32, beta = 6.0 : f32} : tensor<1x8x6x6xf32>
  %a = graph.add %c6, %r {accel.fused} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %y = graph.unary leaky_relu %a {accel.fused, alpha = 0.5 : f32} : tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
