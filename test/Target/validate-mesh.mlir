// validateProgram (accel-translate --hw) on the mesh and semaphore commands:
// the program below (a producer / consumer exchange on the default 2x2
// machine) is valid; each variant breaks one rule and is refused at load
// time with a message naming the cluster, the command and the semaphore.
// RUN: accel-translate --isa-to-binary --hw=default %s -o %t.bin
// RUN: accel-translate --binary-to-isa --hw=default %t.bin -o /dev/null
//
// A RECV waits for more arrivals than SEND / SIGNAL deliver.
// RUN: sed -e 's/recv sem 0 count 2/recv sem 0 count 3/' %s > %t.more.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.more.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=MORE
// MORE: error: invalid program: cluster (1,1) RECV sem 0 waits for 3 arrivals but only 2 SEND/SIGNAL target it (command 0 is the first RECV that can never complete)
//
// A SIGNAL nobody receives.
// RUN: sed -e 's/isa.signal to \[(1, 1)\] sem 0/isa.signal to [(1, 0), (1, 1)] sem 0/' %s > %t.extra.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.extra.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: error: invalid program: cluster (0,1) command 1 (SIGNAL): SEND/SIGNAL to (1,0) sem 0 never received: 1 arrival but the RECVs of cluster (1,0) take 0
//
// Counts agree but the order deadlocks: (0,0) waits for (1,1)'s answer
// before it sends what (1,1) waits for.
// RUN: sed -e '/\/\/ answer/d' -e 's|^\(    isa.send .*\) // first$|    isa.recv sem 3 count 1\n\1|' %s > %t.order.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.order.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: invalid program: cluster (0,0) command 2 RECV sem 3 can never complete: the semaphore holds 0 of 1 and no cluster can still signal it (also blocked: cluster (0,1) command 0 RECV sem 0; cluster (1,1) command 0 RECV sem 0)
//
// A barrier on the wrong side of a wait: (1,1) reaches barrier 7 only after
// its RECV, but (0,1) sends the SIGNAL it waits for after the barrier.
// RUN: sed -e '/^  isa.cluster(0, 1)/,/^  }$/!s/^  }$/    isa.barrier 7\n  }/' -e 's/^    isa.signal to \[(1, 1)\] sem 0$/    isa.barrier 7\n&/' %s > %t.barrier.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.barrier.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER: error: invalid program: cluster (0,0) command 4 RECV sem 3 can never complete: the semaphore holds 0 of 1 and no cluster can still signal it (also blocked: cluster (0,1) command 1 BARRIER 7; cluster (1,0) command 0 BARRIER 7; cluster (1,1) command 0 RECV sem 0)
//
// Targets and ranges.
// RUN: sed -e 's/dst 1024 bytes 64/dst 524288 bytes 64/' %s > %t.dst.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.dst.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=DST
// DST: error: invalid program: cluster (0,0) command 2 (SEND): destination bytes [524288, 524352) outside the storage unit [0, 524288)
// RUN: sed -e 's/src 1024 dst 2048 shape \[16\]/src 524280 dst 2048 shape [16]/' %s > %t.remote.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.remote.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=REMOTE
// REMOTE: error: invalid program: cluster (1,1) command 1 (DMA): source box [524280, 524344) outside the storage unit [0, 524288)

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.io input "x" at 0 : tensor<16xf32>
  isa.io output "y" at 64 : tensor<16xf32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [0]
    isa.send src 0 dst 1024 bytes 64 to [(0, 1), (1, 1)] sem 0 tag 1 // first
    isa.wait tags [1]
    isa.recv sem 3 count 1 // answer
  }
  isa.cluster(0, 1) {
    isa.recv sem 0 count 1
    isa.signal to [(1, 1)] sem 0
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
    isa.recv sem 0 count 2
    isa.dma remote_load from (0, 1) tag 3 src 1024 dst 2048 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [3]
    isa.dma store tag 4 src 2048 dst 64 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [4]
    isa.signal to [(0, 0)] sem 3
  }
}
