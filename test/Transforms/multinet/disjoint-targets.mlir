// RUN: accel-opt --multinet-schedule %s --verify-diagnostics
// RUN: accel-opt --multinet-schedule=repair-empty-interaction %s | FileCheck %s

// E4 with NN1.P4 moved to (1,1), (2,1): the target sets of the interaction's
// processes no longer meet. An error on the interaction, or, with the repair
// option, the free EU nearest to its inputs (NN1.P3 on (2,2), (3,2); NN2.P3
// on (3,3)).
multinet.plan grid 3 x 3 {
  multinet.network @NN1
  multinet.network @NN2
  %a1 = multinet.process @NN1 "P1" {pinned = #multinet.units<(1, 1), (2, 1)>}
  %a2 = multinet.process @NN1 "P2" (%a1) {pinned = #multinet.units<(2, 2)>}
  %a3 = multinet.process @NN1 "P3" (%a2) {pinned = #multinet.units<(2, 2), (3, 2)>}
  %b1 = multinet.process @NN2 "P1" {pinned = #multinet.units<(1, 3), (2, 3)>}
  %b2 = multinet.process @NN2 "P2" (%b1) {pinned = #multinet.units<(3, 2), (3, 3)>}
  %b3 = multinet.process @NN2 "P3" (%b2) {pinned = #multinet.units<(3, 3)>}
  // expected-error @+1 {{interaction X: the target sets of NN1.P4 {(1,1), (2,1)} and NN2.P4 {(3,3)} have no EU in common}}
  %x = multinet.interaction "X" sum (%a3, %b3) between (%a4, %b4)
  %a4 = multinet.process @NN1 "P4" (%a3) {pinned = #multinet.units<(1, 1), (2, 1)>, targets = #multinet.units<(1, 1), (2, 1)>}
  %b4 = multinet.process @NN2 "P4" (%b3) {pinned = #multinet.units<(3, 3)>, targets = #multinet.units<(3, 3)>}
}

// CHECK: multinet.interaction "X" sum {{.*}}placement = #multinet.placement<time 4 on (3, 2)>, repaired}
