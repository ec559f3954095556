// Per-layer statistics of a program with a layer table (docs/simulator.md
// "Per-layer statistics"): layer 0 "x_load" loads x into cluster (0,0),
// layer 1 "act/Relu" applies relu and stores y; the final WAIT has no layer
// (the unattributed row; it overlaps the store of act/Relu, so its trace
// span goes to the second layer track, tid 4). Default machine: peak 1024 MACs/cycle, DRAM
// 2 x 64 B/cycle. Roofline bounds: x_load ceil(240 / 128) = 2 (memory),
// act/Relu ceil(240 / 128) = 2; network: weights 0 + x 240 + y 240 = 480 B,
// ceil(480 / 128) = 4 cycles.
//
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: %python -c "import struct,sys; h=\"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4, 5), }\"; h=h+' '*(63-(10+len(h))%%64)+'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+struct.pack('<60f',*[i-30 for i in range(60)]))" %t.x.npy
// RUN: rm -rf %t.out
// RUN: accel-run %t.bin -i x=%t.x.npy -o %t.out --trace %t.trace.json --per-layer | FileCheck %s
// CHECK: cycles: [[C:[0-9]+]] (
// CHECK-NEXT: cycles [[C]], ideal bound 4 (C/B = {{[0-9]+\.[0-9][0-9]}}x)
// CHECK-NOT: no layer table
// CHECK: {{^}}layer op cycles share exclusive MACs util DRAM bytes bound ratio limit{{$}}
// CHECK-NEXT: {{^}}act/Relu Relu [[R:[0-9]+]] {{[0-9.]+}}% [[R]] 0 0.0% 240 2m {{[0-9.]+}}x {{pe|dma}} {{[0-9]+}} %{{$}}
// CHECK-NEXT: {{^}}x_load Identity [[X:[0-9]+]] {{[0-9.]+}}% [[X]] 0 0.0% 240 2m {{[0-9.]+}}x dma {{[0-9]+}} %{{$}}
// CHECK-NEXT: {{^}}(unattributed) {{[0-9]+}} {{[0-9.]+}}% {{[0-9]+}} 0 0.0% 0 - - -{{$}}
//
// RUN: %python -c "import json,sys; s=json.load(open(sys.argv[1])); L=s['layers']; print('ideal', s['ideal_bound_cycles'], s['compulsory_bytes'], s['ideal_macs']); [print('layer', l['id'], l['name'], l['op'], l['fused'], l['commands'], l['dram_bytes_read'], l['dram_bytes_written'], l['roofline_bound'], l['bound_kind'], l['spill_bytes'], l['busy_cycles']['pe'] > 0, abs(l['bound_ratio'] * l['roofline_bound'] - l['cycles']) < 1e-6) for l in L]; print('order', L[0]['first_cycle'] == 0, L[0]['last_cycle'] <= L[1]['first_cycle'], L[1]['last_cycle'] <= s['cycles']); u=s['unattributed']; print('unattributed', u['commands'], u['last_cycle'] == s['cycles'], u['exclusive_cycles'] == u['last_cycle'] - max(u['first_cycle'], L[1]['last_cycle'])); print('exclusive', [l['exclusive_cycles'] == l['cycles'] for l in L], sum(l['exclusive_cycles'] for l in L) + u['exclusive_cycles'] == s['cycles']); t=json.load(open(sys.argv[2])); print('spans', sorted((e['pid'], e['tid'], e['name']) for e in t['traceEvents'] if e['ph'] == 'X' and e['tid'] >= 3))" %t.out/stats.json %t.trace.json | FileCheck %s --check-prefix=JSON
// JSON: ideal 4.0 480 0
// JSON-NEXT: layer 0 x_load Identity [] 2 240 0 2.0 memory 0 False True
// JSON-NEXT: layer 1 act/Relu Relu ['act/Clip'] 4 0 240 2.0 memory 0 True True
// JSON-NEXT: order True True True
// JSON-NEXT: unattributed 1 True True
// JSON-NEXT: exclusive [True, True] True
// JSON-NEXT: spans [(0, 3, 'act/Relu'), (0, 3, 'x_load'), (0, 4, '(unattributed)')]

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 layers [
  #isa.layer<name = "x_load", op = "Identity", compulsory_bytes = 240>,
  #isa.layer<name = "act/Relu", op = "Relu", compulsory_bytes = 240, fused = ["act/Clip"]>
] {
  isa.io input "x" at 0 : tensor<3x4x5xf32>
  isa.io output "y" at 1024 : tensor<3x4x5xf32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [12, 5] src_strides [5, 1] dst_strides [5, 1] layer 0
    isa.wait tags [0] layer 0
    isa.config ibuf 0 layer 1 {
      isa.ld acts slot 0 <rows = 12, cols = 5, row_stride = 5, pe_rows = 3>
      isa.spu unary in 0 out 1 <rows = 12, cols = 5, pe_rows = 3, func = relu>
      isa.st inbuf slot 1 acc 0 <addr = 1024, rows = 12, cols = 5, row_stride = 5, pe_rows = 3>
    }
    isa.execute ibuf 0 last layer 1
    isa.wait tags [] pe layer 1
    isa.dma store tag 1 src 1024 dst 1024 shape [12, 5] src_strides [5, 1] dst_strides [5, 1] layer 1
    isa.wait tags [1]
  }
  isa.cluster(0, 1) {
  }
  isa.cluster(1, 0) {
  }
  isa.cluster(1, 1) {
  }
}
