// Per-layer statistics and the ideal bound through accel-run (docs/
// simulator.md "Per-layer statistics"). This ISA program has no layer table
// (hand-written), so every command is unattributed and the ideal bound comes
// from the symbols and constants: x and y are 60 f32 each (480 B), the
// constant segment 64 B (once: its replica is not counted); no MACs. Default machine: 2 channels x 64 B/cycle,
// so the bound is ceil(544 / 128) = ceil(4.25) = 5 cycles.
//
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: %python -c "import struct,sys; h=\"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4, 5), }\"; h=h+' '*(63-(10+len(h))%%64)+'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+struct.pack('<60f',*[i-30 for i in range(60)]))" %t.x.npy
// RUN: rm -rf %t.out
// RUN: accel-run %t.bin -i x=%t.x.npy -o %t.out --per-layer --trace %t.trace.json | FileCheck %s
// CHECK: cycles: [[C:[0-9]+]] (
// CHECK-NEXT: cycles [[C]], ideal bound 5 (C/B = {{[0-9]+\.[0-9][0-9]}}x)
// CHECK: per-layer: the program has no layer table (written by hand, or compiled without attribution)
// CHECK-NEXT: {{^}}layer op cycles share exclusive MACs util DRAM bytes bound ratio limit{{$}}
// CHECK-NEXT: {{^}}(unattributed) [[C]] 100.0% [[C]] 0 0.0% 480 - - dma {{[0-9]+}} %{{$}}
// CHECK-NEXT: simulated in
//
// --quiet keeps only the table.
// RUN: accel-run %t.bin -i x=%t.x.npy --per-layer --quiet | FileCheck %s --check-prefix=QUIET
// QUIET-NOT: cycles
// QUIET: per-layer: the program has no layer table
// QUIET-NEXT: layer
// QUIET-NEXT: (unattributed)
// QUIET-NOT: simulated
//
// stats.json: the network figures, an empty `layers` array (no table) and
// the unattributed row with every command; the trace has no layer track.
// RUN: %python -c "import json,sys; s=json.load(open(sys.argv[1])); u=s['unattributed']; print('ideal', s['ideal_bound_cycles'], s['compulsory_bytes'], s['ideal_macs'], round(s['ideal_ratio'] * 5) == s['cycles'], s['layers']); print('unattributed', u['id'], u['name'], u['commands'], u['first_cycle'], u['last_cycle'] == s['cycles'], u['dram_bytes_read'], u['dram_bytes_written'], u['spill_bytes'], u['macs'], sorted(u['busy_cycles'])); t=json.load(open(sys.argv[2])); print('tracks', sorted(set(e['args']['name'] for e in t['traceEvents'] if e['name'] == 'thread_name' and e['pid'] == 0)))" %t.out/stats.json %t.trace.json | FileCheck %s --check-prefix=JSON
// JSON: ideal 5.0 544 0 True []
// JSON-NEXT: unattributed None (unattributed) 7 0 True 240 240 0 0 ['dma', 'mesh', 'pe', 'sfu']
// JSON-NEXT: tracks ['DMA', 'PE array', 'control unit']

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.io input "x" at 0 : tensor<3x4x5xf32>
  isa.io output "y" at 1024 : tensor<3x4x5xf32>
  isa.data at 2048 replicas [3072] = dense<1.0> : tensor<16xf32>
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
