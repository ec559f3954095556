// RUN: accel-opt %s -split-input-file -verify-diagnostics

// A command's layer indexes the program's layer table.
isa.program grid(1 x 1) dram 64 hw 0 layers [
  #isa.layer<name = "a", op = "Relu">
] {
  isa.cluster(0, 0) {
    isa.wait tags [] pe layer 0
    // expected-error @+1 {{'isa.barrier' op layer 1 is out of range: the program's layer table has 1 entry}}
    isa.barrier 0 layer 1
  }
}

// -----

// Without a table no command may name a layer.
isa.program grid(1 x 1) dram 64 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.dma' op layer 0 is out of range: the program's layer table has 0 entries}}
    isa.dma load tag 0 src 0 dst 0 shape [4] src_strides [1] dst_strides [1] layer 0
  }
}

// -----

isa.program grid(1 x 1) dram 64 hw 0 layers [] {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.config' op layer 0 is out of range: the program's layer table has 0 entries}}
    isa.config ibuf 0 layer 0 {
      isa.ld acts slot 0 <cols = 8>
    }
  }
}

// -----

// expected-error @+2 {{layer 'conv': weight_bytes 64 exceed compulsory_bytes 32 (weights are part of them)}}
isa.program grid(1 x 1) dram 64 hw 0 layers [
  #isa.layer<name = "conv", op = "Conv", compulsory_bytes = 32, weight_bytes = 64>
] {
}

// -----

// expected-error @+2 {{layer 'conv': fused must list names (strings), got 3 : i64}}
isa.program grid(1 x 1) dram 64 hw 0 layers [
  #isa.layer<name = "conv", op = "Conv", fused = ["bn", 3]>
] {
}

// -----

// expected-error @+2 {{struct is missing required parameter: op}}
isa.program grid(1 x 1) dram 64 hw 0 layers [
  #isa.layer<name = "conv">
] {
}
