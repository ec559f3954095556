// SEND (multicast), SIGNAL, RECV and remote_load through the binary and
// accel-run on the default 2 x 2 machine (docs/simulator.md "Mesh",
// "Semaphores"). Cluster (0,0) loads x and multicasts it to the three other
// clusters; (0,1) computes y = relu(x) and signals (1,1); (1,0) stores its
// copy as z = x; (1,1) waits for both, reads (0,1)'s result with a
// remote_load and stores it as w. No barrier anywhere.
//
// RUN: accel-translate --isa-to-binary %s -o %t.bin
// RUN: accel-run %t.bin --strict-hazards --output-dir %t.out \
// RUN:   --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect y=%onnx_data/node/test_relu/test_data_set_0/output_0.pb \
// RUN:   --expect z=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect w=%onnx_data/node/test_relu/test_data_set_0/output_0.pb 2>&1 | FileCheck %s --check-prefix=OK
// OK-NOT: hazard
// The SEND tree {0->1, 0->2, 1->3} carries 240 bytes per link (720
// byte-hops), the remote_load (0,1) -> (1,1) one hop (240).
// OK: mesh: 2 transfers, 1 signals, 480 B, 960 byte-hops
// OK: w matches the reference
// OK: y matches the reference
// OK: z matches the reference
// With a data lane per cluster (the SEND's and the remote_load's bytes cross
// lanes; docs/simulator.md, "Eighth round"), the same results:
// RUN: accel-run %t.bin --strict-hazards --data-lanes 4 \
// RUN:   --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect y=%onnx_data/node/test_relu/test_data_set_0/output_0.pb \
// RUN:   --expect z=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect w=%onnx_data/node/test_relu/test_data_set_0/output_0.pb 2>&1 | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=JSON < %t.out/stats.json
// JSON: "SEND": 1,
// JSON: "SIGNAL": 1
// JSON: "mesh_bytes_sent": 720,
// JSON: "mesh": {
// JSON-NEXT: "bytes": 480,
// JSON-NEXT: "byte_hops": 960,
// JSON-NEXT: "transfers": 2,
// JSON-NEXT: "signals": 1,
//
// Power gating (docs/multi-network.md "Power gating in the simulator"): the
// streams of (0,1), (1,0) and (1,1) start with a RECV, so each is off until
// the SEND arrives, then wakes for the default machine's 1000 cycles: the
// run ends 1000 cycles later than ungated (258). (0,0) is off once done.
// RUN: accel-run %t.bin --power-gating --output-dir %t.gated \
// RUN:   --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb \
// RUN:   --expect w=%onnx_data/node/test_relu/test_data_set_0/output_0.pb 2>&1 | FileCheck %s --check-prefix=GATED
// GATED: cycles: 1258
// GATED: power gating: 1546 cluster-cycles off
// GATED: w matches the reference
// RUN: FileCheck %s --check-prefix=GATEDJSON < %t.gated/stats.json
// GATEDJSON: "power": {
// GATEDJSON-NEXT: "gating": true,
// GATEDJSON-NEXT: "off_cluster_cycles": 1546,
// GATEDJSON-NEXT: "wakes": 3,
// GATEDJSON-NEXT: "waking_cluster_cycles": 3000
//
// Without (1,1)'s second RECV its remote_load reads (0,1)'s storage while
// (0,1) still computes: the validator rejects the unmatched SIGNAL at load
// time, and without validation strict mode reports the race.
// RUN: sed '/isa.recv sem 1 count 1/d' %s | accel-translate --isa-to-binary -o %t.norecv.bin
// RUN: not accel-run %t.norecv.bin \
// RUN:   --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb 2>&1 | FileCheck %s --check-prefix=VAL
// VAL: accel-run: error: {{.*}}sem 1 never received
// RUN: not accel-run %t.norecv.bin --no-validate --strict-hazards \
// RUN:   --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb 2>&1 | FileCheck %s --check-prefix=NORECV
// NORECV: accel-run: error: hazard: cluster (1,1) command 1 (DMA remote_load tag 0) reads the storage unit of cluster (0,1) bytes [1024, 1264) {{.*}}(missing RECV, WAIT or BARRIER?)

isa.program grid(2 x 2) dram 4096 hw -5845083677414689407 {
  isa.io input "x" at 0 : tensor<3x4x5xf32>
  isa.io output "y" at 1024 : tensor<3x4x5xf32>
  isa.io output "z" at 2048 : tensor<3x4x5xf32>
  isa.io output "w" at 3072 : tensor<3x4x5xf32>
  isa.cluster(0, 0) {
    isa.dma load tag 0 src 0 dst 0 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [0]
    isa.send src 0 dst 0 bytes 240 to [(0, 1), (1, 0), (1, 1)] sem 0 tag 1
    isa.wait tags [1]
  }
  isa.cluster(0, 1) {
    isa.recv sem 0 count 1
    isa.config ibuf 0 {
      isa.ld acts slot 0 <rows = 12, cols = 5, row_stride = 5, pe_rows = 3>
      isa.spu unary in 0 out 1 <rows = 12, cols = 5, pe_rows = 3, func = relu>
      isa.st inbuf slot 1 acc 0 <addr = 1024, rows = 12, cols = 5, row_stride = 5, pe_rows = 3>
    }
    isa.execute ibuf 0 last
    isa.wait tags [] pe
    isa.signal to [(1, 1)] sem 1
    isa.dma store tag 1 src 1024 dst 1024 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [1]
  }
  isa.cluster(1, 0) {
    isa.recv sem 0 count 1
    isa.dma store tag 0 src 0 dst 2048 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [0]
  }
  isa.cluster(1, 1) {
    isa.recv sem 0 count 1
    isa.recv sem 1 count 1
    isa.dma remote_load from (0, 1) tag 0 src 1024 dst 1024 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [0]
    isa.dma store tag 1 src 1024 dst 3072 shape [12, 5] src_strides [5, 1] dst_strides [5, 1]
    isa.wait tags [1]
  }
}
