// RUN: accel-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect
//
// RNN decisions that contradict themselves or their op.

func.func @vp_too_large(%x: tensor<5x1x8xf32>, %w: tensor<1x32x8xf32>, %r: tensor<1x32x8xf32>) -> tensor<1x1x8xf32> {
  // expected-error @+1 {{accel.rnn_parallelism: vp = 64 exceeds the 32 rows of the merged gate matrix (constraint (7))}}
  %y, %yh, %yc = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 8 : i64, accel.rnn_parallelism = #accel.rnn_parallelism<ep = 4, vp = 64>} : (tensor<5x1x8xf32>, tensor<1x32x8xf32>, tensor<1x32x8xf32>) -> (tensor<5x1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>)
  return %yh : tensor<1x1x8xf32>
}

// -----

func.func @candidate_on_lstm(%x: tensor<5x1x8xf32>, %w: tensor<1x32x8xf32>, %r: tensor<1x32x8xf32>) -> tensor<1x1x8xf32> {
  // expected-error @+1 {{accel.rnn_parallelism: candidate_vp applies to a GRU only}}
  %y, %yh, %yc = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 8 : i64, accel.rnn_parallelism = #accel.rnn_parallelism<ep = 4, vp = 8, candidate_vp = 8>} : (tensor<5x1x8xf32>, tensor<1x32x8xf32>, tensor<1x32x8xf32>) -> (tensor<5x1x1x8xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>)
  return %yh : tensor<1x1x8xf32>
}

// -----

func.func @ep_not_pow2() {
  // expected-error @+1 {{accel.rnn_parallelism: ep must be a power of two, got 3}}
  "test.op"() {a = #accel.rnn_parallelism<ep = 3, vp = 8>} : () -> ()
  return
}

// -----

func.func @start_before_arrival() {
  // expected-error @+1 {{accel.rnn_thread: start 5 is before the arrival 10}}
  "test.op"() {a = #accel.rnn_thread<task = 0, cluster = 0, thread = 0, arrival = 10, start = 5>} : () -> ()
  return
}

// -----

func.func @waits_for_itself() {
  // expected-error @+1 {{accel.rnn_thread: task 2 waits for itself}}
  "test.op"() {a = #accel.rnn_thread<task = 2, cluster = 0, thread = 0, arrival = 0, after = [2]>} : () -> ()
  return
}

// -----

func.func @one_thread_per_direction(%x: tensor<5x1x8xf32>, %w: tensor<2x32x8xf32>, %r: tensor<2x32x8xf32>) -> tensor<2x1x8xf32> {
  // expected-error @+1 {{accel.rnn_threads: expected an array of 2 #accel.rnn_thread (one per direction and batch row)}}
  %y, %yh, %yc = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh", "Sigmoid", "Tanh", "Tanh"], direction = "bidirectional", hidden_size = 8 : i64, accel.rnn_threads = [#accel.rnn_thread<task = 0, cluster = 0, thread = 0, arrival = 0>]} : (tensor<5x1x8xf32>, tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> (tensor<5x2x1x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>)
  return %yh : tensor<2x1x8xf32>
}

// -----

func.func @arrival_elsewhere(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{accel.arrival applies to graph.recurrent only}}
  %0 = graph.relu %a {accel.arrival = 3 : i64} : tensor<2xf32>
  return %0 : tensor<2xf32>
}
