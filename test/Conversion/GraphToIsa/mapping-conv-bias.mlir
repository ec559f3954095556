// A convolution's bias under the mapped GEMM kernel (docs/mapping.md,
// "Bias as one value per row"). Output stationary initialises the
// accumulators from the bias alone, so each cluster loads its 8 output
// channels' values (shape [8], 32 bytes) into the init region after its C
// tile (half 0 from byte 0: the 8 x 8 filter tile, the 8 x 36 image tile,
// then C at 1408, 8 x 36 floats; the init region, 8 values and a 1.0
// rounded up to 16 floats, starts at 1408 + 8 * 36 * 4 = 2560) and
// LD psums broadcasts them along the 36 pixel columns (row_stride 1,
// col_stride 0; PE p reads rows 2p, 2p + 1). The layer's loads outlast its
// MACs, so the bias is not added by a depth-1 MAC (mapping-bias-mac.mlir).
// Weight stationary reloads partial sums through the same region, so it
// keeps an 8 x 36 init tile and the broadcast box (source strides 1, 0, 0).
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,M dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=OS
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,M dataflow=weight_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=WS

// OS: isa.io input "b" at 2176
// OS-LABEL: isa.cluster(0, 0)
// OS: isa.ld psums slot 0 <addr = 2560, rows = 8, cols = 36, row_stride = 1, col_stride = 0, pe_rows = 2>
// OS: isa.dma load tag 0 src 2176 dst 2560 shape [8] src_strides [1] dst_strides [1]
// OS: isa.dma store tag 2 src 1408 dst 2304 shape [8, 6, 6]
// OS-LABEL: isa.cluster(0, 1)
// OS: isa.dma load tag 0 src 2208 dst 2560 shape [8] src_strides [1] dst_strides [1]
// OS-LABEL: isa.cluster(1, 1)
// OS: isa.dma load tag 0 src 2272 dst 2560 shape [8] src_strides [1] dst_strides [1]

// WS-LABEL: isa.cluster(0, 0)
// WS: isa.ld psums slot 0 <addr = 2560, rows = 8, cols = 36, row_stride = 36, pe_rows = 2>
// WS: isa.dma load tag 0 src 2176 dst 2560 shape [8, 6, 6] src_strides [1, 0, 0] dst_strides [36, 6, 1]

func.func @main(%x: tensor<1x8x6x6xf32> {accel.name = "x"}, %w: tensor<32x8x1x1xf32> {accel.name = "w"}, %b: tensor<32xf32> {accel.name = "b"})
    -> (tensor<1x32x6x6xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w, %b
      : (tensor<1x8x6x6xf32>, tensor<32x8x1x1xf32>, tensor<32xf32>) -> tensor<1x32x6x6xf32>
  return %y : tensor<1x32x6x6xf32>
}
