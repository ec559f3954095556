// RUN: accel-opt --select-tiling --select-mapping %s | FileCheck %s
// RUN: accel-opt --select-tiling --select-mapping="dataflow=weight_stationary" %s | FileCheck %s --check-prefix=DF
// RUN: accel-opt --select-tiling --select-mapping="array=K,N" %s | FileCheck %s --check-prefix=ARR
// RUN: accel-opt --select-tiling --select-mapping="dataflow=input_stationary array=N,M" %s | FileCheck %s --check-prefix=BOTH
// RUN: accel-opt --select-tiling --select-mapping="dataflow=input_stationary array=N,M" --select-mapping="dataflow=weight_stationary array=K,K" %s | FileCheck %s --check-prefix=BOTH

func.func @main(%v: tensor<1x2048xf32> {accel.name = "v"}, %w: tensor<2048x1024xf32> {accel.name = "w"},
                %a: tensor<512x1024xf32> {accel.name = "a"}, %b: tensor<1024x512xf32> {accel.name = "b"},
                %x: tensor<1x64x28x28xf32> {accel.name = "x"}, %k: tensor<64x64x3x3xf32> {accel.name = "k"})
    -> (tensor<1x1024xf32> {accel.name = "y"}, tensor<512x512xf32> {accel.name = "c"},
        tensor<1x64x28x28xf32> {accel.name = "z"}, tensor<4x8xf32> {accel.name = "o"}) {
  %0 = graph.matmul %v, %w : (tensor<1x2048xf32>, tensor<2048x1024xf32>) -> tensor<1x1024xf32>
  %1 = graph.matmul %a, %b : (tensor<512x1024xf32>, tensor<1024x512xf32>) -> tensor<512x512xf32>
  %2 = graph.conv2d %x, %k {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x64x28x28xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x28x28xf32>
  // A mapping set by another pass (e.g. a split-strategy pass) is kept.
  %i = arith.constant dense<1.0> : tensor<4x8xf32>
  %j = arith.constant dense<1.0> : tensor<8x8xf32>
  %3 = graph.matmul %i, %j {accel.mapping = #accel.mapping<dataflow = weight_stationary, array = [K, M]>}
      : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3 : tensor<1x1024xf32>, tensor<512x512xf32>, tensor<1x64x28x28xf32>, tensor<4x8xf32>
}

// The SpMV (M = 1) never splits M over the whole grid (three clusters would
// idle); the large matmul and the convolution use all four clusters without
// a K split (its combine layers cost DRAM traffic).
// CHECK: graph.matmul %arg0, %arg1 {accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, array = [{{[NK]}}, {{[MNK]}}], cycles = {{[0-9]+}}>
// CHECK: graph.matmul %arg2, %arg3 {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [{{[MN]}}, {{[MN]}}], cycles = {{[0-9]+}}>
// CHECK: graph.conv2d %arg4, %arg5 {accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, array = [{{[MN]}}, {{[MN]}}], cycles = {{[0-9]+}}>
// CHECK: graph.matmul %{{.*}}, %{{.*}} {accel.mapping = #accel.mapping<dataflow = weight_stationary, array = [K, M]>,

// DF-COUNT-3: accel.mapping = #accel.mapping<dataflow = weight_stationary, array = [{{.*}}], cycles = {{[0-9]+}}>
// ARR-COUNT-3: accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, array = [K, N], cycles = {{[0-9]+}}>
// The second run of the pass keeps what the first one attached.
// BOTH-COUNT-3: accel.mapping = #accel.mapping<dataflow = input_stationary, array = [N, M], cycles = {{[0-9]+}}>
// BOTH: accel.mapping = #accel.mapping<dataflow = weight_stationary, array = [K, M]>,
