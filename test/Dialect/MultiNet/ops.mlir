// RUN: accel-opt %s | accel-opt | FileCheck %s

// Every op and attribute prints and parses back.
// CHECK-LABEL: multinet.plan grid 2 x 2 attributes {memory_bytes = 4096 : i64, timing = #multinet.timing<barrier = 300, dataflow = 250, gated = true, energy_pj = 1200>}
multinet.plan grid 2 x 2 attributes {memory_bytes = 4096, timing = #multinet.timing<barrier = 300, dataflow = 250, gated = true, energy_pj = 1200>} {
  // CHECK: multinet.network @A {arrival = 10 : i64, model = "a.onnx"}
  multinet.network @A {model = "a.onnx", arrival = 10}
  multinet.network @B
  // CHECK: %[[A1:.*]] = multinet.process @A "L1" {{{.*}}placement = #multinet.placement<time 1 on (1, 1), (2, 1)>, span = #multinet.span<0, 100>, static_bytes = 2048 : i64, targets = #multinet.units<(1, 1), (2, 1)>, units = 2 : i64}
  %a1 = multinet.process @A "L1" {units = 2, cycles = 100, macs = 5000, output_bytes = 64, static_bytes = 2048, targets = #multinet.units<(1, 1), (2, 1)>, placement = #multinet.placement<time 1 on (1, 1), (2, 1)>, span = #multinet.span<0, 100>}
  %b1 = multinet.process @B "L1" {pinned = #multinet.units<(1, 2)>, placement = #multinet.placement<time 1 on (1, 2)>}
  // CHECK: %[[X:.*]] = multinet.interaction "X" concat (%[[A1]], %{{.*}}) between (%{{.*}}) {{{.*}}placement = #multinet.placement<time 2 on (2, 2)>}
  %x = multinet.interaction "X" concat (%a1, %b1) between (%a2) {placement = #multinet.placement<time 2 on (2, 2)>}
  // CHECK: multinet.process @A "L2" (%[[X]])
  %a2 = multinet.process @A "L2" (%x) {placement = #multinet.placement<time 3 on (2, 2)>}
  // CHECK: multinet.transfer %[[X]] from (2, 2) to [(1, 1), (2, 1)] time 3 bytes 64 hops 3
  multinet.transfer %x from (2, 2) to [(1, 1), (2, 1)] time 3 bytes 64 hops 3
  // CHECK: multinet.power_off time 3 [(1, 2)]
  multinet.power_off time 3 [(1, 2)]
}
