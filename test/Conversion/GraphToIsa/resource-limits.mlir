// What cannot fit the described machine, or would make the program (and the
// compiler's time and memory) too large, is refused before any code is
// generated (ResourceCheck.cpp). Each case used to run the compiler out of
// memory or time; each now fails at once with the limit named.
// RUN: accel-opt --convert-graph-to-isa %s -split-input-file -verify-diagnostics

// A 32768x32768 Gemm: each operand alone is 4 GiB, the default machine has
// dram_bytes = 1 GiB.
// expected-error @+1 {{input #0 'tensor<32768x32768xf32>' needs 4294967296 bytes of DRAM, more than the hardware description's dram_bytes (1073741824)}}
func.func @main(%a: tensor<32768x32768xf32>, %b: tensor<32768x32768xf32>) -> tensor<32768x32768xf32> {
  %0 = graph.matmul %a, %b : (tensor<32768x32768xf32>, tensor<32768x32768xf32>) -> tensor<32768x32768xf32>
  return %0 : tensor<32768x32768xf32>
}

// -----

// A huge splat constant (40 GB) is refused, not materialised.
func.func @main(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{result 'tensor<100000x100000xf32>' needs 40000000000 bytes of DRAM, more than the hardware description's dram_bytes (1073741824)}}
  %c = arith.constant dense<1.0> : tensor<100000x100000xf32>
  %s = graph.slice %c {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 4>, strides = array<i64: 1, 1>} : (tensor<100000x100000xf32>) -> tensor<4x4xf32>
  %0 = graph.add %a, %s : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Tensors that fit one by one but not together: two 384 MiB inputs and a
// 384 MiB output.
// expected-error @+1 {{inputs, constants and outputs need 1207959552 bytes of DRAM together, more than the hardware description's dram_bytes (1073741824)}}
func.func @main(%a: tensor<12288x8192xf32>, %b: tensor<12288x8192xf32>) -> tensor<12288x8192xf32> {
  %0 = graph.add %a, %b : (tensor<12288x8192xf32>, tensor<12288x8192xf32>) -> tensor<12288x8192xf32>
  return %0 : tensor<12288x8192xf32>
}

// -----

// A 1024x1024 pooling window: one SFU layer per window position, over a
// million layers.
func.func @main(%x: tensor<1x1x2048x2048xf32>) -> tensor<1x1x1025x1025xf32> {
  // expected-error @+1 {{the program would need more than 16777216 commands (the compiler's limit on the program size); this op alone needs at least 78643200}}
  %0 = graph.pool2d max %x {kernel = array<i64: 1024, 1024>} : (tensor<1x1x2048x2048xf32>) -> tensor<1x1x1025x1025xf32>
  return %0 : tensor<1x1x1025x1025xf32>
}

// -----

// Padding that makes the pooled input larger than DRAM (the strided output
// is small).
func.func @main(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{the padded input of this pooling 'tensor<1x1x100004x100004xf32>' needs 40003200064 bytes of DRAM, more than the hardware description's dram_bytes (1073741824)}}
  %0 = graph.pool2d max %x {kernel = array<i64: 2, 1>, strides = array<i64: 50000, 50000>, pads = array<i64: 50000, 50000, 50000, 50000>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}
