// parallel=best with a database that lacks rows: a mode with a missing row
// is no candidate (policy=error); when no mode can split an op the error
// names every mode's missing row. The test database (Inputs/dimsel.json)
// has conv2d input rows for model and hybrid only and no matmul rows (the
// FileCheck run exits with the second case's error, hence `not`).
// RUN: env ACCEL_STRATEGY_DIR=%S/Inputs accel-opt --accel-hw=%S/Inputs/m2-c4.json --tensor-labeling --split-strategy=parallel=best %s -verify-diagnostics -split-input-file
// RUN: env ACCEL_STRATEGY_DIR=%S/Inputs not accel-opt --accel-hw=%S/Inputs/m2-c4.json --tensor-labeling --split-strategy="parallel=best print=true" %s -split-input-file 2>&1 | FileCheck %s

// Data parallel (conv2d's auto) has no input row: model (input rows h ->
// GEMM N, one output row per cluster) and hybrid (input channels c -> K of
// the 1 x 1 kernel, which pays the partial-sum combine) are priced; model
// is cheaper.
// CHECK: remark: parallel=best: data (no strategy for operator conv2d, category in in database dimsel) model 231 hybrid 374 -> model
// CHECK-LABEL: func.func @no_data_row
// CHECK: graph.conv2d {{.*}}accel.mapping = #accel.mapping<ranges = [0, 1, 2], array = [N, N]>, accel.parallel = "model"
func.func @no_data_row(%x: tensor<1x4x2x1xf32>, %w: tensor<3x4x1x1xf32>) -> tensor<1x3x2x1xf32> {
  %y = graph.conv2d %x, %w : (tensor<1x4x2x1xf32>, tensor<3x4x1x1xf32>) -> tensor<1x3x2x1xf32>
  return %y : tensor<1x3x2x1xf32>
}

// -----

// No matmul rows at all: every mode fails.
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'graph.matmul' op split-strategy: parallel=best: no parallel mode of the database splits the op (model: no strategy for operator matmul, category in in database dimsel; data: no strategy for operator matmul, category in in database dimsel; hybrid: no strategy for operator matmul, category in in database dimsel)}}
  %y = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
