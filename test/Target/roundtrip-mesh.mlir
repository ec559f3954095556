// SEND / SIGNAL / RECV, remote_load and constant packets survive ISA text ->
// binary -> ISA text exactly (canonical text), and binary -> text -> binary
// byte for byte. The program is also valid on the default 2x2 machine: a
// producer / consumer exchange with a multicast and a remote_load.
// RUN: accel-translate --isa-to-binary --hw=default %s -o %t.bin
// RUN: accel-translate --binary-to-isa --hw=default %t.bin | FileCheck %s
// RUN: accel-opt %s -o %t.canonical.mlir
// RUN: accel-translate --binary-to-isa %t.bin -o %t.disassembled.mlir
// RUN: diff -I "^ *$" %t.canonical.mlir %t.disassembled.mlir
// RUN: accel-translate --isa-to-binary %t.disassembled.mlir -o %t.again.bin
// RUN: %python -c "import sys; a=open(sys.argv[1],'rb').read(); b=open(sys.argv[2],'rb').read(); sys.exit(0 if a==b else 1)" %t.bin %t.again.bin
//
// The binary layout: format 5, 4 + 4 sections, the PCKT section third, the
// (empty) LAYR section fourth.
// RUN: %python -c "import struct,sys; b=open(sys.argv[1],'rb').read(); print(struct.unpack_from('<I', b, 8)[0], struct.unpack_from('<I', b, 48)[0]); s1=64+16+struct.unpack_from('<Q', b, 72)[0]; s2=s1+16+struct.unpack_from('<Q', b, s1+8)[0]; print(b[s2:s2+4].decode(), struct.unpack_from('<I', b, s2+16)[0]); s3=s2+16+struct.unpack_from('<Q', b, s2+8)[0]; print(b[s3:s3+4].decode(), struct.unpack_from('<I', b, s3+16)[0])" %t.bin | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: 5 8
// LAYOUT-NEXT: PCKT 2
// LAYOUT-NEXT: LAYR 0

// CHECK-LABEL: isa.program grid(2 x 2) dram 65536 hw -5845083677414689407 {
// CHECK-NEXT:    isa.io input "x" at 0 : tensor<16xf32>
// CHECK-NEXT:    isa.io output "y" at 64 : tensor<16xf32>
// CHECK-NEXT:    isa.data at 4096 = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    isa.packet cluster (0, 1) core 3 marker at 8192 = dense<[16, 8, 0, 8, 4096, 4104]> : tensor<6xi64> {
// CHECK-NEXT:      isa.block "w" at 4096 bytes 8
// CHECK-NEXT:      isa.block "b" at 4104 bytes 8
// CHECK-NEXT:    }
// CHECK-NEXT:    isa.packet cluster (1, 0) core 0 marker at 8240 = dense<[1, 2, 3]> : tensor<3xi8> {
// CHECK-NEXT:    }
// CHECK-NEXT:    isa.cluster(0, 0) {
// CHECK-NEXT:      isa.dma load tag 0 src 0 dst 0 shape [16] src_strides [1] dst_strides [1]
// CHECK-NEXT:      isa.wait tags [0]
// CHECK-NEXT:      isa.send src 0 dst 1024 bytes 64 to [(0, 1), (1, 0), (1, 1)] sem 0 tag 1
// CHECK-NEXT:      isa.wait tags [1]
// CHECK-NEXT:      isa.recv sem 3 count 1
// CHECK-NEXT:    }
// CHECK-NEXT:    isa.cluster(0, 1) {
// CHECK-NEXT:      isa.recv sem 0 count 1
// CHECK-NEXT:      isa.signal to [(1, 1)] sem 1
// CHECK-NEXT:    }
// CHECK-NEXT:    isa.cluster(1, 0) {
// CHECK-NEXT:      isa.recv sem 0 count 1
// CHECK-NEXT:      isa.signal to [(1, 1)] sem 2
// CHECK-NEXT:    }
// CHECK-NEXT:    isa.cluster(1, 1) {
// CHECK-NEXT:      isa.recv sem 0 count 1
// CHECK-NEXT:      isa.recv sem 1 count 1
// CHECK-NEXT:      isa.recv sem 2 count 1
// CHECK-NEXT:      isa.dma remote_load from (0, 1) tag 3 src 1024 dst 2048 shape [16] src_strides [1] dst_strides [1]
// CHECK-NEXT:      isa.wait tags [3]
// CHECK-NEXT:      isa.dma store tag 4 src 2048 dst 64 shape [16] src_strides [1] dst_strides [1]
// CHECK-NEXT:      isa.wait tags [4]
// CHECK-NEXT:      isa.signal to [(0, 0)] sem 3
// CHECK-NEXT:    }
// CHECK-NEXT:  }

isa.program grid(2 x 2) dram 65536 hw -5845083677414689407 {
  isa.io input "x" at 0 : tensor<16xf32>
  isa.io output "y" at 64 : tensor<16xf32>
  isa.data at 4096 = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  isa.packet cluster (0, 1) core 3 marker at 8192 = dense<[16, 8, 0, 8, 4096, 4104]> : tensor<6xi64> {
    isa.block "w" at 4096 bytes 8
    isa.block "b" at 4104 bytes 8
  }
  isa.packet cluster (1, 0) core 0 marker at 8240 = dense<[1, 2, 3]> : tensor<3xi8> {
  }
  // Cluster (0,0) loads x and multicasts it to the three others.
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [0]
    isa.send src 0 dst 1024 bytes 64 to [(0, 1), (1, 0), (1, 1)] sem 0 tag 1
    isa.wait tags [1]
    isa.recv sem 3 count 1
  }
  isa.cluster(0, 1) {
    isa.recv sem 0 count 1
    isa.signal to [(1, 1)] sem 1
  }
  isa.cluster(1, 0) {
    isa.recv sem 0 count 1
    isa.signal to [(1, 1)] sem 2
  }
  // Cluster (1,1) reads (0,1)'s copy once (0,1) says it is there.
  isa.cluster(1, 1) {
    isa.recv sem 0 count 1
    isa.recv sem 1 count 1
    isa.recv sem 2 count 1
    isa.dma remote_load from (0, 1) tag 3 src 1024 dst 2048 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [3]
    isa.dma store tag 4 src 2048 dst 64 shape [16] src_strides [1] dst_strides [1]
    isa.wait tags [4]
    isa.signal to [(0, 0)] sem 3
  }
}
