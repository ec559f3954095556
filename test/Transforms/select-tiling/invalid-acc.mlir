// RUN: accel-opt --accel-hw=%S/../../../hw/bandwidth-starved.json --select-tiling="partition-m=256 partition-n=256 partition-k=64" %s -split-input-file -verify-diagnostics | FileCheck %s
//
// A 256x256 split-K partition (256 KiB of f32 partial sums) fits the
// kernel's limit without an init tile (S/2: the C region after the halves)
// but not with a bias, whose init tile takes a region of its own (S/4).

// CHECK-LABEL: func.func @no_init
// CHECK: accel.tiling = #accel.tiling<partition_m = 256, partition_n = 256, partition_k = 64, outer = m, {{.*}}split_k = true, acc_bytes = 262144,
func.func @no_init(%a: tensor<512x1024xf32> {accel.name = "a"}, %b: tensor<1024x512xf32> {accel.name = "b"}) -> (tensor<512x512xf32> {accel.name = "c"}) {
  %0 = graph.matmul %a, %b : (tensor<512x1024xf32>, tensor<1024x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// -----

func.func @bias(%a: tensor<512x1024xf32> {accel.name = "a2"}, %b: tensor<1024x512xf32> {accel.name = "b2"}, %c: tensor<512xf32> {accel.name = "bias"}) -> (tensor<512x512xf32> {accel.name = "c2"}) {
  // expected-error @+1 {{select-tiling: forced mapping (outer m, 256 x 256 x 64) is not legal: C partition exceeds acc_buffer_max}}
  %0 = graph.gemm %a, %b, %c : (tensor<512x1024xf32>, tensor<1024x512xf32>, tensor<512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}
