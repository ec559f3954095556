// RUN: accel-opt %s --split-input-file --verify-diagnostics --convert-graph-to-isa

// A fused operator no producer's chain reaches.
func.func @orphan(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'graph.relu' op accel.fused is set but no producer's accel.fusion chain reaches this operator}}
  %y = graph.relu %x {accel.fused} : tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

// A residual step without a residual operand in the chain.
func.func @no_residual(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{accel.fusion has a residual step but its fused chain has no residual operand}}
  %m = graph.matmul %a, %b {accel.fusion = #accel.fusion<steps = [residual], fused = ["Relu"]>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = graph.relu %m {accel.fused} : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Steps but nothing marked after the producer.
func.func @no_chain(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{accel.fusion lists epilogue steps but no accel.fused operator follows it}}
  %m = graph.matmul %a, %b {accel.fusion = #accel.fusion<steps = [relu], fused = ["Relu"]>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = graph.relu %m : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// The attribute's own verifier: a binary SFU function is no epilogue step.
func.func @binary_step(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{#accel.fusion step 'mul' is not a unary SFU function}}
  %m = graph.matmul %a, %b {accel.fusion = #accel.fusion<steps = [mul]>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// -----

func.func @on_relu(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{accel.fusion applies to graph.matmul, graph.gemm, graph.conv2d and graph.conv_transpose2d only}}
  %y = graph.relu %x {accel.fusion = #accel.fusion<steps = [relu]>} : tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// -----

func.func @unknown_step(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+2 {{unknown SFU function 'relu7'}}
  // expected-error @+1 {{failed to parse Accel_FusionAttr parameter 'steps'}}
  %m = graph.matmul %a, %b {accel.fusion = #accel.fusion<steps = [relu7]>} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
