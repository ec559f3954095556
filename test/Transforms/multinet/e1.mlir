// RUN: accel-opt --multinet-schedule %s | FileCheck %s

// spec/multi-network.md E1 [0048]: three EUs, networks A and B. A.L1 runs on
// EU1 first; B.L1 waits for EU1; X = combine(A.L2, B.L1) runs on EU3 and is
// sent by EU3's router to EU1 and EU2, where A.L3 and B.L2 read it.
//
// | time | EU1  | EU2  | EU3 |
// | 1    | A.L1 | -    | -   |
// | 2    | B.L1 | A.L2 | -   |
// | 3    | -    | -    | X   |
// | 4    | A.L3 | B.L2 | -   |

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

// CHECK:      %[[A1:.*]] = multinet.process @A "L1" {{.*}}placement = #multinet.placement<time 1 on (1, 1)>
// CHECK-NEXT: %[[A2:.*]] = multinet.process @A "L2"{{.*}}placement = #multinet.placement<time 2 on (2, 1)>
// CHECK-NEXT: %[[B1:.*]] = multinet.process @B "L1" {{.*}}placement = #multinet.placement<time 2 on (1, 1)>
// CHECK-NEXT: %[[X:.*]] = multinet.interaction "X" sum{{.*}}placement = #multinet.placement<time 3 on (3, 1)>
// CHECK-NEXT: multinet.process @A "L3"{{.*}}placement = #multinet.placement<time 4 on (1, 1)>
// CHECK-NEXT: multinet.process @B "L2"{{.*}}placement = #multinet.placement<time 4 on (2, 1)>
// A.L1's result moves one hop to A.L2; the results of A.L2 and B.L1 go to EU3.
// CHECK-NEXT: multinet.transfer %[[A1]] from (1, 1) to [(2, 1)] time 2 bytes 64 hops 1
// CHECK-NEXT: multinet.transfer %[[A2]] from (2, 1) to [(3, 1)] time 3 bytes 64 hops 1
// CHECK-NEXT: multinet.transfer %[[B1]] from (1, 1) to [(3, 1)] time 3 bytes 64 hops 2
// X: one multicast from EU3 to EU1 and EU2 (2 + 1 hops).
// CHECK-NEXT: multinet.transfer %[[X]] from (3, 1) to [(1, 1), (2, 1)] time 4 bytes 64 hops 3
// CHECK-NOT: multinet.transfer
