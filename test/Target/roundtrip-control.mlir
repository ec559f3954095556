// Issue 5: every new field of the operand record (sparse weights, index
// compare base, scalar-unit step, pipeline type, queue modes, decoupled
// cross-PE reduce, compiler-precomputed per-PE addresses, base patches)
// survives text -> binary -> text and binary -> text -> binary.
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: accel-translate --binary-to-isa %t.bin | FileCheck %s
// RUN: accel-opt %s -o %t.canonical.mlir
// RUN: accel-translate --binary-to-isa %t.bin -o %t.disassembled.mlir
// RUN: diff -I "^ *$" %t.canonical.mlir %t.disassembled.mlir
// RUN: accel-translate --isa-to-binary %t.disassembled.mlir -o %t.again.bin
// RUN: %python -c "import sys; a=open(sys.argv[1],'rb').read(); b=open(sys.argv[2],'rb').read(); sys.exit(0 if a==b else 1)" %t.bin %t.again.bin

// CHECK-LABEL: isa.program grid(1 x 1) dram 1024 hw 0 {
// CHECK:      isa.config ibuf 0 {
// CHECK-NEXT:   isa.ld acts slot 0 <cols = 8, queue_mode = SW, step = 8, pipeline = 2, pe_addrs = [0, 16]>
// CHECK-NEXT:   isa.ld sparse_weights slot 0 <addr = 512, rows = 3, cols = 2, depth = 4, queue_mode = RQ>
// CHECK-NEXT:   isa.mac slot 0 acc 0 load_balance sfu <rows = 4, cols = 2, row_stride = 2, pe_rows = 2, depth = 2, repeat = 3, queue_mode = RQ, base = 2, step = 2, pipeline = 2>
// CHECK-NEXT:   isa.spu reduce in 0 out 1 <rows = 4, cols = 2, pe_rows = 2, func = max, across_pes = true>
// CHECK-NEXT:   isa.st acc slot 0 acc 0 <addr = 256, rows = 4, cols = 2, row_stride = 2, func = relu, step = -16, pipeline = 2>
// CHECK-NEXT: }
// CHECK-NEXT: isa.execute ibuf 0 last patches [#isa.patch<2, base, 0>]
isa.program grid(1 x 1) dram 1024 hw 0 {
  isa.cluster(0, 0) {
    isa.config ibuf 0 {
      isa.ld acts slot 0 <rows = 1, cols = 8, queue_mode = SW, pipeline = 2, step = 8, pe_addrs = [0, 16]>
      isa.ld sparse_weights slot 0 <addr = 512, rows = 3, cols = 2, depth = 4, queue_mode = RQ>
      isa.mac slot 0 acc 0 load_balance sfu <rows = 4, cols = 2, row_stride = 2, pe_rows = 2, depth = 2, repeat = 3, queue_mode = RQ, base = 2, step = 2, pipeline = 2>
      isa.spu reduce in 0 out 1 <rows = 4, cols = 2, pe_rows = 2, func = max, across_pes = true>
      isa.st acc slot 0 acc 0 <addr = 256, rows = 4, cols = 2, row_stride = 2, func = relu, step = -16, pipeline = 2>
    }
    isa.execute ibuf 0 last patches [#isa.patch<2, base, 0>]
  }
}
