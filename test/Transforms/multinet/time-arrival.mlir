// RUN: accel-opt --accel-hw=%hw_dir/default.json --multinet-schedule --multinet-time %s | FileCheck %s

// A network's `arrival` is when its input arrives: its processes start no
// earlier. E1 with B arriving at cycle 1000: B.L1 waits until then
// (dataflow [1000, 1100]) instead of starting at 100; X waits for it
// (1100 + 6 cycles of hops and bytes). The barrier style stretches time
// unit 2 until B.L1 ends at 1100; time units 3 and 4 take 106 each: 1312.
multinet.plan grid 3 x 1 {
  multinet.network @A
  multinet.network @B {arrival = 1000}
  %a1 = multinet.process @A "L1" {cycles = 100, output_bytes = 64, pinned = #multinet.units<(1, 1)>}
  %a2 = multinet.process @A "L2" (%a1) {cycles = 100, output_bytes = 64, pinned = #multinet.units<(2, 1)>}
  %b1 = multinet.process @B "L1" {cycles = 100, output_bytes = 64, pinned = #multinet.units<(1, 1)>}
  %x = multinet.interaction "X" sum (%a2, %b1) {cycles = 100, output_bytes = 64, pinned = #multinet.units<(3, 1)>}
  %a3 = multinet.process @A "L3" (%x) {cycles = 100, pinned = #multinet.units<(1, 1)>}
  %b2 = multinet.process @B "L2" (%x) {cycles = 100, pinned = #multinet.units<(2, 1)>}
}
// CHECK: timing = #multinet.timing<barrier = 1312, dataflow = 1312,
// CHECK: multinet.process @B "L1" {{.*}}span = #multinet.span<1000, 1100>
// CHECK: multinet.interaction "X" {{.*}}span = #multinet.span<1106, 1206>
// CHECK: multinet.process @A "L3" {{.*}}span = #multinet.span<1212, 1312>
