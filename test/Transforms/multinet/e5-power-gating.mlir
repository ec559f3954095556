// RUN: accel-opt --multinet-schedule --multinet-power-gating %s | FileCheck %s --check-prefix=FULL
// RUN: accel-opt --multinet-schedule --multinet-power-gating=sets=given %s | FileCheck %s --check-prefix=GIVEN

// spec/multi-network.md E5 (Fig. 6): power gating on E4's schedule. An EU is
// switched off in time unit t when it runs nothing in t nor in t + 1 (an
// EU needed next is starting up).

multinet.plan grid 3 x 3 {
  multinet.network @NN1
  multinet.network @NN2
  %a1 = multinet.process @NN1 "P1" {pinned = #multinet.units<(1, 1), (2, 1)>}
  %a2 = multinet.process @NN1 "P2" (%a1) {pinned = #multinet.units<(2, 2)>}
  %a3 = multinet.process @NN1 "P3" (%a2) {pinned = #multinet.units<(2, 2), (3, 2)>}
  %b1 = multinet.process @NN2 "P1" {pinned = #multinet.units<(1, 3), (2, 3)>}
  %b2 = multinet.process @NN2 "P2" (%b1) {pinned = #multinet.units<(3, 2), (3, 3)>}
  %b3 = multinet.process @NN2 "P3" (%b2) {pinned = #multinet.units<(3, 3)>}
  %x = multinet.interaction "X" sum (%a3, %b3) between (%a4, %b4)
  %a4 = multinet.process @NN1 "P4" (%a3) {pinned = #multinet.units<(3, 2), (3, 3)>, targets = #multinet.units<(3, 2), (3, 3)>}
  %b4 = multinet.process @NN2 "P4" (%b3) {pinned = #multinet.units<(3, 3)>, targets = #multinet.units<(3, 3)>}
  // The spec's text switches off conservative subsets of the full sets.
  multinet.power_off time 1 [(3, 1)]
  multinet.power_off time 2 [(3, 1), (1, 2)]
  multinet.power_off time 3 [(3, 1), (1, 2), (1, 3)]
  multinet.power_off time 4 [(3, 1), (1, 2), (1, 3)]
}

// The full sets replace the given ones. In time unit 1 (2,2), (3,2) and
// (3,3) start up for time unit 2; (1,2) is never used.
// FULL-NOT:   multinet.power_off
// FULL:       multinet.power_off time 1 [(3, 1), (1, 2)]
// FULL-NEXT:  multinet.power_off time 2 [(1, 1), (2, 1), (3, 1), (1, 2), (1, 3), (2, 3)]
// FULL-NEXT:  multinet.power_off time 3 [(1, 1), (2, 1), (3, 1), (1, 2), (1, 3), (2, 3)]
// FULL-NEXT:  multinet.power_off time 4 [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (1, 3), (2, 3)]
// FULL-NOT:   multinet.power_off

// sets=given keeps the spec's conservative sets: each lies inside its full set.
// GIVEN:      multinet.power_off time 1 [(3, 1)]
// GIVEN-NEXT: multinet.power_off time 2 [(3, 1), (1, 2)]
// GIVEN-NEXT: multinet.power_off time 3 [(3, 1), (1, 2), (1, 3)]
// GIVEN-NEXT: multinet.power_off time 4 [(3, 1), (1, 2), (1, 3)]
