// RUN: accel-opt --convert-graph-to-isa -split-input-file %s | FileCheck %s

// A contiguous slice of an intermediate (channels [1, 3) of a one-image
// map: 30 floats from element 15 on) is a view of its buffer: no layer of
// its own, and its consumer reads the relu's result 60 bytes in (the relu
// stores it at 256), with the relu's layer as its input. A slice of rows
// of a 4-channel map is 4 runs, not one: it is still a copy layer.
// CHECK-LABEL: isa.program
// CHECK: #isa.layer<name = "Relu_1", op = "graph.relu", {{.*}}output_bytes = 240>
// CHECK-NEXT: #isa.layer<name = "Relu_3", op = "graph.relu", {{.*}}inputs = [0], output_symbols = ["output0"]
// CHECK-NEXT: #isa.layer<name = "Slice_4", op = "graph.slice", inputs = [0], output_bytes = 160>
// CHECK: isa.dma  store tag {{[0-9]}} src 0 dst 256 shape [12, 5] {{.*}} layer 0
// CHECK: isa.dma  load tag {{[0-9]}} src 316 dst 0 shape [6, 5] {{.*}} layer 1
// CHECK: isa.dma  load tag {{[0-9]}} src 276 {{.*}} shape [1, 10] src_strides [15, 1] {{.*}} layer 2
func.func @view(%x: tensor<1x4x3x5xf32>) -> (tensor<1x2x3x5xf32>, tensor<1x4x2x5xf32>) {
  %y = graph.relu %x : tensor<1x4x3x5xf32> loc("Relu_1")
  %s = graph.slice %y {offsets = array<i64: 0, 1, 0, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x4x3x5xf32>) -> tensor<1x2x3x5xf32> loc("Slice_2")
  %z = graph.relu %s : tensor<1x2x3x5xf32> loc("Relu_3")
  %r = graph.slice %y {offsets = array<i64: 0, 0, 1, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x4x3x5xf32>) -> tensor<1x4x2x5xf32> loc("Slice_4")
  %w = graph.relu %r : tensor<1x4x2x5xf32> loc("Relu_5")
  return %z, %w : tensor<1x2x3x5xf32>, tensor<1x4x2x5xf32>
}

// -----

// A network input reshaped, then sliced: the slice still copies (through a
// view its consumer's layer would not count the input as read).
// CHECK-LABEL: isa.program
// CHECK: #isa.layer<name = "Slice_2", op = "graph.slice", compulsory_bytes = 240, input_symbols = ["input0"]
// CHECK-NEXT: #isa.layer<name = "Relu_3", op = "graph.relu", {{.*}}inputs = [0]
func.func @input_slice(%x: tensor<4x15xf32>) -> tensor<1x2x3x5xf32> {
  %y = graph.reshape %x : (tensor<4x15xf32>) -> tensor<1x4x3x5xf32> loc("Reshape_1")
  %s = graph.slice %y {offsets = array<i64: 0, 1, 0, 0>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x4x3x5xf32>) -> tensor<1x2x3x5xf32> loc("Slice_2")
  %z = graph.relu %s : tensor<1x2x3x5xf32> loc("Relu_3")
  return %z : tensor<1x2x3x5xf32>
}
