// Five RNN tasks (a bidirectional layer is two) on the default machine
// (2 x 2 clusters, 4 instruction buffers = thread contexts each).
// RUN: accel-opt --select-rnn-parallelism --schedule-rnn-threads %s | FileCheck %s
// All on one cluster: the tasks share its thread contexts (CGMT).
// RUN: accel-opt --select-rnn-parallelism --schedule-rnn-threads="clusters=1" %s | FileCheck %s --check-prefix=ONE
// One cluster, one context: no multithreading, one task after the other.
// RUN: accel-opt --select-rnn-parallelism --schedule-rnn-threads="clusters=1 contexts=1" %s | FileCheck %s --check-prefix=SEQ
// RUN: not accel-opt --schedule-rnn-threads="contexts=5" %s 2>&1 | FileCheck %s --check-prefix=BAD
func.func @main(%x: tensor<6x1x32xf32>, %w: tensor<1x128x32xf32>, %r: tensor<1x128x32xf32>, %wb: tensor<2x128x32xf32>, %rb: tensor<2x128x32xf32>)
    -> (tensor<1x1x32xf32>, tensor<1x1x32xf32>, tensor<1x1x32xf32>, tensor<2x1x32xf32>) {
  %y0, %h0, %c0 = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 32 : i64} : (tensor<6x1x32xf32>, tensor<1x128x32xf32>, tensor<1x128x32xf32>) -> (tensor<6x1x1x32xf32>, tensor<1x1x32xf32>, tensor<1x1x32xf32>)
  %y1, %h1, %c1 = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 32 : i64, accel.arrival = 5000 : i64} : (tensor<6x1x32xf32>, tensor<1x128x32xf32>, tensor<1x128x32xf32>) -> (tensor<6x1x1x32xf32>, tensor<1x1x32xf32>, tensor<1x1x32xf32>)
  %x2 = graph.reshape %y0 : (tensor<6x1x1x32xf32>) -> tensor<6x1x32xf32>
  %y2, %h2, %c2 = graph.recurrent lstm %x2, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 32 : i64} : (tensor<6x1x32xf32>, tensor<1x128x32xf32>, tensor<1x128x32xf32>) -> (tensor<6x1x1x32xf32>, tensor<1x1x32xf32>, tensor<1x1x32xf32>)
  %y3, %h3, %c3 = graph.recurrent lstm %x, %wb, %rb {activations = ["Sigmoid", "Tanh", "Tanh", "Sigmoid", "Tanh", "Tanh"], direction = "bidirectional", hidden_size = 32 : i64} : (tensor<6x1x32xf32>, tensor<2x128x32xf32>, tensor<2x128x32xf32>) -> (tensor<6x2x1x32xf32>, tensor<2x1x32xf32>, tensor<2x1x32xf32>)
  return %h0, %h1, %h2, %h3 : tensor<1x1x32xf32>, tensor<1x1x32xf32>, tensor<1x1x32xf32>, tensor<2x1x32xf32>
}

// Spread over the clusters; the second layer (task 2) reads the first's Y,
// so it waits for it (after = [0]) and arrives when it finishes; task 1
// arrives at its accel.arrival.
// CHECK: accel.rnn_threads = [#accel.rnn_thread<task = 0, cluster = 0, thread = 0, arrival = 0, start = 0, finish = 287>]
// CHECK: accel.rnn_threads = [#accel.rnn_thread<task = 1, cluster = 0, thread = 0, arrival = 5000, start = 5000, finish = 5287>]
// CHECK: accel.rnn_threads = [#accel.rnn_thread<task = 2, cluster = 0, thread = 0, arrival = 287, after = [0], start = 287, finish = 574>]
// CHECK: accel.rnn_threads = [#accel.rnn_thread<task = 3, cluster = 1, thread = 0, arrival = 0, start = 0, finish = 287>, #accel.rnn_thread<task = 4, cluster = 2, thread = 0, arrival = 0, start = 0, finish = 287>]

// One cluster: tasks 0, 3 and 4 interleave on threads 0, 1, 2 (each is
// slower alone than before, the three finish by 606 instead of 861).
// ONE: #accel.rnn_thread<task = 0, cluster = 0, thread = 0, arrival = 0, start = 0, finish = 542>
// ONE: #accel.rnn_thread<task = 2, cluster = 0, thread = 0, arrival = 542, after = [0], start = 606, finish = 893>
// ONE: #accel.rnn_thread<task = 3, cluster = 0, thread = 1, arrival = 0, start = 34, finish = 574>, #accel.rnn_thread<task = 4, cluster = 0, thread = 2, arrival = 0, start = 68, finish = 606>

// SEQ: #accel.rnn_thread<task = 2, cluster = 0, thread = 0, arrival = 287, after = [0], start = 861, finish = 1148>
// SEQ: #accel.rnn_thread<task = 3, cluster = 0, thread = 0, arrival = 0, start = 287, finish = 574>, #accel.rnn_thread<task = 4, cluster = 0, thread = 0, arrival = 0, start = 574, finish = 861>

// BAD: schedule-rnn-threads: contexts = 5 must be between 1 and the hardware's 4 instruction buffers
