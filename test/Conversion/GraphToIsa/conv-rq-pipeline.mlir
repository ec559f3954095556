// The default pipeline runs select-mapping, which gives the conv an
// accel.mapping (a partition of the implicit GEMM); with conv=rq the RQ
// kernel takes precedence over it (the attribute is parsed but does not
// apply), with the default conv=gemm the mapped GEMM path follows it.
// RUN: accel-opt --select-tiling --select-mapping %s | FileCheck %s --check-prefix=MAPSEL
// RUN: accel-opt --accel-default-pipeline="conv=rq" %s | FileCheck %s
// RUN: accel-opt --accel-default-pipeline %s | FileCheck %s --check-prefix=GEMM
// RUN: not accel-opt --accel-default-pipeline="conv=spconv" %s 2>&1 | FileCheck %s --check-prefix=BAD

// MAPSEL: graph.conv2d {{.*}}accel.mapping

// CHECK-LABEL: isa.program
// CHECK: isa.ld weights slot 0 <rows = 72, cols = 8, row_stride = 8, queue_mode = RQ>
// CHECK-NEXT: isa.mac slot 0 acc 0 <{{.*}}depth = 8, repeat = 9, queue_mode = RQ, step = 8, pipeline = 2>

// GEMM-LABEL: isa.program
// GEMM-NOT: queue_mode = RQ
// GEMM: isa.mac
// GEMM-NOT: queue_mode = RQ

// BAD: for the --conv option: Cannot find option named 'spconv'!

func.func @small(%x: tensor<1x8x6x6xf32> {accel.name = "x"}, %w: tensor<16x8x3x3xf32> {accel.name = "w"}, %b: tensor<16xf32> {accel.name = "b"}) -> (tensor<1x16x6x6xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w, %b {groups = 1, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x6x6xf32>
  return %y : tensor<1x16x6x6xf32>
}
