// RUN: accel-opt --split-input-file --multinet-schedule %s | FileCheck %s

// spec/multi-network.md E2 [0060]: networks C and D start together, on EU3
// and EU4 of a 2x2 grid, chosen by their target sets alone.
multinet.plan grid 2 x 2 {
  multinet.network @C
  multinet.network @D
  %c = multinet.process @C "L1" {targets = #multinet.units<(1, 2)>}
  %d = multinet.process @D "L1" {targets = #multinet.units<(2, 2)>}
}
// CHECK-LABEL: multinet.plan grid 2 x 2
// CHECK: multinet.process @C "L1" {{.*}}placement = #multinet.placement<time 1 on (1, 2)>
// CHECK: multinet.process @D "L1" {{.*}}placement = #multinet.placement<time 1 on (2, 2)>

// -----

// E3 (Fig. 4): one network on a 3x3 grid, pinned as in the figure. Each
// result moves one hop; P3 keeps P2's result where it is, so only (3,2)
// receives it.
multinet.plan grid 3 x 3 {
  multinet.network @N
  %p1 = multinet.process @N "P1" {output_bytes = 64, pinned = #multinet.units<(1, 1), (2, 1)>}
  %p2 = multinet.process @N "P2" (%p1) {output_bytes = 64, pinned = #multinet.units<(2, 2)>}
  %p3 = multinet.process @N "P3" (%p2) {output_bytes = 64, pinned = #multinet.units<(2, 2), (3, 2)>}
  %p4 = multinet.process @N "P4" (%p3) {pinned = #multinet.units<(3, 2), (3, 3)>}
}
// CHECK-LABEL: multinet.plan grid 3 x 3
// CHECK: %[[P1:.*]] = multinet.process @N "P1" {{.*}}<time 1 on (1, 1), (2, 1)>
// CHECK: %[[P2:.*]] = multinet.process @N "P2" {{.*}}<time 2 on (2, 2)>
// CHECK: %[[P3:.*]] = multinet.process @N "P3" {{.*}}<time 3 on (2, 2), (3, 2)>
// CHECK: multinet.process @N "P4" {{.*}}<time 4 on (3, 2), (3, 3)>
// CHECK: multinet.transfer %[[P1]] from (2, 1) to [(2, 2)] time 2 bytes 64 hops 1
// CHECK: multinet.transfer %[[P2]] from (2, 2) to [(3, 2)] time 3 bytes 64 hops 1
// CHECK: multinet.transfer %[[P3]] from (3, 2) to [(3, 3)] time 4 bytes 64 hops 1

// -----

// E3 unpinned: the spec's objectives choose. P2 takes (2,2), which holds
// P1's result (reuse of data already in an EU), and (2,1), the
// lowest-numbered EU one hop away (fewest transfers).
multinet.plan grid 3 x 3 {
  multinet.network @N
  %p1 = multinet.process @N "P1" {output_bytes = 64, pinned = #multinet.units<(2, 2)>}
  %p2 = multinet.process @N "P2" (%p1) {units = 2}
}
// CHECK-LABEL: multinet.plan grid 3 x 3
// CHECK: multinet.process @N "P2" {{.*}}placement = #multinet.placement<time 2 on (2, 1), (2, 2)>
// CHECK: multinet.transfer {{.*}} from (2, 2) to [(2, 1)] time 2 bytes 64 hops 1
