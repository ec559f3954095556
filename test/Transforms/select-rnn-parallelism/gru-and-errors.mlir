// A GRU's candidate phase has its own vp (rows H); a hand-written decision
// is kept when the machine allows it and is an error naming constraint (8)
// when it does not; a forced ep must be a power of two <= rnn.ep_max.
// RUN: accel-opt --select-rnn-parallelism %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not accel-opt --select-rnn-parallelism=ep=3 %s -split-input-file 2>&1 | FileCheck %s --check-prefix=BADEP

func.func @gru(%x: tensor<5x1x8xf32>, %w: tensor<1x48x8xf32>, %r: tensor<1x48x16xf32>) -> tensor<1x1x16xf32> {
  %y, %yh, %yc = graph.recurrent gru %x, %w, %r {activations = ["Sigmoid", "Tanh"], direction = "forward", hidden_size = 16 : i64} : (tensor<5x1x8xf32>, tensor<1x48x8xf32>, tensor<1x48x16xf32>) -> (tensor<5x1x1x16xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>)
  return %yh : tensor<1x1x16xf32>
}
// z and r: 32 rows x 24 columns; the candidate: 16 rows.
// CHECK-LABEL: func.func @gru
// CHECK: accel.rnn_parallelism = #accel.rnn_parallelism<ep = [[EP:[0-9]+]], vp = {{[0-9]+}}, candidate_vp = 16,

// -----

func.func @kept(%x: tensor<5x1x8xf32>, %w: tensor<1x64x8xf32>, %r: tensor<1x64x16xf32>) -> tensor<1x1x16xf32> {
  %y, %yh, %yc = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 16 : i64, accel.rnn_parallelism = #accel.rnn_parallelism<ep = 4, vp = 64>} : (tensor<5x1x8xf32>, tensor<1x64x8xf32>, tensor<1x64x16xf32>) -> (tensor<5x1x1x16xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>)
  return %yh : tensor<1x1x16xf32>
}
// CHECK-LABEL: func.func @kept
// CHECK: accel.rnn_parallelism = #accel.rnn_parallelism<ep = 4, vp = 64>

// -----

func.func @too_wide(%x: tensor<5x1x8xf32>, %w: tensor<1x64x8xf32>, %r: tensor<1x64x16xf32>) -> tensor<1x1x16xf32> {
  // expected-error @+1 {{accel.rnn_parallelism: vp = 64 exceeds npe / ep = 256 / 8 = 32 (constraint (8))}}
  %y, %yh, %yc = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 16 : i64, accel.rnn_parallelism = #accel.rnn_parallelism<ep = 8, vp = 64>} : (tensor<5x1x8xf32>, tensor<1x64x8xf32>, tensor<1x64x16xf32>) -> (tensor<5x1x1x16xf32>, tensor<1x1x16xf32>, tensor<1x1x16xf32>)
  return %yh : tensor<1x1x16xf32>
}

// BADEP: select-rnn-parallelism: ep = 3 must be a power of two <= rnn.ep_max = 64
