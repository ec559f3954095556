// RUN: accel-opt --multinet-schedule %s --split-input-file --verify-diagnostics

// Plans the scheduler cannot place: the error names the process.
multinet.plan grid 2 x 2 {
  multinet.network @A
  // expected-error @+1 {{process A.L1 wants 3 EUs; its targets {(1,1), (2,2)} have 2}}
  %a1 = multinet.process @A "L1" {units = 3, targets = #multinet.units<(1, 1), (2, 2)>}
}

// -----

multinet.plan grid 2 x 2 {
  multinet.network @A
  // expected-error @+1 {{process A.L1 is pinned to (3,1), outside the 2x2 grid}}
  %a1 = multinet.process @A "L1" {pinned = #multinet.units<(3, 1)>}
}

// -----

// Inputs in a cycle (the body is a graph region).
multinet.plan grid 2 x 2 {
  multinet.network @A
  // expected-error @+1 {{process A.L1 depends on itself through its inputs}}
  %a1 = multinet.process @A "L1" (%a2)
  %a2 = multinet.process @A "L2" (%a1)
}
