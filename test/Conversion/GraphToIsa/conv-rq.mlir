// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt --convert-graph-to-isa="sync=barrier conv=rq entry=small" %s | FileCheck %s
// RUN: accel-opt --convert-graph-to-isa="sync=barrier conv=rq entry=split" %s | FileCheck %s --check-prefix=SPLIT
// RUN: accel-opt --convert-graph-to-isa="sync=barrier entry=small" %s | FileCheck %s --check-prefix=GEMM
// RUN: accel-opt --convert-graph-to-isa="sync=barrier conv=gemm entry=small" %s | FileCheck %s --check-prefix=GEMM
// RUN: not accel-opt --convert-graph-to-isa="conv=spconv entry=small" %s 2>&1 | FileCheck %s --check-prefix=BAD
// (conv-rq-pipeline.mlir covers the default pipeline with conv=rq.)
// A grouped conv falls back to the implicit GEMM (groups != 1):
// RUN: accel-opt --convert-graph-to-isa="sync=barrier conv=rq entry=grouped" %s | FileCheck %s --check-prefix=GROUPED

// A 3x3 conv, 8 -> 16 channels on 6x6, pad 1 (zeroed padded DRAM copy),
// bias and fused relu, on the rotating weight queue (docs/depthwise.md
// "Regular convolutions with RQ"). The planner picks 2 output-channel
// blocks of 8: per block the queue holds T = 9 taps x 8 input channels x 8
// output channels (LD weights 72 rows x 8, RQ). PE p gets expanded input
// row oh0+p: E[u][kh][c], 8 input columns x 3 kernel rows x 8 channels =
// 192 floats (LD acts, pe_rows = 1). One MAC per block: 6 output columns
// per PE (pe_rows = 6) with pitch sw*KH*Cin = 24, depth 8, repeat = 9 taps,
// RQ, pipeline 2: the scalar unit adds step = Cin = 8 to the index-compare
// base after every tap (tap t = kw*3 + kh sits at t*8). Ibuf 2 loads the
// bias into the accumulators, ibuf 3 is a 1x1 SQ load that makes the next
// RQ load refetch after new weights arrived in storage.
// CHECK-LABEL: isa.program
// CHECK: isa.cluster(0, 0)
// CHECK: isa.dma dram_copy
// CHECK: isa.barrier 0
// CHECK: isa.config ibuf 0 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld acts slot 0 <addr = {{[0-9]+}}, rows = 4, cols = 192, row_stride = 192, pe_rows = 1>
// CHECK: isa.config ibuf 1 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld weights slot 0 <rows = 72, cols = 8, row_stride = 8, queue_mode = RQ>
// CHECK-NEXT: isa.mac slot 0 acc 0 <rows = 24, cols = 8, row_stride = 24, pe_rows = 6, depth = 8, repeat = 9, queue_mode = RQ, step = 8, pipeline = 2>
// CHECK-NEXT: isa.st acc slot 0 acc 0 <addr = {{[0-9]+}}, rows = 24, cols = 8, row_stride = 8, pe_rows = 6, func = relu>
// CHECK: isa.config ibuf 2 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld psums slot 0 <addr = {{[0-9]+}}, rows = 24, cols = 8, pe_rows = 6>
// CHECK: isa.config ibuf 3 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld weights slot 0 <>
// The weights of the block, taps kw-major: src strides kw 1, kh 3, ci 9, co 72.
// CHECK: isa.dma load tag 4 src {{[0-9]+}} dst 0 shape [3, 3, 8, 8] src_strides [1, 3, 9, 72] dst_strides [192, 64, 8, 1]
// CHECK: isa.execute ibuf 3
// CHECK: isa.execute ibuf 0
// CHECK-NEXT: isa.execute ibuf 2
// CHECK-NEXT: isa.execute ibuf 1 shift last
// CHECK: isa.dma store tag 2
// CHECK: isa.barrier 1
// CHECK-NOT: isa.mac {{.*}}queue_mode = SQ

// GEMM-LABEL: isa.program
// GEMM-NOT: queue_mode = RQ
// GEMM: isa.mac
// GEMM-NOT: queue_mode = RQ

// BAD: for the --conv option: Cannot find option named 'spconv'!

// GROUPED-LABEL: isa.program
// GROUPED-NOT: queue_mode = RQ
// GROUPED: isa.mac
// GROUPED-NOT: queue_mode = RQ

func.func @small(%x: tensor<1x8x6x6xf32> {accel.name = "x"}, %w: tensor<16x8x3x3xf32> {accel.name = "w"}, %b: tensor<16xf32> {accel.name = "b"}) -> (tensor<1x16x6x6xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w, %b {groups = 1, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x6x6xf32>
  %r = graph.relu %y : tensor<1x16x6x6xf32>
  return %r : tensor<1x16x6x6xf32>
}

// 300 input channels: T*Cin*cob must fit the 16384-float queue, the planner
// splits Cin into 2 blocks of 150 (and Cout into 4 of 10). All Cin sit in
// the expanded row (6 x 3 x 300 = 5400 floats, pitch 900); block b is
// selected by the MAC base b*150, the accumulators keep the partial sums
// across the blocks (shift / last only on the second), and the second
// EXECUTE patches the weight address and resets the advanced base.
// SPLIT: isa.cluster(0, 0)
// SPLIT: isa.ld acts slot 0 <addr = {{[0-9]+}}, rows = 4, cols = 5400, row_stride = 5408, pe_rows = 1>
// SPLIT: isa.ld weights slot 0 <rows = 1350, cols = 10, row_stride = 10, queue_mode = RQ>
// SPLIT-NEXT: isa.mac slot 0 acc 0 <rows = 16, cols = 10, row_stride = 900, pe_rows = 4, depth = 150, repeat = 9, queue_mode = RQ, step = 300, pipeline = 2>
// SPLIT: isa.dma load tag 4 src {{[0-9]+}} dst 0 shape [3, 3, 150, 10]
// SPLIT: isa.dma load tag 4 src {{[0-9]+}} dst 54000 shape [3, 3, 150, 10]
// SPLIT: isa.execute ibuf 0
// SPLIT-NEXT: isa.execute ibuf 1 layer 0{{$}}
// SPLIT-NEXT: isa.execute ibuf 1 shift last patches [#isa.patch<0, addr, 54000>, #isa.patch<1, base, 150>]
func.func @split(%x: tensor<1x300x4x4xf32> {accel.name = "x"}, %w: tensor<40x300x3x3xf32> {accel.name = "w"}) -> (tensor<1x40x4x4xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {groups = 1, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x300x4x4xf32>, tensor<40x300x3x3xf32>) -> tensor<1x40x4x4xf32>
  return %y : tensor<1x40x4x4xf32>
}

func.func @grouped(%x: tensor<1x8x6x6xf32> {accel.name = "x"}, %w: tensor<8x4x3x3xf32> {accel.name = "w"}) -> (tensor<1x8x6x6xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w {groups = 2, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
