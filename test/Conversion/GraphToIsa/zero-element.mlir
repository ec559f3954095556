// Zero-element tensors: an elementwise op with an empty result needs no
// commands (it once divided by zero in the tile sizes), and its symbols are
// valid zero-byte outputs. A zero-valued constant pad of a program output
// is written (not left to the zeroed DRAM), so every output byte is stored.
// RUN: accel-opt --convert-graph-to-isa %s -split-input-file | FileCheck %s

// CHECK-LABEL: isa.program
// CHECK: isa.io input "input0" at {{[0-9]+}} : tensor<0x3xf32>
// CHECK: isa.io input "input1" at {{[0-9]+}} : tensor<0x3xf32>
// CHECK: isa.io output "output0" at {{[0-9]+}} : tensor<0x3xf32>
// CHECK-NOT: isa.dma
// CHECK-NOT: isa.execute
// CHECK: }
func.func @main(%a: tensor<0x3xf32>, %b: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %0 = graph.add %a, %b : (tensor<0x3xf32>, tensor<0x3xf32>) -> tensor<0x3xf32>
  %1 = graph.relu %0 : tensor<0x3xf32>
  %2 = graph.unary exp %1 : tensor<0x3xf32>
  return %2 : tensor<0x3xf32>
}

// -----

// CHECK-LABEL: isa.program
// CHECK: isa.io output "output0" at [[OUT:[0-9]+]] : tensor<2x4xf32>
// CHECK: isa.spu unary {{.*}}func = fill
// CHECK: isa.dma store {{.*}} dst [[OUT]] shape [2, 4]
func.func @main(%a: tensor<0x4xf32>) -> tensor<2x4xf32> {
  %0 = graph.pad %a mode constant {pads = array<i64: 1, 0, 1, 0>} : (tensor<0x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
