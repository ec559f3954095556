// Verifiers of the ISA dialect (dialects/Isa/IsaDialect.cpp).
// RUN: accel-opt %s -split-input-file -verify-diagnostics

isa.program grid(1 x 2) dram 0 hw 0 {
  // expected-error @+1 {{'isa.cluster' op cluster (1, 0) is outside the 1x2 grid}}
  isa.cluster(1, 0) {
  }
}

// -----

isa.program grid(1 x 2) dram 0 hw 0 {
  isa.cluster(0, 1) {
  }
  // expected-error @+1 {{duplicate stream for cluster (0, 1)}}
  isa.cluster(0, 1) {
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.config' op ibuf 32 out of range [0, 32)}}
    isa.config ibuf 32 {
      isa.ld acts slot 0 <>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.config' op instruction sequence is empty}}
    isa.config ibuf 0 {
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.execute' op ibuf 40 out of range [0, 32)}}
    isa.execute ibuf 40
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.dma' op shape must have 1 to 4 dimensions}}
    isa.dma load tag 0 src 0 dst 0 shape [1, 1, 1, 1, 1] src_strides [0, 0, 0, 0, 0] dst_strides [0, 0, 0, 0, 0]
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.dma' op shape must have 1 to 4 dimensions}}
    isa.dma load tag 0 src 0 dst 0 shape [] src_strides [] dst_strides []
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{shape and both stride lists must have the same length}}
    isa.dma store tag 0 src 0 dst 0 shape [2, 2] src_strides [2] dst_strides [2, 1]
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.dma' op shape extents must be >= 1}}
    isa.dma load tag 0 src 0 dst 0 shape [0] src_strides [1] dst_strides [1]
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.dma' op elem_bytes must be 1, 2 or 4}}
    isa.dma load tag 0 src 0 dst 0 shape [4] src_strides [1] dst_strides [1] {elem_bytes = 3 : i32}
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.dma' op tag 8 out of range [0, 8)}}
    isa.dma load tag 8 src 0 dst 0 shape [4] src_strides [1] dst_strides [1]
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.wait' op tag 9 out of range [0, 8)}}
    isa.wait tags [1, 9]
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.ld' op slot 16 out of range [0, 16)}}
      isa.ld acts slot 16 <>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.ld' op accumulation buffer 4 out of range [0, 4)}}
      isa.ld psums slot 4 <>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.ld' op operand record rows and cols must be >= 1}}
      isa.ld acts slot 0 <rows = 0>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.st' op operand record repeat must be >= 1}}
      isa.st acc slot 0 acc 0 <repeat = 0>
    }
  }
}

// -----

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
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.mac' op slot 20 out of range [0, 16)}}
      isa.mac slot 20 acc 0 <depth = 1>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.mac' op MAC needs depth (K) >= 1}}
      isa.mac slot 0 acc 0 <>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.st' op slot 16 out of range [0, 16)}}
      isa.st inbuf slot 16 acc 0 <>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.st' op acc 5 out of range [0, 4)}}
      isa.st acc slot 0 acc 5 <>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.spu' op in slot 16 out of range [0, 16)}}
      isa.spu unary in 16 out 0 <>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.spu' op out slot 16 out of range [0, 16)}}
      isa.spu unary in 0 out 16 <>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.spu' op second slot (depth) 16 out of range [0, 16)}}
      isa.spu binary in 0 out 1 <depth = 16, func = add>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.ld' op expects parent op 'isa.config'}}
    isa.ld acts slot 0 <>
  }
}

// -----

// expected-error @+1 {{'isa.cluster' op expects parent op 'isa.program'}}
isa.cluster(0, 0) {
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.io' op expects parent op 'isa.program'}}
    isa.io input "x" at 0 : tensor<4xf32>
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  // expected-error @+1 {{'isa.execute' op expects parent op 'isa.cluster'}}
  isa.execute ibuf 0
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+2 {{expected ::accel::isa::LoadStream to be one of: acts, weights, psums}}
      // expected-error @+1 {{failed to parse Isa_LoadStreamAttr parameter}}
      isa.ld bogus slot 0 <>
    }
  }
}

// -----
// Issue 5: control-unit fields of the operand record.

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.ld' op operand record step needs pipeline 2 (the scalar unit)}}
      isa.ld acts slot 0 <step = 4>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.ld' op operand record pipeline 3 is invalid (1 = ID-FO, 2 = ID-FO-SU-WB)}}
      isa.ld acts slot 0 <pipeline = 3>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.st' op operand record base is only used by MAC}}
      isa.st acc slot 0 acc 0 <base = 2>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.spu' op operand record across_pes is only used by SPU reduce}}
      isa.spu unary in 0 out 1 <func = relu, across_pes = true>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.ld' op operand record pe_addrs is only used by LD acts / psums and ST}}
      isa.ld weights slot 0 <pe_addrs = [0, 4]>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.ld' op operand record pe_addrs value -4 out of range [0, 2^32)}}
      isa.ld acts slot 0 <pe_addrs = [0, -4]>
    }
  }
}

// -----

isa.program grid(1 x 1) dram 0 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      // expected-error @+1 {{'isa.ld' op LD sparse_weights needs depth (dense rows K) >= 1}}
      isa.ld sparse_weights slot 0 <rows = 3, cols = 2>
    }
  }
}

// -----

// I/O tensors and constant data lie inside the program's DRAM; a byte size
// that overflows 64 bits is refused, not wrapped.
isa.program grid(1 x 1) dram 128 hw 0 {
  // expected-error @+1 {{'isa.io' op 'x' of type 'tensor<4611686018427387904xf32>' needs more than 2^64 bytes}}
  isa.io input "x" at 0 : tensor<4611686018427387904xf32>
}

// -----

isa.program grid(1 x 1) dram 128 hw 0 {
  // expected-error @+1 {{'isa.io' op 'y': 4096 bytes at address 64 lie outside the program's DRAM [0, 128)}}
  isa.io output "y" at 64 : tensor<32x32xf32>
}

// -----

isa.program grid(1 x 1) dram 128 hw 0 {
  // i1 and i64 values are held as f32 words: 32 x 4 bytes fit exactly.
  isa.io input "m" at 0 : tensor<32xi1>
}

// -----

isa.program grid(1 x 1) dram 128 hw 0 {
  // expected-error @+1 {{'isa.data' op constant data: 8 bytes at address 124 lie outside the program's DRAM [0, 128)}}
  isa.data at 124 = dense<1.0> : tensor<2xf32>
}

// -----

// DRAM pieces and constant replicas: present means non-empty, and each one
// lies in the program's DRAM (validateProgram checks the rest).
isa.program grid(1 x 1) dram 256 hw 0 {
  // expected-error @+1 {{'isa.io' op pieces must not be empty (a dense tensor has none)}}
  isa.io input "x" at 0 pieces [] : tensor<4xf32>
}

// -----

isa.program grid(1 x 1) dram 256 hw 0 {
  // expected-error @+1 {{'isa.io' op 'x' piece 1: 8 bytes at address 252 lie outside the program's DRAM [0, 256)}}
  isa.io input "x" at 0 pieces [[0, 8) at 0, [8, 16) at 252] : tensor<4xf32>
}

// -----

isa.program grid(1 x 1) dram 256 hw 0 {
  // expected-error @+1 {{piece [8, 4) ends before it begins}}
  isa.io input "x" at 0 pieces [[8, 4) at 0] : tensor<4xf32>
}

// -----

// A DRAM of 2^64 - 1 bytes holds the piece, but its end overflows.
isa.program grid(1 x 1) dram -1 hw 0 {
  // expected-error @+1 {{'isa.io' op piece 0 (offset 1, 18446744073709551615 bytes) ends past 2^64}}
  "isa.io"() <{addr = 0 : i64, kind = #isa<io_kind input>, pieces = [#isa.piece<offset = 1, bytes = 18446744073709551615, addr = 0>], sym_name = "x", type = tensor<4xf32>}> : () -> ()
}

// -----

isa.program grid(1 x 1) dram 256 hw 0 {
  // expected-error @+1 {{'isa.data' op replicas must not be empty (omit them for one copy)}}
  isa.data at 0 replicas [] = dense<1.0> : tensor<4xf32>
}

// -----

isa.program grid(1 x 1) dram 256 hw 0 {
  // expected-error @+1 {{'isa.data' op constant data replica 1: 16 bytes at address 248 lie outside the program's DRAM [0, 256)}}
  isa.data at 0 replicas [64, 248] = dense<1.0> : tensor<4xf32>
}

// -----

// Mesh commands (SEND / SIGNAL / RECV): targets inside the grid, ascending
// and unique; semaphores < 4096; counts and sizes >= 1.
isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.send' op target (2, 0) is outside the 2x2 grid}}
    isa.send src 0 dst 0 bytes 4 to [(0, 1), (2, 0)] sem 0 tag 0
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.send' op targets must be in ascending row-major order without repeats: (0, 1) follows (1, 0)}}
    isa.send src 0 dst 0 bytes 4 to [(1, 0), (0, 1)] sem 0 tag 0
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.signal' op targets must be in ascending row-major order without repeats: (1, 1) follows (1, 1)}}
    isa.signal to [(1, 1), (1, 1)] sem 0
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.signal' op needs at least one target cluster}}
    isa.signal to [] sem 0
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.signal' op target (0, 2) is outside the 2x2 grid}}
    isa.signal to [(0, 2)] sem 1
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.send' op sem 4096 out of range [0, 4096)}}
    isa.send src 0 dst 0 bytes 4 to [(0, 1)] sem 4096 tag 0
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.send' op tag 8 out of range [0, 8)}}
    isa.send src 0 dst 0 bytes 4 to [(0, 1)] sem 0 tag 8
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.send' op bytes must be > 0}}
    isa.send src 0 dst 0 bytes 0 to [(0, 1)] sem 0 tag 0
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.signal' op sem 5000 out of range [0, 4096)}}
    isa.signal to [(0, 1)] sem 5000
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.recv' op sem 4096 out of range [0, 4096)}}
    isa.recv sem 4096 count 1
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 0) {
    // expected-error @+1 {{'isa.recv' op count must be >= 1}}
    isa.recv sem 0 count 0
  }
}

// -----

// remote_load: only that direction names a source cluster, which lies
// inside the grid and is not the issuing cluster.
isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 1) {
    // expected-error @+1 {{'isa.dma' op remote_load reads its own cluster (0, 1); a SEND to itself copies inside the storage unit}}
    isa.dma remote_load from (0, 1) tag 0 src 0 dst 0 shape [4] src_strides [1] dst_strides [1]
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 1) {
    // expected-error @+1 {{'isa.dma' op source cluster (3, 0) is outside the 2x2 grid}}
    isa.dma remote_load from (3, 0) tag 0 src 0 dst 0 shape [4] src_strides [1] dst_strides [1]
  }
}

// -----

isa.program grid(2 x 2) dram 0 hw 0 {
  isa.cluster(0, 1) {
    // expected-error @+1 {{'isa.dma' op remote_load needs a source cluster: remote_load from (row, col)}}
    isa.dma remote_load tag 0 src 0 dst 0 shape [4] src_strides [1] dst_strides [1]
  }
}

// -----

isa.program grid(2 x 2) dram 64 hw 0 {
  isa.cluster(0, 1) {
    // expected-error @+1 {{'isa.dma' op only remote_load reads another cluster (load has no source cluster)}}
    isa.dma load from (0, 0) tag 0 src 0 dst 0 shape [4] src_strides [1] dst_strides [1]
  }
}

// -----

// Constant packets: the cluster lies in the grid, one packet per core, the
// marker area and the blocks inside the program's DRAM.
isa.program grid(1 x 2) dram 64 hw 0 {
  // expected-error @+1 {{'isa.packet' op cluster (0, 2) is outside the 1x2 grid}}
  isa.packet cluster (0, 2) core 0 marker at 0 = dense<0> : tensor<1xi64> {
  }
}

// -----

isa.program grid(1 x 2) dram 64 hw 0 {
  isa.packet cluster (0, 1) core 3 marker at 0 = dense<0> : tensor<1xi64> {
  }
  // expected-error @+1 {{'isa.packet' op duplicate packet for core 3 of cluster (0, 1)}}
  isa.packet cluster (0, 1) core 3 marker at 8 = dense<0> : tensor<1xi64> {
  }
}

// -----

isa.program grid(1 x 2) dram 64 hw 0 {
  // expected-error @+1 {{'isa.packet' op marker area: 16 bytes at address 56 lie outside the program's DRAM [0, 64)}}
  isa.packet cluster (0, 0) core 0 marker at 56 = dense<0> : tensor<2xi64> {
  }
}

// -----

isa.program grid(1 x 2) dram 64 hw 0 {
  isa.packet cluster (0, 0) core 0 marker at 0 = dense<0> : tensor<1xi64> {
    // expected-error @+1 {{'isa.block' op block 'w': 64 bytes at address 32 lie outside the program's DRAM [0, 64)}}
    isa.block "w" at 32 bytes 64
  }
}
