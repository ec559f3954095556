// A network output that is a concatenation written in place by its
// operands' producers (planConcatSlices; depth-first-rows cuts an output
// into row bands this way) is written by every producer, each its own
// slice: each layer's compulsory bytes count the slice it writes, and each
// names the output. An operand the concat copies (a network input here) is
// the concat layer's. Until 2026-12-07 the last producer was charged the
// whole output (the FPN detector's last head band: 1.6 MB for its 20 KB, a
// roofline bound five times its cycles), and with a copied operand the
// concat layer was.
// RUN: accel-opt --accel-default-pipeline="fuse=off" %s | FileCheck %s
// `top` reads 128 bytes and writes its 128-byte slice, `bottom` 384 + 384,
// `cat` copies the 64 bytes of input2.
// CHECK:      #isa.layer<name = "top", op = "graph.relu", compulsory_bytes = 256, input_symbols = ["input0"], output_symbols = ["output0"], output_bytes = 128>,
// CHECK-NEXT: #isa.layer<name = "bottom", op = "graph.relu", compulsory_bytes = 768, input_symbols = ["input1"], output_symbols = ["output0"], output_bytes = 384>,
// CHECK-NEXT: #isa.layer<name = "cat", op = "graph.concat", compulsory_bytes = 128, inputs = [0, 1], input_symbols = ["input2"], output_symbols = ["output0"], output_bytes = 576>
// CHECK-NEXT: ] {
func.func @f(%x: tensor<1x1x4x8xf32>, %y: tensor<1x1x12x8xf32>, %z: tensor<1x1x2x8xf32>) -> tensor<1x1x18x8xf32> {
  %a = graph.relu %x : tensor<1x1x4x8xf32> loc("top")
  %b = graph.relu %y : tensor<1x1x12x8xf32> loc("bottom")
  %c = graph.concat %a, %z, %b {axis = 2 : i64} : (tensor<1x1x4x8xf32>, tensor<1x1x2x8xf32>, tensor<1x1x12x8xf32>) -> tensor<1x1x18x8xf32> loc("cat")
  return %c : tensor<1x1x18x8xf32>
}
