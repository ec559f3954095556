// RUN: accel-opt --convert-graph-to-isa -split-input-file %s | FileCheck %s

// Every spelling of a ReLU after a matmul is fused into the final store
// (chained SFU): the pass rewrites graph.unary relu, graph.unary clip [0, inf]
// and graph.binary max(x, 0) into graph.relu first, so it does not depend on
// `canonicalize` having run. No separate SFU pass is emitted.

// CHECK-LABEL: isa.program
// CHECK: isa.st acc slot 0 acc 0 <{{.*}}func = relu>
// CHECK-NOT: isa.spu
// CHECK: isa.execute
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = graph.relu %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: isa.program
// CHECK: isa.st acc slot 0 acc 0 <{{.*}}func = relu>
// CHECK-NOT: isa.spu
// CHECK: isa.execute
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = graph.unary relu %0 : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: isa.program
// CHECK: isa.st acc slot 0 acc 0 <{{.*}}func = relu>
// CHECK-NOT: isa.spu
// CHECK: isa.execute
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = graph.unary clip %0 {alpha = 0.0 : f32, beta = 0x7F800000 : f32} : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: isa.program
// CHECK: isa.st acc slot 0 acc 0 <{{.*}}func = relu>
// CHECK-NOT: isa.spu
// CHECK: isa.execute
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %z = arith.constant dense<0.0> : tensor<f32>
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = graph.binary max %0, %z : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A clip with a finite bound is not a ReLU: a separate SFU pass.
// CHECK-LABEL: isa.program
// CHECK: isa.st acc slot 0 acc 0 <{{[^>]*}}pe_rows = 1>
// CHECK: isa.spu unary {{.*}}func = min_imm, imm = 6.000000e+00 : f32>
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = graph.unary clip %0 {alpha = 0.0 : f32, beta = 6.0 : f32} : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// graph.binary add lowers exactly as graph.add.
// CHECK-LABEL: isa.program
// CHECK: isa.spu binary in 0 out 0 <{{.*}}func = add>
func.func @main(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %0 = graph.binary add %a, %b : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
