// RUN: accel-opt %s -split-input-file | accel-opt -split-input-file | FileCheck %s

// The RNN decisions print and parse back.
// CHECK: accel.arrival = 10 : i64
// CHECK-SAME: accel.rnn_parallelism = #accel.rnn_parallelism<ep = 16, vp = 16, candidate_vp = 8, accumulators = 4, block_cycles = 12, step_cycles = 30>
// CHECK-SAME: accel.rnn_threads = [#accel.rnn_thread<task = 3, cluster = 1, thread = 2, arrival = 10, after = [0, 1], start = 40, finish = 90>]
func.func @gru(%x: tensor<5x1x8xf32>, %w: tensor<1x24x8xf32>, %r: tensor<1x24x8xf32>) -> tensor<1x1x8xf32> {
  %y, %yh, %yc = graph.recurrent gru %x, %w, %r {activations = ["Sigmoid", "Tanh"], direction = "forward", hidden_size = 8 : i64,
      accel.rnn_parallelism = #accel.rnn_parallelism<ep = 16, vp = 16, candidate_vp = 8, accumulators = 4, block_cycles = 12, step_cycles = 30>,
      accel.rnn_threads = [#accel.rnn_thread<task = 3, cluster = 1, thread = 2, arrival = 10, after = [0, 1], start = 40, finish = 90>],
      accel.arrival = 10 : i64} : (tensor<5x1x8xf32>, tensor<1x24x8xf32>, tensor<1x24x8xf32>) -> (tensor<5x1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>)
  return %yh : tensor<1x1x8xf32>
}
