// TOSA input keeps its own locations into the layer table: each front-end
// op's graph ops carry NameLoc(name, NameLoc(op name, loc)), the name being
// its NameLoc's name or "file:line:col" (docs/passes.md "Layer table"); the
// transposes a conv2d lowers to belong to the conv's layer.
// RUN: accel-opt %s --convert-tosa-linalg-to-graph --mlir-print-debuginfo | FileCheck %s
// CHECK: graph.transpose {{.*}} loc(#[[CONV:loc[0-9]+]])
// CHECK: graph.conv2d {{.*}} loc(#[[CONV]])
// CHECK: graph.transpose {{.*}} loc(#[[CONV]])
// CHECK: graph.relu {{.*}} loc(#[[CLAMP:loc[0-9]+]])
// CHECK-DAG: #[[CONVK:loc[0-9]+]] = loc("tosa.conv2d")
// CHECK-DAG: #[[CONV]] = loc("backbone/conv"(#[[CONVK]]))
// CHECK-DAG: #[[CLAMPK:loc[0-9]+]] = loc("tosa.clamp"(#{{loc[0-9]*}}))
// CHECK-DAG: #[[CLAMP]] = loc("locations.mlir:{{[0-9]+}}:8"(#[[CLAMPK]]))
//
// RUN: accel-opt %s --accel-default-pipeline | FileCheck %s --check-prefix=ISA
// ISA:      layers [
// 1 x 3x3 pixels x |W| = 9 * 16*3*3*3 = 3888 MACs, the transposes included;
// it reads x, w and b (network inputs: 300 + 1728 + 64 bytes). The clamp (a
// relu after the NCHW -> NHWC transpose, so not fused) writes the output.
// ISA-NEXT:   #isa.layer<name = "backbone/conv", op = "tosa.conv2d", macs = 3888, compulsory_bytes = 2092, input_symbols = ["input0", "input1", "input2"], output_bytes = 576>,
// ISA-NEXT:   #isa.layer<name = "locations.mlir:{{[0-9]+}}:8", op = "tosa.clamp", compulsory_bytes = 576, inputs = [0], output_symbols = ["output0"], output_bytes = 576>
// ISA-NEXT: ] {
func.func @net(%x: tensor<1x5x5x3xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x3x3x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x5x5x3xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x16xf32> loc("backbone/conv")
  %1 = tosa.clamp %0 {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x3x3x16xf32>) -> tensor<1x3x3x16xf32>
  return %1 : tensor<1x3x3x16xf32>
}
