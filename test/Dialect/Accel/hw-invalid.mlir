// RUN: accel-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'builtin.module' op accel.hw: expected an #accel.hw<...> attribute, got "large"}}
module attributes {accel.hw = "large"} {
}

// -----

// The description is checked by the hardware library's validation.
// expected-error @+1 {{accel.hw: invalid description: pe.mac_lanes: must be >= 1 (got 0)}}
module attributes {accel.hw = #accel.hw<name = "x", fingerprint = 1, desc = {name = "x", pe = {mac_lanes = 0 : i64}}>} {
}

// -----

// expected-error @+1 {{accel.hw: name "y" differs from the description's name "x"}}
module attributes {accel.hw = #accel.hw<name = "y", fingerprint = 1, desc = {name = "x"}>} {
}

// -----

// expected-error @+1 {{accel.hw: invalid description: grid.rows: expected an integer}}
module attributes {accel.hw = #accel.hw<name = "x", fingerprint = 1, desc = {name = "x", grid = {rows = "two"}}>} {
}

// -----

// expected-error @+1 {{accel.hw: invalid description: memory.channels[0].router: [0, 2] is outside the 1 x 2 grid}}
module attributes {accel.hw = #accel.hw<name = "x", fingerprint = 1, desc = {name = "x", grid = {rows = 1, cols = 2}, memory = {channels = [{router = [0, 2]}]}}>} {
}

// -----

// expected-error @+1 {{accel.hw: invalid description: cluster.shared_cache: expected a boolean, got an integer}}
module attributes {accel.hw = #accel.hw<name = "x", fingerprint = 1, desc = {name = "x", cluster = {shared_cache = 1}}>} {
}

// -----

// expected-error @+1 {{accel.hw: invalid description: split.cache: unknown key}}
module attributes {accel.hw = #accel.hw<name = "x", fingerprint = 1, desc = {name = "x", split = {cache = 1}}>} {
}
