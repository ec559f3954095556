// Simulated DRAM is allocated on first touch: a program claiming 16 TiB of
// DRAM (as a corrupt header can) that touches 128 bytes at both ends runs in
// a 512 MB address-space limit, and untouched DRAM still reads as zeros.
// ASan reserves terabytes of shadow address space, so the ulimit cannot
// apply there; the unit test Simulator.HugeClaimedDramRunsInSmallMemory
// checks the allocated pages in every configuration.
// UNSUPPORTED: asan
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: %python -c "import numpy as np,sys; np.save(sys.argv[1], np.arange(16, dtype=np.float32) - 4)" %t.x.npy
// RUN: rm -rf %t.out
// RUN: ulimit -v 524288 && accel-run %t.bin --hw %S/Inputs/hw-huge-dram.json --no-validate --input x=%t.x.npy --output-dir %t.out --quiet
// RUN: %python -c "import numpy as np,sys; print('y', np.load(sys.argv[1]).tolist()); print('z', np.load(sys.argv[2]).tolist())" %t.out/y.npy %t.out/z.npy | FileCheck %s
// CHECK: y [-4.0, -3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]
// CHECK: z [0.0, 0.0, 0.0, 0.0]

isa.program grid(2 x 2) dram 17592186044416 hw 0 {
  isa.io input "x" at 17592186044352 : tensor<16xf32>
  isa.io output "y" at 0 : tensor<16xf32>
  isa.io output "z" at 8796093022208 : tensor<4xf32>
  isa.cluster(0, 0) {
    isa.dma dram_copy tag 0 src 17592186044352 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [0]
  }
  isa.cluster(0, 1) {
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
