// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt --convert-graph-to-isa=sync=barrier %s | FileCheck %s
// RUN: accel-opt --convert-graph-to-isa="sync=barrier depthwise-lane-rows=off" %s | FileCheck %s
// RUN: accel-opt --convert-graph-to-isa="sync=barrier depthwise-lane-rows=on" %s | FileCheck %s --check-prefix=PACK
// RUN: accel-opt --convert-graph-to-isa="depthwise=gemm sync=barrier" %s | FileCheck %s --check-prefix=GEMM
// RUN: not accel-opt --convert-graph-to-isa=depthwise=spmv %s 2>&1 | FileCheck %s --check-prefix=BAD
// select-mapping leaves the depthwise conv alone, so the default pipeline
// runs the SW kernel; a conv that carries accel.mapping takes the mapped
// GEMM path, which follows the attribute:
// RUN: accel-opt --select-tiling --select-mapping %s | FileCheck %s --check-prefix=MAPSEL
// RUN: accel-opt --accel-default-pipeline=sync=barrier %s | FileCheck %s --check-prefix=MAPDEF
// RUN: sed 's/{groups = 2,/{accel.mapping = #accel.mapping<dataflow = output_stationary, array = [M, N]>, groups = 2,/' %s | accel-opt --convert-graph-to-isa=sync=barrier | FileCheck %s --check-prefix=GEMM

// A 3x3 depthwise conv (2 channels, 9x6, pad 1, bias, fused relu) on the
// sliding-window weight queue (docs/depthwise.md): weights and activations
// swapped, one layer (no padding copy: the kernel zero-fills the padding in
// storage). Each cluster takes one channel plane. G = 3 output rows per MAC
// (PEs 0..2): LD acts gives PE q the taps shifted by q*a (a = stride 1 x KW
// 3 rows: row_stride = -3, 3 rows of Kbig = 2*3 + 9 = 15); LD weights puts
// 15 rows of the column-expanded input band (row pitch 6 = OW) into the
// queue in SW mode, and the scalar unit (pipeline 2) slides it by G*a = 9
// rows (9*6*4 = 216 bytes) per EXECUTE, so 6 of the 15 rows are kept; ST acc
// advances by 3 output rows (72 bytes). Three EXECUTEs of ibuf 0 cover the 9
// output rows without patches.

// CHECK-LABEL: isa.program grid(2 x 2)
// CHECK: isa.io input "x" at 0 : tensor<1x2x9x6xf32>
// CHECK: isa.cluster(0, 0) {
// CHECK-NEXT: isa.config ibuf 0 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld psums slot 0 <addr = [[BIAS:[0-9]+]], rows = 3, cols = 6, col_stride = 0, pe_rows = 1>
// CHECK-NEXT: isa.ld weights slot 0 <rows = 15, cols = 6, row_stride = 6, queue_mode = SW, step = 216, pipeline = 2>
// CHECK-NEXT: isa.mac slot 0 acc 0 sfu <rows = 3, cols = 6, pe_rows = 1, depth = 15>
// CHECK-NEXT: isa.st acc slot 0 acc 0 <addr = [[OUT:[0-9]+]], rows = 3, cols = 6, row_stride = 6, pe_rows = 1, func = relu, step = 72, pipeline = 2>
// CHECK-NEXT: }
// CHECK-NEXT: isa.config ibuf 1 layer {{[0-9]+}} {
// CHECK-NEXT: isa.ld acts slot 0 <addr = [[TAPS:[0-9]+]], rows = 3, cols = 15, row_stride = -3, pe_rows = 1>
// CHECK-NEXT: }
// The tap regions of both storage halves are zeroed once (2*6 + 9 floats).
// CHECK-NEXT: isa.dma load tag 4 src [[ZERO:[0-9]+]] dst {{[0-9]+}} shape [1, 21] src_strides [0, 1]
// CHECK-NEXT: isa.dma load tag 4 src [[ZERO]] dst {{[0-9]+}} shape [1, 21] src_strides [0, 1]
// CHECK-NEXT: isa.wait tags [4]
// The input band is read from DRAM once into a raw region whose columns
// are the window's (9 rows x 8 columns, pitch 8 = OW + KW - 1): the input's
// 6 columns at raw columns 1..6, zeros at raw columns 0 and 7 (the padding).
// Zeros go straight into the band expanded by kernel column, X'[h*3 +
// kw][j] = xpad[h][j + kw] (11 rows h of the padded plane, pitch 3*6 = 18
// floats per h), for its rows h = 0 and h = 10 (all three kernel columns,
// one box each). Once the raw band is in, one local copy (storage to
// storage, no DRAM bytes) expands it for all three kernel columns: rows h =
// 1..9, kernel column kw reads raw columns kw..kw+5.
// CHECK-NEXT: isa.dma load tag 0 src 0 dst [[#RAWIN:]] shape [1, 9, 6] src_strides [54, 6, 1] dst_strides [88, 8, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO]] dst 0 shape [1, 3, 6] src_strides [0, 0, 0] dst_strides [198, 6, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO]] dst 720 shape [1, 3, 6] src_strides [0, 0, 0] dst_strides [198, 6, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO]] dst [[#RAWIN-4]] shape [1, 9, 1] src_strides [0, 0, 0] dst_strides [88, 8, 1]
// CHECK-NEXT: isa.dma load tag 0 src [[ZERO]] dst [[#RAWIN+24]] shape [1, 9, 1] src_strides [0, 0, 0] dst_strides [88, 8, 1]
// CHECK-NEXT: isa.dma load tag 0 src 448 dst [[TAPS]] shape [1, 3, 3] src_strides [9, 3, 1] dst_strides [32, 3, 1]
// CHECK-NEXT: isa.dma load tag 0 src 576 dst [[BIAS]] shape [1, 1]
// CHECK-NEXT: isa.wait tags [0]
// CHECK-NEXT: isa.dma local_copy tag 0 src [[#RAWIN-4]] dst 72 shape [1, 9, 3, 6] src_strides [88, 8, 1, 1] dst_strides [198, 18, 6, 1]
// CHECK-NEXT: isa.wait tags [0, 2]
// CHECK-NEXT: isa.execute ibuf 1
// CHECK-NEXT: isa.execute ibuf 0 shift last
// CHECK-NEXT: isa.execute ibuf 0 shift last
// CHECK-NEXT: isa.execute ibuf 0 shift last
// CHECK-NEXT: isa.wait tags [] pe
// CHECK-NEXT: isa.dma store tag 2 src [[OUT]] dst {{[0-9]+}} shape [1, 9, 6]
// CHECK: isa.barrier 0
// CHECK: isa.cluster(0, 1) {
// CHECK: isa.ld weights slot 0 <rows = 15, cols = 6, row_stride = 6, queue_mode = SW, step = 216, pipeline = 2>
// CHECK: isa.execute ibuf 0 shift last
// CHECK: isa.cluster(1, 0) {
// CHECK-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// CHECK-NEXT: isa.barrier 0

// The same layer with lane rows (depthwise-lane-rows=on; the default, auto,
// keeps them for layers with at least 40 planes per cluster;
// docs/depthwise.md, "Small planes"): the 9 x 6 plane is one MAC group.
// G = 3 PEs x laneRows 3: the queue's 18 columns are 3 blocks of 6, block r
// holding the window of output rows 3r .. 3r + 2, so PE q's block r is
// output row 3r + q. X' (11 band rows x 3 kernel columns x 6 = 198 floats)
// is packed by one local copy (block r starts G * a = 9 rows = 54 floats
// further; local copies run in issue order, so no WAIT after the
// expansion), one EXECUTE of ibuf 0 per plane (one group per plane: the
// taps' load leads the group's sequence and no ibuf 1 is configured; the
// plan above, three groups per plane, loads them once per plane in ibuf 1),
// and the PE-ordered band (PE
// q's row = output rows q, q + 3, q + 6) is stored in output order by one
// DMA with DRAM strides (plane, PE, r, column) = (54, 6, 18, 1). The
// plane's one group needs no sliding, so LD weights and ST are type-1
// records (no step, no scalar-unit cycles); the MAC feeds the SFU (sfu
// bit, sfu-mode=chained) in both plans.
// PACK: isa.cluster(0, 0) {
// PACK-NEXT: isa.config ibuf 0 layer {{[0-9]+}} {
// PACK-NEXT: isa.ld acts slot 0 <addr = {{[0-9]+}}, rows = 3, cols = 15, row_stride = -3, pe_rows = 1>
// PACK-NEXT: isa.ld psums slot 0 <addr = {{[0-9]+}}, rows = 3, cols = 18, col_stride = 0, pe_rows = 1>
// PACK-NEXT: isa.ld weights slot 0 <addr = [[XF:[0-9]+]], rows = 15, cols = 18, row_stride = 18, queue_mode = SW>
// PACK-NEXT: isa.mac slot 0 acc 0 sfu <rows = 3, cols = 18, pe_rows = 1, depth = 15>
// PACK-NEXT: isa.st acc slot 0 acc 0 <addr = [[OUT:[0-9]+]], rows = 3, cols = 18, row_stride = 18, pe_rows = 1, func = relu>
// PACK-NEXT: }
// PACK-NOT: isa.config ibuf 1
// PACK: isa.dma local_copy tag 0 src {{[0-9]+}} dst 72 shape [1, 9, 3, 6] src_strides [88, 8, 1, 1] dst_strides [198, 18, 6, 1]
// PACK-NEXT: isa.dma local_copy tag 0 src 0 dst [[XF]] shape [1, 3, 15, 6] src_strides [198, 54, 6, 1] dst_strides [270, 6, 18, 1]
// PACK-NEXT: isa.wait tags [0, 2]
// PACK-NEXT: isa.execute ibuf 0 shift last
// PACK-NEXT: isa.wait tags [] pe
// PACK-NEXT: isa.dma store tag 2 src [[OUT]] dst {{[0-9]+}} shape [1, 3, 3, 6] src_strides [54, 18, 6, 1] dst_strides [54, 6, 18, 1]
// PACK: isa.barrier 0

// GEMM-LABEL: isa.program
// GEMM-NOT: queue_mode = SW
// GEMM: isa.ld weights slot 0
// GEMM-NOT: queue_mode = SW

// MAPSEL-NOT: accel.mapping
// MAPSEL: graph.conv2d
// MAPSEL-NOT: accel.mapping
// MAPDEF: queue_mode = SW

// BAD: for the --depthwise option: Cannot find option named 'spmv'!

func.func @main(%x: tensor<1x2x9x6xf32> {accel.name = "x"}, %w: tensor<2x1x3x3xf32> {accel.name = "w"}, %b: tensor<2xf32> {accel.name = "b"}) -> (tensor<1x2x9x6xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w, %b {groups = 2, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x9x6xf32>, tensor<2x1x3x3xf32>, tensor<2xf32>) -> tensor<1x2x9x6xf32>
  %r = graph.relu %y : tensor<1x2x9x6xf32>
  return %r : tensor<1x2x9x6xf32>
}
