// ISA text -> binary -> ISA text is the identity on canonical text, and
// binary -> text -> binary is the identity on bytes.
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: accel-translate --binary-to-isa %t.bin | FileCheck %s
// RUN: accel-opt %s -o %t.canonical.mlir
// RUN: accel-translate --binary-to-isa %t.bin -o %t.disassembled.mlir
// RUN: diff -I "^ *$" %t.canonical.mlir %t.disassembled.mlir
// RUN: accel-translate --isa-to-binary %t.disassembled.mlir -o %t.again.bin
// RUN: %python -c "import sys; a=open(sys.argv[1],'rb').read(); b=open(sys.argv[2],'rb').read(); sys.exit(0 if a==b else 1)" %t.bin %t.again.bin

// CHECK-LABEL: isa.program grid(1 x 2) dram 1048576 hw -81985529216486896 {
// CHECK-NEXT:    isa.io input "x" at 0 : tensor<4x8xf32>
// CHECK-NEXT:    isa.io output "y" at 128 : tensor<4x8xf32>
// CHECK-NEXT:    isa.data at 4096 = dense<[1.000000e+00, -2.500000e+00, 0x7FC00001, 0.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    isa.data at 8192 = dense<[1, -2, 3]> : tensor<3xi8>
// CHECK-NEXT:    isa.cluster(0, 0) {
// CHECK-NEXT:      isa.dma load tag 1 src 0 dst 0 shape [4, 8] src_strides [8, 1] dst_strides [8, 1]
// CHECK-NEXT:      isa.wait tags [1] pe
// CHECK-NEXT:      isa.config ibuf 0 {
// CHECK-NEXT:        isa.ld acts slot 0 <rows = 4, cols = 8, row_stride = 8, pe_rows = 1>
// CHECK-NEXT:        isa.ld weights slot 0 <addr = 512, rows = 8, cols = 8, row_stride = 8, queue_mode = RQ>
// CHECK-NEXT:        isa.ld psums slot 3 <>
// CHECK-NEXT:        isa.mac slot 0 acc 1 load_balance sfu <rows = 4, cols = 8, depth = 8, repeat = 2, func = relu>
// CHECK-NEXT:        isa.st acc slot 0 acc 1 <addr = 1024, rows = 4, cols = 8, row_stride = 8, pe_rows = 1>
// CHECK-NEXT:        isa.spu binary in 1 out 2 <depth = 3, func = add>
// CHECK-NEXT:        isa.spu copy in 15 out 14 <func = scale, imm = 5.000000e-01 : f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      isa.execute ibuf 0 shift last patches [#isa.patch<0, addr, 64>, #isa.patch<4, rows, 2>]
// CHECK-NEXT:      isa.execute ibuf 0
// CHECK-NEXT:      isa.dma store tag 7 src 1024 dst 128 shape [2, 3, 4, 8] src_strides [0, -8, 8, 1] dst_strides [1, 2, 8, 1] {elem_bytes = 2 : i32}
// CHECK-NEXT:      isa.dma dram_copy tag 0 src 4096 dst 8192 shape [16] src_strides [1] dst_strides [1] {elem_bytes = 1 : i32}
// CHECK-NEXT:      isa.barrier 5
// CHECK-NEXT:    }
// CHECK-NEXT:    isa.cluster(0, 1) {
// CHECK-NEXT:      isa.barrier 5
// CHECK-NEXT:    }
// CHECK-NEXT:  }

isa.program grid(1 x 2) dram 1048576 hw -81985529216486896 {
  isa.io input "x" at 0 : tensor<4x8xf32>
  isa.io output "y" at 128 : tensor<4x8xf32>
  isa.data at 4096 = dense<[1.000000e+00, -2.500000e+00, 0x7FC00001, 0.000000e+00]> : tensor<4xf32>
  isa.data at 8192 = dense<[1, -2, 3]> : tensor<3xi8>
  isa.cluster(0, 0) {
    isa.dma load tag 1 src 0 dst 0 shape [4, 8] src_strides [8, 1] dst_strides [8, 1]
    isa.wait tags [1] pe
    isa.config ibuf 0 {
      isa.ld acts slot 0 <rows = 4, cols = 8, row_stride = 8, pe_rows = 1>
      isa.ld weights slot 0 <addr = 512, rows = 8, cols = 8, row_stride = 8, queue_mode = RQ>
      isa.ld psums slot 3 <>
      isa.mac slot 0 acc 1 load_balance sfu <rows = 4, cols = 8, depth = 8, repeat = 2, func = relu>
      isa.st acc slot 0 acc 1 <addr = 1024, rows = 4, cols = 8, row_stride = 8, pe_rows = 1>
      isa.spu binary in 1 out 2 <depth = 3, func = add>
      isa.spu copy in 15 out 14 <func = scale, imm = 5.000000e-01 : f32>
    }
    isa.execute ibuf 0 shift last patches [#isa.patch<0, addr, 64>, #isa.patch<4, rows, 2>]
    isa.execute ibuf 0
    isa.dma store tag 7 src 1024 dst 128 shape [2, 3, 4, 8] src_strides [0, -8, 8, 1] dst_strides [1, 2, 8, 1] {elem_bytes = 2 : i32}
    isa.dma dram_copy tag 0 src 4096 dst 8192 shape [16] src_strides [1] dst_strides [1] {elem_bytes = 1 : i32}
    isa.barrier 5
  }
  isa.cluster(0, 1) {
    isa.barrier 5
  }
}
