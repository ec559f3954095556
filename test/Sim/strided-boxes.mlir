// The hazard check compares the bytes of strided DMA boxes, not only their
// bounding ranges. Cluster (0,0) overwrites columns 0..4 of the 12 x 10
// matrix m while cluster (0,1), with no synchronisation, copies columns
// 5..9 of m to z. The two boxes' bounding ranges overlap ([0, 460) and
// [20, 480)) but no byte is shared: no hazard, and z is m's right half.
// (BERT's output GEMM on hw/large.json, whose 16 clusters write 64-column
// blocks of one matrix, was reported as hazardous before.) Cluster (0,1)'s
// first DMA only delays its read of m into the window of (0,0)'s store.
//
// RUN: %python -c "import numpy as np; np.save('%t.m.npy', np.arange(120, dtype=np.float32).reshape(12, 10)); np.save('%t.x.npy', -np.arange(1, 61, dtype=np.float32).reshape(12, 5))"
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: rm -rf %t.out && accel-run %t.bin --strict-hazards --input m=%t.m.npy --input x=%t.x.npy --output-dir %t.out 2>&1 | FileCheck %s --check-prefix=OK
// OK-NOT: hazard
// OK: z [12, 5] -> {{.*}}z.npy
// RUN: %python -c "import numpy as np; m = np.load('%t.m.npy'); z = np.load('%t.out/z.npy'); assert (z == m[:, 5:]).all(), z"
//
// With cluster (0,1) reading columns 4..8 instead, column 4 is written and
// read at once: a hazard.
// RUN: sed 's/src 20 dst 0/src 16 dst 0/' %s | accel-translate --isa-to-binary -o %t.overlap.bin
// RUN: not accel-run %t.overlap.bin --strict-hazards --input m=%t.m.npy --input x=%t.x.npy 2>&1 | FileCheck %s --check-prefix=OVERLAP
// OVERLAP: accel-run: error: hazard: cluster (0,1) command 2 (DMA load tag 0) reads DRAM bytes [16, 476) at cycle {{[0-9]+}} while cluster (0,0) command 2 (DMA store tag 1) writes bytes [0, 460) {{.*}}(missing WAIT or BARRIER?)

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.io input "m" at 0 : tensor<12x10xf32>
  isa.io input "x" at 512 : tensor<12x5xf32>
  isa.io output "z" at 1024 : tensor<12x5xf32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 512 dst 0 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [0]
    isa.dma store tag 1 src 0 dst 0 shape [12, 5] src_strides [5, 1] dst_strides [10, 1]
    isa.wait tags [1]
  }
  isa.cluster(0, 1) {
    isa.dma load tag 2 src 512 dst 1024 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [2]
    isa.dma load tag 0 src 20 dst 0 shape [12, 5] src_strides [10, 1] dst_strides [5, 1]
    isa.wait tags [0]
    isa.dma store tag 1 src 0 dst 1024 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [1]
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
