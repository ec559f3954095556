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

// -----

// A tensor whose byte size overflows 64 bits: the DRAM allocator saturates
// instead of wrapping round (which once let accel-opt emit an isa.program
// whose symbols aliased), and the lowering names the problem.
// (The up-front resource check now refuses it before allocation.)
// expected-error @+1 {{input #0 'tensor<4611686018427387904xf32>' needs more than 2^64 bytes of DRAM}}
func.func @main(%a: tensor<4611686018427387904xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The binary finds inputs and outputs by name: two of them with one name
// (found by fuzz-onnx: an ONNX graph output that is also its input) is an
// error naming both, not an invalid program.
// expected-error @+1 {{the binary names inputs and outputs uniquely, but 'x' names both input #0 and output #0}}
func.func @main(%a: tensor<4xf32> {accel.name = "x"}) -> (tensor<4xf32> {accel.name = "x"}) {
  %0 = graph.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A batch split needs the instances of a batched graph.matmul.
func.func @main(%x: tensor<2x4x6x6xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<2x8x4x4xf32> {
  // expected-error @+1 {{accel.mapping: array = [B,B] splits the batch, which only a graph.matmul has}}
  %0 = graph.conv2d %x, %w {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [B, B]>} : (tensor<2x4x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<2x8x4x4xf32>
  return %0 : tensor<2x8x4x4xf32>
}

// -----

func.func @main(%a: tensor<3x4x8xf32>, %b: tensor<3x8x8xf32>) -> tensor<3x4x8xf32> {
  // expected-error @+1 {{accel.mapping: array = [B,K] combines a batch split with a K split (unsupported)}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [B, K]>} : (tensor<3x4x8xf32>, tensor<3x8x8xf32>) -> tensor<3x4x8xf32>
  return %0 : tensor<3x4x8xf32>
}
