// RUN: accel-opt --select-tiling --select-mapping %s | FileCheck %s

// select-mapping asks whether a GEMM's only user is a graph.relu (the
// lowering fuses it into the store; the mapping counts the instruction
// buffers of the fused variant). It rewrites the other spellings of a ReLU
// (graph.unary relu, graph.binary max with a zero) into graph.relu first, so
// it sees one form with or without a previous `canonicalize`, and the same
// network gets the same mapping however it was spelt.

// CHECK-LABEL: func.func @canonical
// CHECK: graph.matmul {{.*}}accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, array = {{.*}}, cycles = [[CYC:[0-9]+]]>
// CHECK-NEXT: graph.relu
func.func @canonical(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %0 = graph.matmul %a, %b : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
  %1 = graph.relu %0 : tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @unary
// CHECK: graph.matmul {{.*}}accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, array = {{.*}}, cycles = [[CYC]]>
// CHECK-NEXT: graph.relu
func.func @unary(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %0 = graph.matmul %a, %b : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
  %1 = graph.unary relu %0 : tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @max_zero
// CHECK: graph.matmul {{.*}}accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, array = {{.*}}, cycles = [[CYC]]>
// CHECK-NEXT: graph.relu
func.func @max_zero(%a: tensor<64x256xf32>, %b: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant dense<0.0> : tensor<f32>
  %0 = graph.matmul %a, %b : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
  %1 = graph.binary max %0, %z : (tensor<64x64xf32>, tensor<f32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}
