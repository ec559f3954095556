// RUN: accel-opt --select-tiling="partition-m=512 partition-k=1024" %s -verify-diagnostics
// RUN: not accel-opt --select-tiling="partition-m=100 partition-k=64" %s 2>&1 | FileCheck %s --check-prefix=ALIGN
// RUN: not accel-opt --select-tiling="partition-m=256 partition-n=512 partition-k=64" %s 2>&1 | FileCheck %s --check-prefix=BTILE
// RUN: not accel-opt --select-tiling="outer=x" %s 2>&1 | FileCheck %s --check-prefix=OPTION
//
// Forced mappings that break a limit of the kernel's parameters
// (kernelTilingHardware: A and B tiles S/8 = 64 KiB; split-K partial sums
// S/2, or S/4 = 128 KiB when an init tile needs its own region) are errors
// naming the limit (partial sums: invalid-acc.mlir).

func.func @a_tile(%a: tensor<512x1024xf32> {accel.name = "a"}, %b: tensor<1024x512xf32> {accel.name = "b"}) -> (tensor<512x512xf32> {accel.name = "c"}) {
  // expected-error @+1 {{select-tiling: forced mapping (outer m, 512 x 64 x 1024) is not legal: A tile exceeds b_s1}}
  %0 = graph.matmul %a, %b : (tensor<512x1024xf32>, tensor<1024x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}

// ALIGN: error: 'graph.matmul' op select-tiling: forced mapping (outer m, 100 x 64 x 64) is not legal: partition_m is neither m nor a block multiple below m
// BTILE: error: 'graph.matmul' op select-tiling: forced mapping (outer m, 256 x 512 x 64) is not legal: B tile exceeds b_s2
// OPTION: for the --outer option: Cannot find option named 'x'!
