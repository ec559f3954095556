// RUN: accel-opt --select-mapping %s -split-input-file -verify-diagnostics
// RUN: accel-opt --convert-graph-to-isa %s -split-input-file -verify-diagnostics

func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{invalid accel.mapping: dataflow must be "input_stationary", "output_stationary" or "weight_stationary"}}
  %0 = graph.matmul %a, %b {accel.mapping = {array = ["M", "N"], dataflow = "row_stationary"}}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{invalid accel.mapping: array[1] must be "M", "N" or "K"}}
  %0 = graph.matmul %a, %b {accel.mapping = {array = ["M", "X"], dataflow = "input_stationary"}}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{invalid accel.mapping: array must list two dimensions}}
  %0 = graph.matmul %a, %b {accel.mapping = {array = ["M", "N", "K"], dataflow = "input_stationary"}}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{invalid accel.mapping: has an unknown field 'combine'}}
  %0 = graph.matmul %a, %b {accel.mapping = {array = ["K", "K"], combine = "add", dataflow = "input_stationary"}}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @main(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{invalid accel.mapping: must be a dictionary}}
  %0 = graph.conv2d %x, %w {accel.mapping = "output_stationary"}
      : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}
