// RUN: accel-opt --convert-graph-to-isa %s -split-input-file -verify-diagnostics

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operation 'arith.addf' cannot be lowered to the accelerator ISA}}
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{input #0 has type 'tensor<4xf16>'; the accelerator needs statically shaped f32 tensors}}
func.func @main(%a: tensor<4xf16>) -> tensor<4xf16> {
  return %a : tensor<4xf16>
}

// -----

// expected-error @+1 {{no function to lower}}
module {
  func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
