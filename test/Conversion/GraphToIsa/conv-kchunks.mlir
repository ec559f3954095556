// K chunks of a convolution with few input channels (ConvKChunks.cpp):
// a 7x7 kernel, stride 2, padding 3, 3 input channels (ResNet's first
// layer in small): x 1x3x40x40 is copied into a zeroed 46 x 46 buffer at
// 22132 - 4 * (3 * 46 + 3) = 21568 (plane stride 2116), w 4x3x7x7 at 19200,
// y 1x4x20x20. K = 147 is (kh, kw, c), c fastest. Hardware with 16-element
// blocks so that small forced tiles are legal. Dealt kernel (no mapping),
// linear DRAM plan.
// RUN: accel-opt %s --accel-hw=%src_root/test/e2e/Inputs/mapping-block16.json --select-tiling="partition-m=4 partition-n=16 partition-k=147" --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=copy" | FileCheck %s --check-prefix=ROWS
// RUN: accel-opt %s --accel-hw=%src_root/test/e2e/Inputs/mapping-block16.json --select-tiling="partition-m=4 partition-n=48 partition-k=147" --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=copy" | FileCheck %s --check-prefix=ROW
// RUN: accel-opt %s --accel-hw=%src_root/test/e2e/Inputs/mapping-block16.json --select-tiling="partition-m=4 partition-n=16 partition-k=64" --convert-graph-to-isa="dram-placement=linear sync=barrier conv-padding=copy" | FileCheck %s --check-prefix=RUNS

// N tiles of 16 pixels are pieces of one output row (20 wide: 16 + 4), so a
// chunk may span kernel rows: all of K is one chunk, one 4-D image box per
// tile (kernel rows at 46, kernel columns at 1, channels at 2116, pixels at
// the stride 2) and one filter box (channels x positions x channels).
// ROWS: isa.cluster(0, 0) {
// ROWS: isa.ld acts slot 0 <{{.*}}rows = 4, cols = 147, row_stride = 147, pe_rows = 1>
// ROWS-NEXT: isa.ld weights slot 0 <{{.*}}rows = 147, cols = 16, row_stride = 16>
// ROWS-NEXT: isa.mac slot 0 acc 0 <rows = 4, cols = 16, pe_rows = 1, depth = 147>
// ROWS: isa.dma load tag 0 src 19200 dst {{[0-9]+}} shape [4, 49, 3] src_strides [147, 1, 49] dst_strides [147, 3, 1]
// ROWS-NEXT: isa.dma load tag 0 src 21568 dst {{[0-9]+}} shape [7, 7, 3, 16] src_strides [46, 1, 2116, 2] dst_strides [336, 48, 16, 1]
// The tiles are dealt round robin: cluster (0, 0)'s next one is tile 4
// (output row 2, 2 * 2 * 46 elements further); tile 1 (row 0, pixels
// 16-19, 2 * 16 columns further) is cluster (0, 1)'s.
// ROWS: isa.dma load tag 1 src 22304 dst {{[0-9]+}} shape [7, 7, 3, 16] src_strides [46, 1, 2116, 2]
// ROWS: isa.cluster(0, 1) {
// ROWS: isa.dma load tag 0 src 21696 dst {{[0-9]+}} shape [7, 7, 3, 4] src_strides [46, 1, 2116, 2]
// ROWS: isa.barrier 1

// N tiles of 48 pixels hold two output rows (pixel box rows x columns), so a
// chunk stays inside one kernel row: 7 positions x 3 channels = 21 deep,
// 7 chunks; kernel row kh starts 46 * kh elements further.
// ROW: isa.cluster(0, 0) {
// ROW: isa.mac slot 0 acc 0 <rows = 4, cols = 48, pe_rows = 1, depth = 21>
// ROW: isa.dma load tag 0 src 19200 dst {{[0-9]+}} shape [4, 7, 3] src_strides [147, 1, 49] dst_strides [21, 3, 1]
// ROW-NEXT: isa.dma load tag 0 src 21568 dst {{[0-9]+}} shape [7, 3, 2, 20] src_strides [1, 2116, 92, 2] dst_strides [144, 48, 20, 1]
// ROW: isa.dma load tag 1 src 19228 dst {{[0-9]+}} shape [4, 7, 3] src_strides [147, 1, 49]
// ROW-NEXT: isa.dma load tag 1 src 21752 dst {{[0-9]+}} shape [7, 3, 2, 20] src_strides [1, 2116, 92, 2]

// partition_k = 64 holds 3 kernel rows (63): the 7 rows in balanced runs
// 3 + 2 + 2 (filter boxes of 21 and 14 positions, image boxes of 3 and 2
// kernel rows).
// RUNS: isa.cluster(0, 0) {
// RUNS: isa.mac slot 0 acc 0 <rows = 4, cols = 16, pe_rows = 1, depth = 63>
// RUNS: isa.dma load tag 0 src 19200 dst {{[0-9]+}} shape [4, 21, 3] src_strides [147, 1, 49]
// RUNS-NEXT: isa.dma load tag 0 src 21568 dst {{[0-9]+}} shape [3, 7, 3, 16] src_strides [46, 1, 2116, 2]
// RUNS: isa.dma load tag {{[01]}} src 19284 dst {{[0-9]+}} shape [4, 14, 3] src_strides [147, 1, 49]
// RUNS-NEXT: isa.dma load tag {{[01]}} src 22120 dst {{[0-9]+}} shape [2, 7, 3, 16] src_strides [46, 1, 2116, 2]
// RUNS: isa.dma load tag {{[01]}} src 19340 dst {{[0-9]+}} shape [4, 14, 3] src_strides [147, 1, 49]
// RUNS-NEXT: isa.dma load tag {{[01]}} src 22488 dst {{[0-9]+}} shape [2, 7, 3, 16] src_strides [46, 1, 2116, 2]

func.func @main(%x: tensor<1x3x40x40xf32> {accel.name = "x"}, %w: tensor<4x3x7x7xf32> {accel.name = "w"})
    -> (tensor<1x4x20x20xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>}
      : (tensor<1x3x40x40xf32>, tensor<4x3x7x7xf32>) -> tensor<1x4x20x20xf32>
  return %y : tensor<1x4x20x20xf32>
}
