// The worked examples of spec/rnn-multithreading.md ("Numbers to reproduce")
// on the npe = 65536 preset (256 PEs x 256 lanes, 64-wide adder trees):
// 512-dim vectors (rows 2048, cols 1024) pick (ep 32, vp 2048): 32 block
// cycles, where (16, 4096) is capped to vp 2048 and takes 64; 1024-dim
// vectors pick (16, 4096): 128 block cycles, tied with (32, 2048), whose
// deeper adder tree loses.
// RUN: accel-opt --accel-hw=%hw_dir/rnn-npe64k.json --select-rnn-parallelism %s | FileCheck %s
// Forcing ep 16 on the 512-dim layer: vp is capped by constraint (7).
// RUN: accel-opt --accel-hw=%hw_dir/rnn-npe64k.json --select-rnn-parallelism=ep=16 %s | FileCheck %s --check-prefix=EP16
// On the default machine (npe 256 = 4 PEs x 64 lanes) hidden 512 picks a
// 16 x 16 blocks: (2048 / 16) x (1024 / 16) = 8192 block cycles a step.
// RUN: accel-opt --select-rnn-parallelism %s | FileCheck %s --check-prefix=DEFAULT

func.func @main(%x: tensor<4x1x512xf32>, %w: tensor<1x2048x512xf32>, %r: tensor<1x2048x512xf32>,
                %x2: tensor<4x1x1024xf32>, %w2: tensor<1x4096x1024xf32>, %r2: tensor<1x4096x1024xf32>)
    -> (tensor<1x1x512xf32>, tensor<1x1x1024xf32>) {
  %y, %yh, %yc = graph.recurrent lstm %x, %w, %r {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 512 : i64} : (tensor<4x1x512xf32>, tensor<1x2048x512xf32>, tensor<1x2048x512xf32>) -> (tensor<4x1x1x512xf32>, tensor<1x1x512xf32>, tensor<1x1x512xf32>)
  %y2, %yh2, %yc2 = graph.recurrent lstm %x2, %w2, %r2 {activations = ["Sigmoid", "Tanh", "Tanh"], direction = "forward", hidden_size = 1024 : i64} : (tensor<4x1x1024xf32>, tensor<1x4096x1024xf32>, tensor<1x4096x1024xf32>) -> (tensor<4x1x1x1024xf32>, tensor<1x1x1024xf32>, tensor<1x1x1024xf32>)
  return %yh, %yh2 : tensor<1x1x512xf32>, tensor<1x1x1024xf32>
}

// CHECK: accel.rnn_parallelism = #accel.rnn_parallelism<ep = 32, vp = 2048, accumulators = 2, block_cycles = 32,{{.*}}hidden_size = 512 : i64
// CHECK: accel.rnn_parallelism = #accel.rnn_parallelism<ep = 16, vp = 4096, accumulators = 4, block_cycles = 128,{{.*}}hidden_size = 1024 : i64
// EP16: accel.rnn_parallelism = #accel.rnn_parallelism<ep = 16, vp = 2048, accumulators = 4, block_cycles = 64,{{.*}}hidden_size = 512 : i64
// DEFAULT: accel.rnn_parallelism = #accel.rnn_parallelism<ep = 16, vp = 16, accumulators = 4, block_cycles = 8192, step_cycles = 8211>{{.*}}hidden_size = 512 : i64
