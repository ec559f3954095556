// The DMA direction local_copy (4: storage -> storage of the issuing
// cluster, docs/isa.md) survives ISA text -> binary -> ISA text, is valid
// on the default machine and runs: y = x through a local copy.
// RUN: accel-translate --isa-to-binary --hw=default %s -o %t.bin
// RUN: accel-translate --binary-to-isa --hw=default %t.bin | FileCheck %s
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(16, dtype=np.float32))"
// RUN: accel-run %t.bin --input x=%t.x.npy --output-dir %t.out --strict-hazards --quiet
// RUN: %python -c "import numpy as np; y=np.load('%t.out/y.npy'); assert (y == np.arange(16)).all(), y; print('ok')" | FileCheck %s --check-prefix=SIM
// RUN: %python -c "import json; s=json.load(open('%t.out/stats.json')); print(s['dram_bytes_read'], s['dram_bytes_written'], s['storage_bytes_read'])" | FileCheck %s --check-prefix=STATS
//
// Overlapping boxes are refused.
// RUN: sed -e 's/dst 1024 shape \[16\]/dst 32 shape [16]/' %s > %t.overlap.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.overlap.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=OVERLAP

// CHECK:      isa.dma local_copy tag 1 src 0 dst 1024 shape [16] src_strides [1] dst_strides [1]
// SIM:        ok
// The local copy moves no DRAM bytes: 64 read (x) and 64 written (y).
// STATS:      64 64
// OVERLAP:    local_copy source box [0, 64) overlaps its destination box [32, 96)

isa.program grid(2 x 2) dram 65536 hw -5845083677414689407 {
  isa.io input "x" at 0 : tensor<16xf32>
  isa.io output "y" at 64 : tensor<16xf32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [0]
    isa.dma local_copy tag 1 src 0 dst 1024 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [1]
    isa.dma store tag 2 src 1024 dst 64 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [2]
  }
  isa.cluster(0, 1) {
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
