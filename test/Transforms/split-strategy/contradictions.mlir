// A hand-written split decision (accel.mapping with ranges) that
// contradicts the labels' split is an error naming the op and both; an
// equal one is kept, and so is a partition without ranges (chosen before,
// e.g. by a forced select-mapping: the labels then only describe storage).
// RUN: accel-opt --accel-hw=%hw_dir/labels-example.json --tensor-labeling --split-strategy %s -verify-diagnostics -split-input-file

func.func @hand_written(%i: tensor<1x1024xf32>, %w: tensor<1024x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'graph.matmul' op split-strategy: accel.mapping #accel.mapping<ranges = [0, 256, 1024], array = [K, K]> contradicts the split of operand 1 (array = [K, K], ranges = [0, 512, 1024])}}
  %o = graph.matmul %i, %w {accel.mapping = #accel.mapping<ranges = [0, 256, 1024], array = [K, K]>} : (tensor<1x1024xf32>, tensor<1024x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}

// -----

// The same partition by hand (with a dataflow) is kept.
func.func @agrees(%i: tensor<1x1024xf32>, %w: tensor<1024x4xf32>) -> tensor<1x4xf32> {
  %o = graph.matmul %i, %w {accel.mapping = #accel.mapping<dataflow = weight_stationary, ranges = [0, 512, 1024], array = [K, K]>} : (tensor<1x1024xf32>, tensor<1024x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}

// -----

func.func @other_dim(%i: tensor<1x1024xf32>, %w: tensor<1024x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'graph.matmul' op split-strategy: accel.mapping #accel.mapping<ranges = [0, 1, 4], array = [N, N]> contradicts the split of operand 1 (array = [K, K], ranges = [0, 512, 1024])}}
  %o = graph.matmul %i, %w {accel.mapping = #accel.mapping<ranges = [0, 1, 4], array = [N, N]>} : (tensor<1x1024xf32>, tensor<1024x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}

// -----

// A partition chosen before without a split decision stays.
func.func @chosen_before(%i: tensor<1x1024xf32>, %w: tensor<1024x4xf32>) -> tensor<1x4xf32> {
  %o = graph.matmul %i, %w {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [M, N]>} : (tensor<1x1024xf32>, tensor<1024x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}
