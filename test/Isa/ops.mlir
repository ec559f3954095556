// Every ISA op and attribute prints and parses back (custom and generic form).
// RUN: accel-opt %s | accel-opt | FileCheck %s
// RUN: accel-opt %s -mlir-print-op-generic | accel-opt | FileCheck %s

// CHECK-LABEL: isa.program grid(2 x 2) dram 1048576 hw 1234 {
isa.program grid(2 x 2) dram 1048576 hw 1234 {
  // CHECK: isa.io input "x" at 0 : tensor<4x8xf32>
  isa.io input "x" at 0 : tensor<4x8xf32>
  // CHECK: isa.io output "y" at 128 : tensor<2x2xi8>
  isa.io output "y" at 128 : tensor<2x2xi8>
  // CHECK: isa.data at 4096 = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  isa.data at 4096 = dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: isa.packet cluster (0, 1) core 2 marker at 8192 = dense<[3072, 2048]> : tensor<2xi64> {
  // CHECK-NEXT: isa.block "w" at 4096 bytes 8
  // CHECK-NEXT: isa.block "b" at 4100 bytes 4
  // CHECK-NEXT: }
  isa.packet cluster (0, 1) core 2 marker at 8192 = dense<[3072, 2048]> : tensor<2xi64> {
    isa.block "w" at 4096 bytes 8
    isa.block "b" at 4100 bytes 4
  }
  // CHECK: isa.packet cluster (1, 1) core 0 marker at 8208 = dense<> : tensor<0xi8> {
  isa.packet cluster (1, 1) core 0 marker at 8208 = dense<> : tensor<0xi8> {
  }
  // CHECK: isa.cluster(0, 0) {
  isa.cluster(0, 0) {
    // CHECK: isa.send src 0 dst 4096 bytes 1024 to [(0, 0), (0, 1), (1, 1)] sem 3 tag 1
    isa.send src 0 dst 4096 bytes 1024 to [(0, 0), (0, 1), (1, 1)] sem 3 tag 1
    // CHECK: isa.signal to [(1, 0)] sem 4095
    isa.signal to [(1, 0)] sem 4095
    // CHECK: isa.recv sem 0 count 2
    isa.recv sem 0 count 2
    // CHECK: isa.dma remote_load from (1, 1) tag 2 src 64 dst 128 shape [2, 16] src_strides [32, 1] dst_strides [16, 1]
    isa.dma remote_load from (1, 1) tag 2 src 64 dst 128 shape [2, 16] src_strides [32, 1] dst_strides [16, 1]
    // CHECK: isa.dma load tag 0 src 0 dst 0 shape [4, 8] src_strides [8, 1] dst_strides [8, 1]
    isa.dma load tag 0 src 0 dst 0 shape [4, 8] src_strides [8, 1] dst_strides [8, 1]
    // CHECK: isa.dma dram_copy tag 7 src 0 dst 64 shape [16] src_strides [-1] dst_strides [1] {elem_bytes = 1 : i32}
    isa.dma dram_copy tag 7 src 0 dst 64 shape [16] src_strides [-1] dst_strides [1] {elem_bytes = 1 : i32}
    // CHECK: isa.wait tags [0, 7] pe
    isa.wait tags [0, 7] pe
    // CHECK: isa.wait tags []
    isa.wait tags []
    // CHECK: isa.config ibuf 31 {
    isa.config ibuf 31 {
      // CHECK-NEXT: isa.ld acts slot 15 <addr = 64, rows = 4, cols = 8, row_stride = 8, pe_rows = 1>
      isa.ld acts slot 15 <addr = 64, rows = 4, cols = 8, row_stride = 8, pe_rows = 1>
      // CHECK-NEXT: isa.ld weights slot 0 <rows = 8, cols = 8, row_stride = 8, col_stride = 0, queue_mode = SW>
      isa.ld weights slot 0 <rows = 8, cols = 8, row_stride = 8, col_stride = 0, queue_mode = SW>
      // CHECK-NEXT: isa.ld psums slot 3 <>
      isa.ld psums slot 3 <>
      // CHECK-NEXT: isa.mac slot 15 acc 3 load_balance sfu <rows = 4, cols = 8, depth = 8, repeat = 4, func = relu>
      isa.mac slot 15 acc 3 load_balance sfu <rows = 4, cols = 8, depth = 8, repeat = 4, func = relu>
      // CHECK-NEXT: isa.mac slot 0 acc 0 <depth = 1>
      isa.mac slot 0 acc 0 <depth = 1>
      // CHECK-NEXT: isa.st acc slot 0 acc 2 <addr = 256, rows = 4, cols = 8, row_stride = 8>
      isa.st acc slot 0 acc 2 <addr = 256, rows = 4, cols = 8, row_stride = 8>
      // CHECK-NEXT: isa.st inbuf slot 9 acc 0 <func = scale, imm = 5.000000e-01 : f32>
      isa.st inbuf slot 9 acc 0 <func = scale, imm = 0.5 : f32>
      // CHECK-NEXT: isa.spu unary in 1 out 2 <func = relu>
      isa.spu unary in 1 out 2 <func = relu>
      // CHECK-NEXT: isa.spu binary in 1 out 2 <depth = 15, func = max>
      isa.spu binary in 1 out 2 <depth = 15, func = max>
      // CHECK-NEXT: isa.spu reduce in 0 out 0 <func = add>
      isa.spu reduce in 0 out 0 <func = add>
      // CHECK-NEXT: isa.spu copy in 3 out 4 <>
      isa.spu copy in 3 out 4 <>
    }
    // CHECK: isa.execute ibuf 31
    isa.execute ibuf 31
    // CHECK: isa.execute ibuf 31 shift last patches [#isa.patch<0, addr, 128>, #isa.patch<3, depth, 2>]
    isa.execute ibuf 31 shift last patches [#isa.patch<0, addr, 128>, #isa.patch<3, depth, 2>]
    // CHECK: isa.execute ibuf 0 last
    isa.execute ibuf 0 last
    // CHECK: isa.barrier 3
    isa.barrier 3
  }
  // CHECK: isa.cluster(1, 1) {
  isa.cluster(1, 1) {
  }
}
