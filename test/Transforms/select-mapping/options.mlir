// RUN: not accel-opt --select-mapping="dataflow=row_stationary" %s 2>&1 | FileCheck %s --check-prefix=DF
// RUN: not accel-opt --select-mapping="array=M" %s 2>&1 | FileCheck %s --check-prefix=ARR
// RUN: not accel-opt --select-mapping="array=M,Q" %s 2>&1 | FileCheck %s --check-prefix=ARR
// RUN: not accel-opt --accel-hw=%S/does-not-exist.json --select-mapping %s 2>&1 | FileCheck %s --check-prefix=HW

// DF: for the --dataflow option: Cannot find option named 'row_stationary'!
// ARR: error: select-mapping: array must be two of M, N, K, none, B (grid rows, grid columns), e.g. array=K,N
// HW: error: {{.*}}hardware description {{.*}}does-not-exist.json{{.*}}

func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
