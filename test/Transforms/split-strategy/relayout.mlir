// A tensor whose consumers want another split than it has is read through
// an explicit graph.relayout carrying the consumer's label: the hidden h is
// kept whole as matmul 1's result (shared-cache database: hn as a result,
// cluster / core) and split on c as matmul 2's input.
// RUN: accel-opt --accel-hw=%hw_dir/labels-example.json --tensor-labeling --split-strategy %s | FileCheck %s
// The re-layout is an alias in the lowering: same program as without.
// RUN: accel-opt --accel-hw=%hw_dir/labels-example.json --tensor-labeling --split-strategy --select-tiling --select-mapping --convert-graph-to-isa %s | FileCheck %s --check-prefix=ISA

// CHECK: %[[H:.*]] = graph.matmul %arg0, %arg1 {accel.labels = [#accel.label<static = #accel.static_label<category = hn, type = "float32", order = "nc", dims = [4, 1024]>, dynamic = #accel.dynamic_label<type = "float16", order = "nc", tile_dim = "c", tile = 256, pad_dim = "c", size = 8192, split_dim = "c", ranges = [(0, 1023)], store = "cluster", swap = core>>]
// CHECK: %[[R:.*]] = graph.relayout %[[H]] {accel.labels = [#accel.label<static = #accel.static_label<category = hn, type = "float32", order = "nc", dims = [4, 1024]>, dynamic = #accel.dynamic_label<type = "float16", order = "nc", tile_dim = "c", tile = 256, pad_dim = "c", size = 8192, split_dim = "n", ranges = [(0, 0), (1, 1), (2, 2), (3, 3)], store = "mem">>]} : tensor<4x1024xf32>
// CHECK: graph.matmul %[[R]], %arg2
// ISA: isa.program
// ISA-SAME: layers [
// ISA-NEXT: #isa.layer<name = "relayout.mlir:19:8", op = "graph.matmul", macs = 262144, compulsory_bytes = 263168, input_symbols = ["input0", "input1"], output_bytes = 16384>,
// ISA-NEXT: #isa.layer<name = "relayout.mlir:20:8", op = "graph.matmul", macs = 32768, compulsory_bytes = 32896, inputs = [0], input_symbols = ["input2"], output_symbols = ["output0"], output_bytes = 128>
// ISA-NEXT: ] {
// ISA-NOT: graph.
func.func @chain(%x: tensor<4x64xf32>, %w1: tensor<64x1024xf32>, %w2: tensor<1024x8xf32>) -> tensor<4x8xf32> {
  %h = graph.matmul %x, %w1 : (tensor<4x64xf32>, tensor<64x1024xf32>) -> tensor<4x1024xf32>
  %y = graph.matmul %h, %w2 : (tensor<4x1024xf32>, tensor<1024x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
