// RUN: accel-opt --multinet-schedule %s | FileCheck %s

// spec/multi-network.md E4 (Fig. 5): NN1 and NN2 on a 3x3 grid, pinned as
// in the figure. The interaction X combines both networks' P3 and runs on
// the intersection of the target sets of NN1.P4 {(3,2), (3,3)} and NN2.P4
// {(3,3)}: (3,3), in time unit 4, next to both P4s.
//
// | time | NN1                | NN2                |
// | 1    | P1: (1,1),(2,1)    | P1: (1,3),(2,3)    |
// | 2    | P2: (2,2)          | P2: (3,2),(3,3)    |
// | 3    | P3: (2,2),(3,2)    | P3: (3,3)          |
// | 4    | P4: (3,2),(3,3)    | P4: (3,3)          |

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
}

// CHECK: multinet.process @NN1 "P1" {{.*}}<time 1 on (1, 1), (2, 1)>
// CHECK: multinet.process @NN1 "P2" {{.*}}<time 2 on (2, 2)>
// CHECK: multinet.process @NN1 "P3" {{.*}}<time 3 on (2, 2), (3, 2)>
// CHECK: multinet.process @NN2 "P1" {{.*}}<time 1 on (1, 3), (2, 3)>
// CHECK: multinet.process @NN2 "P2" {{.*}}<time 2 on (3, 2), (3, 3)>
// CHECK: multinet.process @NN2 "P3" {{.*}}<time 3 on (3, 3)>
// CHECK: multinet.interaction "X" sum {{.*}}placement = #multinet.placement<time 4 on (3, 3)>
// CHECK: multinet.process @NN1 "P4" {{.*}}<time 4 on (3, 2), (3, 3)>
// CHECK: multinet.process @NN2 "P4" {{.*}}<time 4 on (3, 3)>
