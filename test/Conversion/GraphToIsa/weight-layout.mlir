// Weight layout in DRAM (docs/mapping.md, "Weight layout in DRAM"): a
// constant filter only its convolution reads is stored [O, KH, KW, Cg]
// (channels fastest), so that the weight box of a K chunk is one contiguous
// run per output channel. Shared constants, and a gemm's B, keep the
// graph's layout. Dealt kernel,
// linear DRAM plan (the addresses below).
// RUN: accel-opt %s -split-input-file --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s

// w[o][c][kh][kw] = 8 o + 4 c + 2 kh + kw. Stored as [o][kh][kw][c]: output
// channel 0 reads 0, 4, 1, 5, 2, 6, 3, 7. The chunk of both kernel rows
// (4 positions x 2 channels) is one box: positions at stride Cg = 2,
// channels at stride 1, output channels at 8.
// CHECK-LABEL: isa.program
// CHECK: isa.data at 128 = dense<[0.000000e+00, 4.000000e+00, 1.000000e+00, 5.000000e+00, 2.000000e+00, 6.000000e+00, 3.000000e+00, 7.000000e+00, 8.000000e+00, 1.200000e+01, 9.000000e+00, 1.300000e+01, 1.000000e+01, 1.400000e+01, 1.100000e+01, 1.500000e+01]> : tensor<16xf32>
// CHECK: isa.cluster(0, 0) {
// CHECK: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [2, 2, 2] src_strides [8, 2, 1] dst_strides [4, 2, 1]
func.func @main(%x: tensor<1x2x4x4xf32> {accel.name = "x"}) -> (tensor<1x2x3x3xf32> {accel.name = "y"}) {
  %w = arith.constant dense<[[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]], [[[8.0, 9.0], [10.0, 11.0]], [[12.0, 13.0], [14.0, 15.0]]]]> : tensor<2x2x2x2xf32>
  %y = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// The same filter read by two convolutions stays [O, Cg, KH, KW]: positions
// at stride 1, channels at KH KW = 4.
// CHECK-LABEL: isa.program
// CHECK: isa.data at 128 = dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01, 1.300000e+01, 1.400000e+01, 1.500000e+01]> : tensor<16xf32>
// CHECK: isa.cluster(0, 0) {
// CHECK: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [2, 2, 2] src_strides [8, 1, 4] dst_strides [4, 2, 1]
func.func @main(%x: tensor<1x2x4x4xf32> {accel.name = "x"}) -> (tensor<1x2x3x3xf32> {accel.name = "y"}, tensor<1x2x3x3xf32> {accel.name = "z"}) {
  %w = arith.constant dense<[[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]], [[[8.0, 9.0], [10.0, 11.0]], [[12.0, 13.0], [14.0, 15.0]]]]> : tensor<2x2x2x2xf32>
  %y = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x3x3xf32>
  %z = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x3x3xf32>
  return %y, %z : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// -----

// trans_b: B [2, 3] (N = 2, K = 3) stays [N, K]: its tiles are transposing
// loads (strides [1, 3]). Stored [K, N], an N split's constant packets
// would span the whole matrix on every cluster.
// CHECK-LABEL: isa.program
// CHECK: isa.data at 64 = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
// CHECK: isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [3, 2] src_strides [1, 3] dst_strides [2, 1]
func.func @main(%a: tensor<2x3xf32> {accel.name = "a"}) -> (tensor<2x2xf32> {accel.name = "y"}) {
  %b = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = graph.gemm %a, %b {trans_b = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}
