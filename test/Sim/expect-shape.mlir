// accel-run --expect compares shapes, not only element counts: the output y
// (a DMA copy of the 3x2 input x) against a 2x3 reference holding the same
// six values fails and names both shapes; against the 3x2 reference it
// matches. Both comparisons of one run are reported.
//
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: %python -c "import numpy as np, sys; x = np.arange(6, dtype=np.float32).reshape(3, 2); np.save(sys.argv[1], x); np.save(sys.argv[2], x.reshape(2, 3)); np.save(sys.argv[3], x.reshape(6))" %t.x.npy %t.ref23.npy %t.ref6.npy
// RUN: accel-run %t.bin --input x=%t.x.npy --expect y=%t.x.npy | FileCheck %s --check-prefix=SAME
// SAME: y matches the reference (max abs error 0)
// RUN: not accel-run %t.bin --input x=%t.x.npy --expect y=%t.ref23.npy 2>&1 | FileCheck %s --check-prefix=T23
// T23: accel-run: error: output 'y' has shape [3, 2] but the reference has shape [2, 3]
// T23-NOT: matches the reference
// RUN: not accel-run %t.bin --input x=%t.x.npy --expect y=%t.ref6.npy --quiet 2>&1 | FileCheck %s --check-prefix=FLAT
// FLAT: accel-run: error: output 'y' has shape [3, 2] but the reference has shape [6]

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.io input "x" at 0 : tensor<3x2xf32>
  isa.io output "y" at 1024 : tensor<3x2xf32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [3, 2] src_strides [2, 1] dst_strides [2, 1]
    isa.wait tags [0]
    isa.dma store tag 1 src 0 dst 1024 shape [3, 2] src_strides [2, 1] dst_strides [2, 1]
    isa.wait tags [1]
  }
  isa.cluster(0, 1) {
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
