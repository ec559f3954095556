// accel-opt's output carries the machine as `accel.hw` on the module; the
// ISA text it prints must translate to a binary as it is.
// RUN: accel-opt %s --accel-hw=%hw_dir/bandwidth-starved.json --select-tiling --convert-graph-to-isa -o %t.isa.mlir
// RUN: FileCheck %s --check-prefix=ISA < %t.isa.mlir
// RUN: accel-translate --isa-to-binary %t.isa.mlir -o %t.bin
// RUN: accel-translate --binary-to-isa %t.bin | FileCheck %s --check-prefix=BIN
// ISA: module attributes {accel.hw = #accel.hw<name = "bandwidth-starved"
// ISA: isa.program
// BIN: isa.program grid(2 x 2)

func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>) -> tensor<64x64xf32> {
  %0 = graph.matmul %a, %b : (tensor<64x128xf32>, tensor<128x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
