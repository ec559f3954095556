// isa.recur prints and parses back; its verifier names the bad field.
// RUN: accel-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: isa.recur  gru reverse thread 2 tag 3 hidden 8 inputs 4 steps 5 ep 4 vp 16 {activations = ["Sigmoid", "Tanh", "Tanh"], bias = 1024 : i32, candidate_vp = 8 : i32, h0 = 1280 : i32, h_t = 1536 : i32, linear_before_reset, seq_len = 1600 : i32, weights = 0 : i64, x = 1152 : i32, y = 1344 : i32}
isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.recur gru reverse thread 2 tag 3 hidden 8 inputs 4 steps 5 ep 4 vp 16 {activations = ["Sigmoid", "Tanh", "Tanh"], bias = 1024 : i32, candidate_vp = 8 : i32, h0 = 1280 : i32, h_t = 1536 : i32, linear_before_reset, seq_len = 1600 : i32, weights = 0 : i64, x = 1152 : i32, y = 1344 : i32}
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.recur' op ep must be a power of two, got 3}}
    isa.recur lstm thread 0 tag 0 hidden 8 inputs 4 steps 5 ep 3 vp 16 {activations = ["Sigmoid", "Tanh", "Tanh"], bias = 0 : i32, h0 = 0 : i32, h_t = 0 : i32, weights = 0 : i64, x = 0 : i32, y = 0 : i32}
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.recur' op unknown recurrent activation 'Swish'}}
    isa.recur lstm thread 0 tag 0 hidden 8 inputs 4 steps 5 ep 4 vp 16 {activations = ["Sigmoid", "Swish", "Tanh"], bias = 0 : i32, h0 = 0 : i32, h_t = 0 : i32, weights = 0 : i64, x = 0 : i32, y = 0 : i32}
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.recur' op linear_before_reset applies to a GRU only}}
    isa.recur lstm thread 0 tag 0 hidden 8 inputs 4 steps 5 ep 4 vp 16 {activations = ["Sigmoid", "Tanh", "Tanh"], bias = 0 : i32, h0 = 0 : i32, h_t = 0 : i32, linear_before_reset, weights = 0 : i64, x = 0 : i32, y = 0 : i32}
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.recur' op tag 9 out of range [0, 8)}}
    isa.recur lstm thread 0 tag 9 hidden 8 inputs 4 steps 5 ep 4 vp 16 {activations = ["Sigmoid", "Tanh", "Tanh"], bias = 0 : i32, h0 = 0 : i32, h_t = 0 : i32, weights = 0 : i64, x = 0 : i32, y = 0 : i32}
  }
}
