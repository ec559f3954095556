// A tensor without a database row: an error naming operator, category and
// database (the test database has no conv2d aux row for the bias), or the
// tensor stays unsplit under policy=leave-unsplit.
// RUN: env ACCEL_STRATEGY_DIR=%S/Inputs accel-opt --accel-hw=%S/Inputs/m2-c4.json --tensor-labeling --split-strategy=parallel=model %s -verify-diagnostics -split-input-file
// RUN: env ACCEL_STRATEGY_DIR=%S/Inputs accel-opt --accel-hw=%S/Inputs/m2-c4.json --tensor-labeling --split-strategy="parallel=model policy=leave-unsplit" %s -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @bias(
// CHECK-SAME: %arg2: tensor<3xf32> {accel.label = #accel.label<static = #accel.static_label<category = aux, type = "float32", order = "c", dims = [3]>, dynamic = #accel.dynamic_label<type = "float32", order = "c", tile_dim = "c", tile = 3, pad_dim = "c", size = 12>>}
func.func @bias(%x: tensor<1x4x2x1xf32>, %w: tensor<3x4x1x1xf32>, %b: tensor<3xf32>) -> tensor<1x3x2x1xf32> {
  // expected-error @+1 {{'graph.conv2d' op split-strategy: no strategy for operator conv2d, category aux in database dimsel}}
  %y = graph.conv2d %x, %w, %b : (tensor<1x4x2x1xf32>, tensor<3x4x1x1xf32>, tensor<3xf32>) -> tensor<1x3x2x1xf32>
  return %y : tensor<1x3x2x1xf32>
}

// -----

// No matmul rows at all.
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'graph.matmul' op split-strategy: no strategy for operator matmul, category in in database dimsel}}
  %y = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
