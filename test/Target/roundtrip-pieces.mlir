// DRAM pieces of I/O tensors and replicas of constant data survive ISA text
// -> binary -> ISA text exactly (canonical text) and binary -> text ->
// binary byte for byte; a dense tensor and a segment with one copy print
// neither. The generic form spells the pieces as #isa.piece attributes and
// reads back to the same program.
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: accel-translate --binary-to-isa %t.bin | FileCheck %s
// RUN: accel-opt %s -o %t.canonical.mlir
// RUN: accel-translate --binary-to-isa %t.bin -o %t.disassembled.mlir
// RUN: diff -I "^ *$" %t.canonical.mlir %t.disassembled.mlir
// RUN: accel-translate --isa-to-binary %t.disassembled.mlir -o %t.again.bin
// RUN: %python -c "import sys; a=open(sys.argv[1],'rb').read(); b=open(sys.argv[2],'rb').read(); sys.exit(0 if a==b else 1)" %t.bin %t.again.bin
// RUN: accel-opt --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: accel-opt --mlir-print-op-generic %s | accel-opt -o %t.from-generic.mlir
// RUN: diff %t.canonical.mlir %t.from-generic.mlir
//
// The binary: the SYMB record of "x" ends with 3 pieces, the first CNST
// segment has 2 replica addresses after its address.
// RUN: %python -c "import struct,sys; b=open(sys.argv[1],'rb').read(); p=64+16+4; n=struct.unpack_from('<H',b,p)[0]; q=p+2+n+4+8+8; print(b[p+2:p+2+n].decode(), struct.unpack_from('<I',b,q)[0], struct.unpack_from('<3Q',b,q+4+24)); s=64+16+struct.unpack_from('<Q',b,72)[0]; print(struct.unpack_from('<IQI2Q',b,s+16))" %t.bin | FileCheck %s --check-prefix=BYTES
// BYTES: x 3 (0, 64, 524288)
// BYTES-NEXT: (2, 12288, 2, 536576, 540672)

// CHECK-LABEL: isa.program grid(1 x 2) dram 1048576 hw 0 {
// CHECK-NEXT:    isa.io input "x" at 0 pieces {{\[}}[0, 64) at 0, [0, 64) at 524288, [64, 128) at 524352] : tensor<32xf32>
// CHECK-NEXT:    isa.io output "y" at 4096 pieces {{\[}}[0, 64) at 4096, [64, 128) at 528384] : tensor<32xf32>
// CHECK-NEXT:    isa.io output "z" at 8192 : tensor<4xf32>
// CHECK-NEXT:    isa.data at 12288 replicas [536576, 540672] = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    isa.data at 16384 = dense<[1, 2, 3]> : tensor<3xi8>
// CHECK-NEXT:    isa.cluster(0, 0) {
// CHECK:         isa.cluster(0, 1) {

// GENERIC: "isa.io"() <{addr = 0 : i64, kind = #isa<io_kind input>, pieces = [#isa.piece<offset = 0, bytes = 64, addr = 0>, #isa.piece<offset = 0, bytes = 64, addr = 524288>, #isa.piece<offset = 64, bytes = 64, addr = 524352>], sym_name = "x", type = tensor<32xf32>}> : () -> ()
// GENERIC: "isa.io"() <{addr = 8192 : i64, kind = #isa<io_kind output>, sym_name = "z", type = tensor<4xf32>}> : () -> ()
// GENERIC: "isa.data"() <{addr = 12288 : i64, replicas = array<i64: 536576, 540672>, value = dense<{{.*}}> : tensor<4xf32>}> : () -> ()

isa.program grid(1 x 2) dram 1048576 hw 0 {
  isa.io input "x" at 0 pieces [[0, 64) at 0, [0, 64) at 524288,
                                [64, 128) at 524352] : tensor<32xf32>
  isa.io output "y" at 4096 pieces [[0, 64) at 4096, [64, 128) at 528384]
      : tensor<32xf32>
  isa.io output "z" at 8192 : tensor<4xf32>
  isa.data at 12288 replicas [536576, 540672] = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  isa.data at 16384 = dense<[1, 2, 3]> : tensor<3xi8>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [0]
    isa.dma store tag 1 src 0 dst 4096 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [1]
  }
  isa.cluster(0, 1) {
    isa.dma load tag 0 src 524352 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [0]
    isa.dma store tag 1 src 0 dst 528384 shape [16] src_strides [1] dst_strides [1]
    isa.dma load tag 2 src 540672 dst 64 shape [4] src_strides [1] dst_strides [1]
    isa.wait tags [1, 2]
    isa.dma store tag 3 src 64 dst 8192 shape [4] src_strides [1] dst_strides [1]
    isa.wait tags [3]
  }
}
