// select-mapping keeps split-strategy's partition and adds the dataflow; a
// forced array that contradicts the split decision is an error naming the
// op and both.
// RUN: accel-opt --accel-hw=%hw_dir/labels-example.json --tensor-labeling --split-strategy --select-tiling --select-mapping %s | FileCheck %s
// RUN: accel-opt --accel-hw=%hw_dir/labels-example.json --tensor-labeling --split-strategy --select-tiling --select-mapping="dataflow=weight_stationary array=K,K" %s | FileCheck %s --check-prefix=SAME
// RUN: accel-opt --accel-hw=%hw_dir/labels-example.json --tensor-labeling --split-strategy --select-tiling --select-mapping="array=M,N" %s -verify-diagnostics

// CHECK: accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, ranges = [0, 512, 1024], array = [K, K], cycles = {{[0-9]+}}>
// SAME: accel.mapping = #accel.mapping<dataflow = weight_stationary, ranges = [0, 512, 1024], array = [K, K], cycles = {{[0-9]+}}>
func.func @fc(%i: tensor<1x1024xf32>, %w: tensor<1024x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'graph.matmul' op select-mapping: forced array=[M,N] contradicts the split decision [K,K] with ranges [0, 512, 1024] of split-strategy}}
  %o = graph.matmul %i, %w : (tensor<1x1024xf32>, tensor<1024x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}
