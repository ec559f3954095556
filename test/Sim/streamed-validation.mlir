// accel-run checks the command streams on a thread of its own while the
// simulator runs the commands already checked (docs/simulator.md, "Eleventh
// round"). An invalid program still reports validateProgram's message and
// writes nothing, whatever else is wrong with the run; the violation here
// is in cluster (0,1)'s stream, which the checker reaches after the
// simulator has started.
//
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: %python -c "import struct,sys; h=\"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4, 5), }\"; h=h+' '*(63-(10+len(h))%%64)+'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+struct.pack('<60f',*[i-30 for i in range(60)]))" %t.x.npy
// RUN: rm -rf %t.out
// RUN: not accel-run %t.bin --input x=%t.x.npy --output-dir %t.out 2>&1 | FileCheck %s
// RUN: not ls %t.out
// RUN: not accel-run %t.bin --input x=%t.x.npy --data-lanes 2 --output-dir %t.out 2>&1 | FileCheck %s
// RUN: not accel-run %t.bin --input x=%t.x.npy --stream --output-dir %t.out 2>&1 | FileCheck %s
// A missing input file and an unknown input, read while the streams are
// checked: the program's violation is still the one reported, as when the
// check came first.
// RUN: not accel-run %t.bin --input x=%t.nonexistent.npy 2>&1 | FileCheck %s
// RUN: not accel-run %t.bin --input x=%t.x.npy --input z=%t.x.npy 2>&1 | FileCheck %s
// CHECK: accel-run: error: {{.*}}.bin: invalid program for hardware 'default': cluster (0,1) command 0 (DMA): source box [8192, 8432) outside DRAM [0, 4096)
// CHECK-NOT: error
//
// Without validation the simulator's own check of the access stops it.
// RUN: not accel-run %t.bin --input x=%t.x.npy --no-validate 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: accel-run: error: cluster (0,1) command 0 (DMA): source box [8192, 8432) outside DRAM [0, 4096)

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.io input "x" at 0 : tensor<3x4x5xf32>
  isa.io output "y" at 1024 : tensor<3x4x5xf32>
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
  }
  isa.cluster(0, 1) {
    isa.dma load tag 0 src 8192 dst 0 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [0]
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
