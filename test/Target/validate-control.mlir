// validateProgram (accel-translate --hw) on the issue-5 operand fields.
// RUN: not accel-translate --isa-to-binary --hw=default %s -o %t.bin 2>&1 | FileCheck %s
// CHECK: error: invalid program: cluster (0,0) command 0 (CONFIG ibuf 0): instruction 0 (LD): peAddrs holds 2 addresses, the cluster has 4 PEs
//
// The scalar unit walks the address past the storage unit in the third
// loop-back iteration: the validator checks the last iteration.
// RUN: sed -e 's/pe_addrs = \[0, 16\]/step = 262144, pipeline = 2, repeat = 3/' %s > %t.step.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.step.mlir -o %t.bin 2>&1 | FileCheck %s --check-prefix=STEP
// STEP: error: invalid program: cluster (0,0) command 1 (EXECUTE ibuf 0): instruction 0 (LD): storage tile [524288, 524320) outside the storage unit [0, 524288)

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      isa.ld acts slot 0 <cols = 8, pe_addrs = [0, 16]>
    }
    isa.execute ibuf 0 last
  }
  isa.cluster(0, 1) {
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
