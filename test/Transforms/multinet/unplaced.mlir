// RUN: accel-opt --multinet-power-gating %s --verify-diagnostics
// RUN: accel-opt --multinet-time %s --verify-diagnostics

// Power gating and timing need a placed plan.
// expected-error @+1 {{is not placed: run multinet-schedule before multinet-}}
multinet.plan grid 2 x 2 {
  multinet.network @A
  %a1 = multinet.process @A "L1"
}
