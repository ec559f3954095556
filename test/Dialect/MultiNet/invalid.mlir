// RUN: accel-opt %s --split-input-file --verify-diagnostics

// The spec's rule: two processes share an EU in one time unit only when
// both take part in one interaction of that time unit.
multinet.plan grid 2 x 1 {
  multinet.network @A
  multinet.network @B
  // expected-error @+1 {{processes A.L1 and B.L1 share (1,1) in time unit 1 without an interaction between them}}
  %a = multinet.process @A "L1" {placement = #multinet.placement<time 1 on (1, 1)>}
  %b = multinet.process @B "L1" {placement = #multinet.placement<time 1 on (1, 1)>}
}

// -----

// A producer's time unit precedes its reader's.
multinet.plan grid 2 x 1 {
  multinet.network @A
  %a1 = multinet.process @A "L1" {placement = #multinet.placement<time 2 on (1, 1)>}
  // expected-error @+1 {{process A.L2 runs in time unit 2, not after its input A.L1 (time unit 2)}}
  %a2 = multinet.process @A "L2" (%a1) {placement = #multinet.placement<time 2 on (2, 1)>}
}

// -----

multinet.plan grid 2 x 1 {
  multinet.network @A
  // expected-error @+1 {{placed on (3,1), outside the 2x1 grid}}
  %a1 = multinet.process @A "L1" {placement = #multinet.placement<time 1 on (3, 1)>}
}

// -----

multinet.plan grid 2 x 2 {
  multinet.network @A
  // expected-error @+1 {{process A.L1 runs on (2,2), outside its target set}}
  %a1 = multinet.process @A "L1" {targets = #multinet.units<(1, 1)>, placement = #multinet.placement<time 1 on (2, 2)>}
}

// -----

// Static data stays in the EUs' memory.
// expected-error @+1 {{the static data on (1,1) (1400 bytes) exceeds its memory (1000 bytes)}}
multinet.plan grid 2 x 1 attributes {memory_bytes = 1000} {
  multinet.network @A
  %a1 = multinet.process @A "L1" {static_bytes = 800, placement = #multinet.placement<time 1 on (1, 1)>}
  %a2 = multinet.process @A "L2" (%a1) {static_bytes = 600, placement = #multinet.placement<time 2 on (1, 1)>}
}

// -----

multinet.plan grid 2 x 1 {
  multinet.network @A
  // expected-error @+1 {{pins 1 EUs but runs on 2}}
  %a1 = multinet.process @A "L1" {units = 2, pinned = #multinet.units<(1, 1)>}
}

// -----

multinet.plan grid 2 x 1 {
  multinet.network @A
  // expected-error @+1 {{is pinned to (2,1), outside its target set}}
  %a1 = multinet.process @A "L1" {pinned = #multinet.units<(2, 1)>, targets = #multinet.units<(1, 1)>}
}

// -----

multinet.plan grid 2 x 1 {
  multinet.network @A
  // expected-error @+1 {{names network @C, which the plan does not declare}}
  %a1 = multinet.process @C "L1"
}

// -----

multinet.plan grid 2 x 1 {
  multinet.network @A
  %a1 = multinet.process @A "L1"
  // expected-error @+1 {{combines results of two or more processes, got 1}}
  %x = multinet.interaction "X" sum (%a1)
}

// -----

// (2,2) runs A.L2 in time unit 2: in time unit 1 it is starting up.
multinet.plan grid 2 x 2 {
  multinet.network @A
  %a1 = multinet.process @A "L1" {placement = #multinet.placement<time 1 on (1, 1)>}
  %a2 = multinet.process @A "L2" (%a1) {placement = #multinet.placement<time 2 on (2, 2)>}
  // expected-error @+1 {{time unit 1: (2,2) runs in this or the next time unit and cannot be switched off}}
  multinet.power_off time 1 [(2, 1), (2, 2)]
}

// -----

multinet.plan grid 2 x 2 {
  multinet.network @A
  %a1 = multinet.process @A "L1" {placement = #multinet.placement<time 1 on (1, 1)>}
  // expected-error @+1 {{switches EUs off in time unit 3; the schedule has 1}}
  multinet.power_off time 3 [(2, 1)]
}

// -----

multinet.plan grid 2 x 2 {
  multinet.network @A
  // expected-error @+1 {{multinet.units: EU (1,1) appears twice}}
  %a1 = multinet.process @A "L1" {targets = #multinet.units<(1, 1), (1, 1)>}
}

// -----

multinet.plan grid 2 x 2 {
  multinet.network @A
  // expected-error @+1 {{multinet.units: EU (0,1) is not on a grid counted from (1,1)}}
  %a1 = multinet.process @A "L1" {targets = #multinet.units<(0, 1)>}
}

// -----

multinet.plan grid 2 x 2 {
  multinet.network @A
  // expected-error @+1 {{multinet.placement: time units count from 1, got 0}}
  %a1 = multinet.process @A "L1" {placement = #multinet.placement<time 0 on (1, 1)>}
}

// -----

multinet.plan grid 2 x 2 {
  multinet.network @A
  // expected-error @+1 {{multinet.span: need 0 <= start <= finish, got 5, 2}}
  %a1 = multinet.process @A "L1" {span = #multinet.span<5, 2>}
}
