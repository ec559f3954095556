// accel-run --strict-hazards turns a timing hazard (a missing WAIT or
// BARRIER) into an error. Functional execution follows program order, so a
// program that forgets a WAIT still computes the right numbers: only strict
// mode makes a numeric test fail. The program below is correct: cluster
// (0,0) computes y = relu(x); cluster (1,1) copies y to z after barrier 0
// (its first DMA only delays it, so that its load of y would overlap the
// store of y without the barrier). sed removes one synchronisation at a time.
//
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: accel-run %t.bin --strict-hazards --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect y=%onnx_data/node/test_relu/test_data_set_0/output_0.pb \
// RUN:   --expect z=%onnx_data/node/test_relu/test_data_set_0/output_0.pb 2>&1 | FileCheck %s --check-prefix=OK
// OK-NOT: hazard
// OK: y matches the reference
// OK: z matches the reference
//
// No WAIT between the DMA load of x and the EXECUTE that reads it: without
// --strict-hazards the result is right and the hazard only a warning.
// RUN: sed '/isa.wait tags \[0\]/d' %s | accel-translate --isa-to-binary -o %t.nowait.bin
// RUN: accel-run %t.nowait.bin --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect y=%onnx_data/node/test_relu/test_data_set_0/output_0.pb 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: accel-run: warning: hazard: cluster (0,0) command 2 (EXECUTE ibuf 0 instruction 0) reads the storage unit of cluster (0,0) bytes [0, 240) at cycle {{[0-9]+}} while cluster (0,0) command 0 (DMA load tag 0) writes bytes [0, 240) until cycle {{[0-9]+}} (missing WAIT or BARRIER?)
// WARN: y matches the reference
// RUN: not accel-run %t.nowait.bin --strict-hazards --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect y=%onnx_data/node/test_relu/test_data_set_0/output_0.pb 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: accel-run: error: hazard: cluster (0,0) command 2 (EXECUTE ibuf 0 instruction 0) reads the storage unit of cluster (0,0) bytes [0, 240) {{.*}}(DMA load tag 0) writes {{.*}}(missing WAIT or BARRIER?)
// NOWAIT-NOT: matches the reference
//
// No WAIT for the PE array before the DMA store of its result.
// RUN: sed '/isa.wait tags \[\] pe/d' %s | accel-translate --isa-to-binary -o %t.nope.bin
// RUN: not accel-run %t.nope.bin --strict-hazards --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOPE
// NOPE: accel-run: error: hazard: cluster (0,0) command 4 (DMA store tag 1) reads the storage unit of cluster (0,0) bytes [1024, 1264) {{.*}}(EXECUTE ibuf 0 instruction 2) writes {{.*}}(missing WAIT or BARRIER?)
//
// No BARRIER: cluster (1,1) loads y from DRAM while cluster (0,0) stores it.
// RUN: sed '/isa.barrier/d' %s | accel-translate --isa-to-binary -o %t.nobar.bin
// RUN: not accel-run %t.nobar.bin --strict-hazards --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOBAR
// (All of x, y and z lie in channel 0's region, so both clusters' DMAs queue
// on channel 0: the store is issued first, the load while it is in flight.)
// NOBAR: accel-run: error: hazard: cluster (1,1) command 2 (DMA load tag 3) reads DRAM bytes [1024, 1264) {{.*}}cluster (0,0) command 5 (DMA store tag 1) writes bytes [1024, 1264) {{.*}}(missing WAIT or BARRIER?)
//
// The same with four data lanes (docs/simulator.md, "Eighth round"): the
// clusters' bytes move on their own host threads, the result and the first
// hazard are the same, and a run that stops there stops cleanly.
// RUN: accel-run %t.bin --strict-hazards --data-lanes 4 --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect y=%onnx_data/node/test_relu/test_data_set_0/output_0.pb \
// RUN:   --expect z=%onnx_data/node/test_relu/test_data_set_0/output_0.pb 2>&1 | FileCheck %s --check-prefix=OK
// RUN: not accel-run %t.nobar.bin --strict-hazards --data-lanes 4 --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOBAR

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.io input "x" at 0 : tensor<3x4x5xf32>
  isa.io output "y" at 1024 : tensor<3x4x5xf32>
  isa.io output "z" at 2048 : tensor<3x4x5xf32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [0]
    isa.config ibuf 0 {
      isa.ld acts slot 0 <rows = 12, cols = 5, row_stride = 5, pe_rows = 3>
      isa.spu unary in 0 out 1 <rows = 12, cols = 5, pe_rows = 3, func = relu>
      isa.st inbuf slot 1 acc 0 <addr = 1024, rows = 12, cols = 5, row_stride = 5, pe_rows = 3>
    }
    isa.execute ibuf 0 last
    isa.wait tags [] pe
    isa.dma store tag 1 src 1024 dst 1024 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [1]
    isa.barrier 0
  }
  isa.cluster(0, 1) {
    isa.barrier 0
  }
  isa.cluster(1, 0) {
    isa.barrier 0
  }
  isa.cluster(1, 1) {
    isa.dma load tag 2 src 0 dst 1024 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [2]
    isa.barrier 0
    isa.dma load tag 3 src 1024 dst 0 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [3]
    isa.dma store tag 4 src 0 dst 2048 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [4]
  }
}
