// The layer table's data flow through a concatenation written in place
// (docs/passes.md "Layer table"; planConcatSlices): the concat has no layer
// of its own, each producer stores its slice into the concatenation, so the
// layer reading it depends on every producer, not only on the last one
// (until 2026-12-06 only `right` was listed).
// RUN: accel-opt --accel-default-pipeline="fuse=off" %s | FileCheck %s
// CHECK:      #isa.layer<name = "left", op = "graph.relu", compulsory_bytes = 1024, input_symbols = ["input0"], output_bytes = 1024>,
// CHECK-NEXT: #isa.layer<name = "right", op = "graph.relu", compulsory_bytes = 1024, input_symbols = ["input1"], output_bytes = 1024>,
// CHECK-NEXT: #isa.layer<name = "after", op = "graph.relu", compulsory_bytes = 2048, inputs = [0, 1], output_symbols = ["output0"], output_bytes = 2048>
// CHECK-NEXT: ] {
func.func @f(%x: tensor<1x4x8x8xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %a = graph.relu %x : tensor<1x4x8x8xf32> loc("left")
  %b = graph.relu %y : tensor<1x4x8x8xf32> loc("right")
  %c = graph.concat %a, %b {axis = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> loc("cat")
  %d = graph.relu %c : tensor<1x8x8x8xf32> loc("after")
  return %d : tensor<1x8x8x8xf32>
}
