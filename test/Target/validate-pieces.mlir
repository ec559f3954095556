// validateProgram (accel-translate --hw) on DRAM pieces and constant
// replicas: the program below (on the default 2x2 machine, "x" with two
// copies of its first half, one in each channel region, "y" in two halves
// and an unread second copy of its first half, "w" replicated in the second
// region) is valid; each variant breaks one rule and is refused with the
// symbol or segment named.
// RUN: accel-translate --isa-to-binary --hw=default %s -o %t.bin
// RUN: accel-translate --binary-to-isa --hw=default %t.bin -o /dev/null
//
// The symbol's address is its first piece's.
// RUN: sed -e 's/"x" at 0 pieces/"x" at 536870912 pieces/' %s > %t.addr.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.addr.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=ADDR
// ADDR: error: invalid program: symbol 'x': DRAM address 536870912 is not the address of its first piece (0)
//
// RUN: sed -e 's/\[64, 128) at 536870976/[64, 128) at 536870978/' %s > %t.align.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.align.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=ALIGN
// ALIGN: error: invalid program: symbol 'x': piece 2 (image bytes [64, 128) at 536870978): DRAM address 536870978 is not 4-byte aligned (symbols hold f32 words)
//
// RUN: sed -e 's/\[64, 128) at 536870976/[68, 128) at 536870976/' %s > %t.gap.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.gap.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=GAP
// GAP: error: invalid program: symbol 'x': image bytes [64, 68) are in no piece
//
// RUN: sed -e 's/\[64, 128) at 536871168/[64, 124) at 536871168/' %s > %t.short.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.short.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: invalid program: symbol 'y': image bytes [124, 128) are in no piece (shape [32])
//
// RUN: sed -e 's/\[64, 128) at 536871168/[64, 132) at 536871168/' %s > %t.image.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.image.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=IMAGE
// IMAGE: error: invalid program: symbol 'y': piece 2 (image bytes [64, 132) at 536871168) lies outside the image of 128 bytes (shape [32])
//
// RUN: sed -e 's/\[0, 64) at 536870912, \[64, 128) at 536870976/[64, 128) at 536870976, [0, 64) at 536870912/' %s > %t.order.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.order.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: invalid program: symbol 'x': piece 2 (image bytes [0, 64) at 536870912) starts before piece 1 (offset 64): pieces must be in ascending offset order
//
// Two pieces of one symbol share DRAM bytes.
// RUN: sed -e 's/\[64, 128) at 536870976/[64, 128) at 536870944/' %s > %t.self.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.self.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=SELF
// SELF: error: invalid program: symbol 'x' piece 1 [536870912, 536870976) overlaps symbol 'x' piece 2 [536870944, 536871008) in DRAM
//
// A replica inside a piece of "y", two replicas sharing bytes.
// RUN: sed -e 's/replicas \[536871936\]/replicas [536871200]/' %s > %t.rsym.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.rsym.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=RSYM
// RSYM: error: invalid program: symbol 'y' piece 2 [536871168, 536871232) overlaps constant segment 0 replica 0 [536871200, 536871216) in DRAM
// RUN: sed -e 's/replicas \[536871936\]/replicas [536871936, 536871944]/' %s > %t.rrep.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.rrep.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=RREP
// RREP: error: invalid program: constant segment 0 replica 0 [536871936, 536871952) overlaps constant segment 0 replica 1 [536871944, 536871960) in DRAM
//
// The second half of "y" is read from its only piece: without the store
// that writes it the output disagrees with the program.
// RUN: sed -e '/dst 536871168/d' %s > %t.unwritten.mlir
// RUN: not accel-translate --isa-to-binary --hw=default %t.unwritten.mlir -o %t.x 2>&1 | FileCheck %s --check-prefix=UNWRITTEN
// UNWRITTEN: error: invalid program: output 'y': piece 2 (image bytes [64, 128) read at [536871168, 536871232)) disagrees with the program: no command writes bytes [536871168, 536871232)

isa.program grid(2 x 2) dram 536875008 hw -5845083677414689407 {
  isa.io input "x" at 0 pieces [[0, 64) at 0, [0, 64) at 536870912, [64, 128) at 536870976] : tensor<32xf32>
  isa.io output "y" at 256 pieces [[0, 64) at 256, [0, 64) at 536871424, [64, 128) at 536871168] : tensor<32xf32>
  isa.data at 1024 replicas [536871936] = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [0]
    isa.dma store tag 1 src 0 dst 256 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [1]
  }
  isa.cluster(0, 1) {
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
    isa.dma load tag 0 src 536870976 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.dma load tag 1 src 536871936 dst 64 shape [4] src_strides [1] dst_strides [1]
    isa.wait tags [0, 1]
    isa.dma store tag 2 src 0 dst 536871168 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [2]
  }
}
