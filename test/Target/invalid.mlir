// ISA programs the binary writer rejects, with the diagnostic on the op.
// RUN: accel-translate --isa-to-binary %s -split-input-file -verify-diagnostics -o /dev/null

// The ISA dialect verifiers run first.
isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.mac' op acc 4 out of range [0, 4)}}
      isa.mac slot 0 acc 4 <depth = 1>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.execute' op patch names instruction 256 (the binary holds 8-bit indexes, max 255)}}
    isa.execute ibuf 0 patches [#isa.patch<256, rows, 1>]
  }
}

// -----

isa.program grid(1 x 1) dram 64 hw 0 {
  // expected-error @+1 {{'isa.io' op element type 'f64' is not one of f32, f16, bf16, i8, i32}}
  isa.io input "x" at 0 : tensor<4xf64>
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  // expected-error @+1 {{'isa.io' op tensor type must have a static shape}}
  isa.io input "x" at 0 : tensor<?xf32>
}

// -----

isa.program grid(1 x 1) dram 64 hw 0 {
  // expected-error @+1 {{'isa.data' op integer data of width 1 is not a whole number of bytes}}
  isa.data at 0 = dense<true> : tensor<4xi1>
}

// -----

// expected-error @+1 {{'isa.program' op grid 0x4 must have 1 to 65536 clusters}}
isa.program grid(0 x 4) dram 0 hw 0 {
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
}
// expected-error @+1 {{expected exactly one isa.program, found another one here}}
isa.program grid(1 x 1) dram 0 hw 0 {
}

// -----

// expected-error @+1 {{expected a module holding one isa.program}}
module {
}

// -----

// Issue 5 fields: the dialect verifier rejects them before the writer.
isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.mac' op operand record step needs pipeline 2 (the scalar unit)}}
      isa.mac slot 0 acc 0 <depth = 1, base = 1, step = 1>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.st' op operand record pe_addrs must not be empty}}
      isa.st acc slot 0 acc 0 <pe_addrs = []>
    }
  }
}

// -----

// Validation against a hardware description is opt-in (--hw); see
// corrupt-binary.mlir. Without it any fingerprint is written.
isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      isa.ld acts slot 0 <>
    }
  }
}
