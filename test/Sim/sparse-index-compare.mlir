// Issue 5 end to end through the binary: sparse weights as (value, index)
// pairs (isa.data, f32 bit patterns and k*N+n indices as i32), the MAC's
// index compare with the activation bitmask, load balancing and the chained
// SFU (MAC sfu bit + ST relu). A = [[1,0,2,0],[0,0,0,0],[1,1,1,1],[0,3,0,0]]
// (one row per PE), W = 4x2 with (k0,n0) = 1, (k1,n1) = 2, (k2,n0) = 3:
// C = relu(A W) = [[7,0],[0,0],[4,2],[0,6]].
//
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: accel-translate --binary-to-isa %t.bin | FileCheck %s --check-prefix=DIS
// DIS: isa.ld sparse_weights slot 0 <addr = 2048, rows = 3, cols = 2, depth = 4>
// DIS: isa.mac slot 0 acc 0 load_balance sfu <rows = 4, cols = 2, pe_rows = 1, depth = 4>
// RUN: rm -rf %t.out
// RUN: accel-run %t.bin --strict-hazards --output-dir %t.out | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: sparsity: 26 MACs skipped (zero weights / activations), 1 moved by load balancing
// SUMMARY: output queue: 8 accesses, 8 drains (SFU results: 8 chained, 0 decoupled)
// RUN: %python -c "import struct,sys; b=open(sys.argv[1],'rb').read(); n=struct.unpack('<H',b[8:10])[0]; print(list(struct.unpack('<8f',b[10+n:])))" %t.out/y.npy | FileCheck %s --check-prefix=Y
// Y: [7.0, 0.0, 0.0, 0.0, 4.0, 2.0, 0.0, 6.0]
//
// Effective products per PE 2, 0, 3, 1 (of 4*4*2 = 32 dense); load
// balancing: PE 2 hands 1 to PE 1 (max 3 -> 2); chained: 8 results, one
// output-queue access each.
// RUN: %python -c "import json,sys; s=json.load(open(sys.argv[1])); print('macs', s['effective_macs'], s['skipped_macs'], s['balanced_macs']); q=s['output_queue']; print('oq', q['accesses'], q['drains'], q['chained_results'], q['decoupled_results'])" %t.out/stats.json | FileCheck %s --check-prefix=STATS
// STATS: macs 6 26 1
// STATS-NEXT: oq 8 8 8 0
//
// With four data lanes the sparse list's load and the index-compare MAC
// read simulated values, so the simulator waits for the lanes there
// (docs/simulator.md, "Eighth round"): the same sparsity and result.
// RUN: rm -rf %t.lanes
// RUN: accel-run %t.bin --strict-hazards --data-lanes 4 --output-dir %t.lanes | FileCheck %s --check-prefix=SUMMARY
// RUN: cmp %t.out/y.npy %t.lanes/y.npy

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.io output "y" at 1024 : tensor<4x2xf32>
  isa.data at 0 = dense<[1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 0.0]> : tensor<16xf32>
  isa.data at 2048 = dense<[1065353216, 0, 1073741824, 3, 1077936128, 4]> : tensor<6xi32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.dma load tag 0 src 2048 dst 2048 shape [6] src_strides [1] dst_strides [1]
    isa.wait tags [0]
    isa.config ibuf 0 {
      isa.ld acts slot 0 <rows = 4, cols = 4, row_stride = 4, pe_rows = 1>
      isa.ld sparse_weights slot 0 <addr = 2048, rows = 3, cols = 2, depth = 4>
      isa.mac slot 0 acc 0 load_balance sfu <rows = 4, cols = 2, pe_rows = 1, depth = 4>
      isa.st acc slot 0 acc 0 <addr = 1024, rows = 4, cols = 2, row_stride = 2, pe_rows = 1, func = relu>
    }
    isa.execute ibuf 0 shift last
    isa.wait tags [] pe
    isa.dma store tag 1 src 1024 dst 1024 shape [8] src_strides [1] dst_strides [1]
    isa.wait tags [1]
  }
  isa.cluster(0, 1) {
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
