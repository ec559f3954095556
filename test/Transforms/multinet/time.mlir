// RUN: accel-opt --accel-hw=%hw_dir/default.json --multinet-schedule --multinet-time %s | FileCheck %s
// RUN: accel-opt --accel-hw=%hw_dir/default.json --multinet-schedule --multinet-power-gating --multinet-time %s | FileCheck %s --check-prefix=GATED

// E1 with costs, on the default machine's mesh (hop latency 2 cycles, links
// of 32 B/cycle) and power model (wake latency 1000 cycles, 50 pJ per
// EU-cycle, 1 pJ per MAC, 0.5 pJ per byte-hop).
//
// An input arrives hops x 2 + bytes / 32 cycles after its producer ends:
// A.L1 -> A.L2 (1 hop, 64 B) 4 cycles; A.L2 -> X 4; B.L1 -> X (2 hops) 6;
// X -> A.L3 (2 hops) 6, X -> B.L2 4.
//
// Dataflow: A.L1 [0, 100]; A.L2 [104, 204]; B.L1 waits for EU1: [100, 200];
// X waits for A.L2 (204 + 4) and B.L1 (200 + 6): [208, 308]; A.L3 reads X
// 2 hops away: [314, 414]; B.L2 1 hop: [312, 412]. Makespan 414.
// Barrier: each time unit lasts its longest process plus its inputs'
// arrival: 100, 104, 106, 106 = 416.
//
// Energy (ungated): 3 EUs x 416 cycles x 50 pJ = 62400; MACs 0; byte-hops:
// 64 B x (1 + 1 + 2 + 3) hops x 0.5 pJ = 224. Total 62624.
multinet.plan grid 3 x 1 {
  multinet.network @A
  multinet.network @B
  %a1 = multinet.process @A "L1" {cycles = 100, output_bytes = 64, pinned = #multinet.units<(1, 1)>}
  %a2 = multinet.process @A "L2" (%a1) {cycles = 100, output_bytes = 64, pinned = #multinet.units<(2, 1)>}
  %b1 = multinet.process @B "L1" {cycles = 100, output_bytes = 64, pinned = #multinet.units<(1, 1)>}
  %x = multinet.interaction "X" sum (%a2, %b1) {cycles = 100, output_bytes = 64, pinned = #multinet.units<(3, 1)>}
  %a3 = multinet.process @A "L3" (%x) {cycles = 100, pinned = #multinet.units<(1, 1)>}
  %b2 = multinet.process @B "L2" (%x) {cycles = 100, pinned = #multinet.units<(2, 1)>}
}

// CHECK: multinet.plan grid 3 x 1 attributes {timing = #multinet.timing<barrier = 416, dataflow = 414, gated = false, energy_pj = 62624>}
// CHECK: multinet.process @A "L1" {{.*}}span = #multinet.span<0, 100>
// CHECK: multinet.process @A "L2" {{.*}}span = #multinet.span<104, 204>
// CHECK: multinet.process @B "L1" {{.*}}span = #multinet.span<100, 200>
// CHECK: multinet.interaction "X" {{.*}}span = #multinet.span<208, 308>
// CHECK: multinet.process @A "L3" {{.*}}span = #multinet.span<314, 414>
// CHECK: multinet.process @B "L2" {{.*}}span = #multinet.span<312, 412>

// Gated: EU3 runs nothing in time units 1 and 4, so it is off in both. It
// wakes when time unit 2 begins (cycle 100) and may run X 1000 cycles later:
// X [1100, 1200], A.L3 [1206, 1306]. Barrier: time unit 3 lasts
// max(inputs 6, wake 1100 - 204) + 100 = 996, so 204 + 996 + 106 = 1306.
// Static energy: EU3 on 1306 - 100 - 106 = 1100 cycles, EU1 and EU2 1306:
// 3712 x 50 pJ + 224 pJ = 185824. With a wake latency ten times a process,
// gating this short plan costs time and energy.
// GATED: multinet.plan grid 3 x 1 attributes {timing = #multinet.timing<barrier = 1306, dataflow = 1306, gated = true, energy_pj = 185824>}
// GATED: multinet.interaction "X" {{.*}}span = #multinet.span<1100, 1200>
// GATED: multinet.power_off time 1 [(3, 1)]
// GATED: multinet.power_off time 4 [(3, 1)]
