// accel-run end to end: an ISA program (relu of a 3x4x5 tensor on cluster
// (0,0) of the default 2x2 machine, rows split over the 4 PEs) assembled with
// accel-translate, run on ONNX and .npy inputs, outputs compared with the
// ONNX reference, plus the tool's error paths.
//
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: rm -rf %t.out
// RUN: accel-run %t.bin --strict-hazards --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect y=%onnx_data/node/test_relu/test_data_set_0/output_0.pb \
// RUN:   --output-dir %t.out --trace %t.trace.json | FileCheck %s --check-prefix=RUN1
// RUN1: hardware: default (2x2 clusters x 4 PEs x 64 MAC lanes)
// RUN1: outputs:
// RUN1-NEXT: y [3, 4, 5] -> {{.*}}.out/y.npy
// RUN1: cycles: [[CYCLES:[0-9]+]]
// RUN1: DRAM: 240 B read, 240 B written
// RUN1: reference checks:
// RUN1-NEXT: y matches the reference (max abs error 0)
//
// The stats and the trace are JSON.
// RUN: %python -c "import json,sys; s=json.load(open(sys.argv[1])); t=json.load(open(sys.argv[2])); print('stats', s['cycles'], s['commands']['EXECUTE'], s['instructions']['SPU'], len(s['clusters']), s['hazards']['count']); print('trace', sum(e['ph'] == 'X' for e in t['traceEvents']) > 0)" %t.out/stats.json %t.trace.json | FileCheck %s --check-prefix=JSON
// JSON: stats {{[0-9]+}} 1 1 4 0
// JSON: trace True
//
// .npy input written without numpy; the output values are read back.
// RUN: %python -c "import struct,sys; h=\"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4, 5), }\"; h=h+' '*(63-(10+len(h))%%64)+'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+struct.pack('<60f',*[i-30 for i in range(60)]))" %t.x.npy
// RUN: accel-run %t.bin -i x=%t.x.npy -o %t.out2 --quiet
// RUN: %python -c "import struct,sys; b=open(sys.argv[1],'rb').read(); n=struct.unpack('<H',b[8:10])[0]; print(b[10:10+n].decode().strip()); print(list(struct.unpack('<60f',b[10+n:]))[28:33])" %t.out2/y.npy | FileCheck %s --check-prefix=NPY
// NPY: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4, 5), }
// NPY-NEXT: [0.0, 0.0, 0.0, 1.0, 2.0]
//
// Errors: exit status 1 and a message, never a crash.
// RUN: not accel-run %t.bin 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: accel-run: error: missing input 'x' (shape [3, 4, 5])
// RUN: not accel-run %t.bin --input x=%onnx_data/node/test_add_bcast/test_data_set_0/input_1.pb 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: accel-run: error: input 'x' has shape [5] but the program expects [3, 4, 5]
// RUN: not accel-run %t.bin --input x=%t.x.npy --input z=%t.x.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: accel-run: error: unknown input 'z' (program inputs: x)
// RUN: not accel-run %t.bin --input x=%t.nonexistent.npy 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: accel-run: error: input 'x': {{.*}}nonexistent.npy: cannot open file
// RUN: not accel-run %t.bin --hw %hw_dir/large.json --input x=%t.x.npy 2>&1 | FileCheck %s --check-prefix=HW
// HW: accel-run: error: {{.*}}.bin: invalid program for hardware 'large': the binary was compiled for another hardware description
// RUN: not accel-run %t.bin --hw %t.nonexistent.json 2>&1 | FileCheck %s --check-prefix=NOHW
// NOHW: accel-run: error: {{.*}}nonexistent.json: cannot open hardware description
// RUN: %python -c "import sys; b=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(b[:len(b)//2])" %t.bin %t.cut.bin
// RUN: not accel-run %t.cut.bin --input x=%t.x.npy 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: accel-run: error: {{.*}}cut.bin: binary:
// RUN: not accel-run %t.bin --input x=%t.x.npy --expect y=%t.x.npy 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: accel-run: error: output 'y' differs from the reference in 30 of 60 elements (max abs error 30 at flat index 0: 0 vs -30)
// RUN: not accel-run 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: usage: accel-run BINARY
// USAGE: accel-run: error: no binary given
// RUN: not accel-run %t.bin --bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// BOGUS: accel-run: error: unknown option '--bogus'

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
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
