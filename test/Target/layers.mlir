// The layer table (isa.program `layers`, #isa.layer) and the commands'
// `layer N` survive ISA -> binary (format 5: LAYR section, a layer id per
// command) -> ISA unchanged; a command without a layer keeps none.
// RUN: accel-translate --isa-to-binary --hw=default %s -o %t.bin
// RUN: accel-translate --binary-to-isa --hw=default %t.bin | FileCheck %s
// RUN: accel-opt %s | accel-opt | FileCheck %s
// CHECK:      isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 layers [
// CHECK-NEXT:   #isa.layer<name = "/stem/conv1/Conv", op = "Conv", macs = 1024, compulsory_bytes = 320, weight_bytes = 64, fused = ["/stem/bn1/BatchNormalization", "/stem/relu1/Relu"]>,
// CHECK-NEXT:   #isa.layer<name = "out_copy", op = "output copy">
// CHECK-NEXT: ] {
// CHECK:      isa.config ibuf 0 layer 0 {
// CHECK:      isa.execute ibuf 0 last layer 0{{$}}
// CHECK-NEXT: isa.dma load tag 1 src 0 dst 0 shape [16] src_strides [1] dst_strides [1] layer 1{{$}}
// CHECK-NEXT: isa.wait tags [1] pe{{$}}
// CHECK-NEXT: isa.barrier 0 layer 1{{$}}
//
// A layer id the table does not have: the validator names the cluster and
// the command; without --hw the ISA verifier refuses it.
// RUN: %python %S/Inputs/set_layer_id.py %t.bin %t.bad 0 0 5
// RUN: not accel-translate --binary-to-isa --hw=default %t.bad 2>&1 | FileCheck %s --check-prefix=VALIDATE
// VALIDATE: error: invalid program: cluster (0,0) command 0 (CONFIG ibuf 0): layer 5 is out of range: the layer table has 2 entries
// RUN: not accel-translate --binary-to-isa %t.bad 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: error: 'isa.config' op layer 5 is out of range: the program's layer table has 2 entries
//
// Layer id "none" (0xFFFFFFFF) is no layer.
// RUN: %python %S/Inputs/set_layer_id.py %t.bin %t.none 0 0 4294967295
// RUN: accel-translate --binary-to-isa --hw=default %t.none | FileCheck %s --check-prefix=NONE
// NONE: isa.config ibuf 0 {

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 layers [
  #isa.layer<name = "/stem/conv1/Conv", op = "Conv", macs = 1024, compulsory_bytes = 320, weight_bytes = 64, fused = ["/stem/bn1/BatchNormalization", "/stem/relu1/Relu"]>,
  #isa.layer<name = "out_copy", op = "output copy">
] {
  isa.cluster(0, 0) {
    isa.config ibuf 0 layer 0 {
      isa.ld acts slot 0 <cols = 8>
    }
    isa.execute ibuf 0 last layer 0
    isa.dma load tag 1 src 0 dst 0 shape [16] src_strides [1] dst_strides [1] layer 1
    isa.wait tags [1] pe
    isa.barrier 0 layer 1
  }
  isa.cluster(0, 1) {
    isa.barrier 0 layer 1
  }
  isa.cluster(1, 0) {
    isa.barrier 0 layer 1
  }
  isa.cluster(1, 1) {
    isa.barrier 0 layer 1
  }
}
