// The hardware description enters the IR once, as the module's accel.hw.
// RUN: accel-opt --accel-hw=%S/../../../hw/large.json %s | FileCheck %s
// RUN: accel-opt --accel-attach-hardware=file=%S/../../../hw/large.json %s | FileCheck %s
// Printed and parsed back (the verifier recomputes the fingerprint).
// RUN: accel-opt --accel-hw=%S/../../../hw/large.json %s | accel-opt | FileCheck %s
// Attaching the same machine again is a no-op; another one is an error.
// RUN: accel-opt --accel-hw=%S/../../../hw/large.json %s | accel-opt --accel-hw=%S/../../../hw/large.json | FileCheck %s
// RUN: accel-opt --accel-hw=%S/../../../hw/large.json %s | not accel-opt --accel-hw=%S/../../../hw/bandwidth-starved.json 2>&1 | FileCheck %s --check-prefix=TWICE
// An edited description no longer matches its fingerprint.
// RUN: accel-opt --accel-hw=%S/../../../hw/large.json %s | sed 's/rows = 4/rows = 3/' | not accel-opt 2>&1 | FileCheck %s --check-prefix=EDITED
// A bad file: one error naming the file and the field.
// RUN: echo '{"pe": {"mac_lanes": 0}}' > %t.bad.json
// RUN: not accel-opt --accel-hw=%t.bad.json %s 2>&1 | FileCheck %s --check-prefix=BADFILE
// RUN: not accel-opt --accel-attach-hardware %s 2>&1 | FileCheck %s --check-prefix=NOFILE
// The passes read the machine from the module: the 4x4 grid of large.json.
// RUN: accel-opt --accel-hw=%S/../../../hw/large.json --convert-graph-to-isa %s | FileCheck %s --check-prefix=ISA
// The issue-11 fields (shared cache, channel routers, split group) survive
// printing and parsing: the verifier recomputes the fingerprint from them.
// RUN: accel-opt --accel-hw=%S/../../../hw/labels-example.json %s | accel-opt | FileCheck %s --check-prefix=LABELS
// RUN: accel-opt --accel-hw=%S/../../../hw/labels-example.json %s | sed 's/shared_cache = true/shared_cache = false/' | not accel-opt 2>&1 | FileCheck %s --check-prefix=EDITED
// RUN: accel-opt --accel-hw=%S/../../../hw/labels-example.json %s | sed 's/router = \[0, 1\]/router = [0, 0]/' | not accel-opt 2>&1 | FileCheck %s --check-prefix=EDITED

// CHECK: module attributes {accel.hw = #accel.hw<name = "large", fingerprint = {{[0-9]+}}, desc = {{{.*}}grid = {cols = 4 : i64, rows = 4 : i64}{{.*}}name = "large"
// TWICE: error: the module already carries accel.hw "large", a different machine than "bandwidth-starved"
// EDITED: error: accel.hw: fingerprint {{[0-9]+}} does not match the description (its fingerprint is {{[0-9]+}})
// BADFILE: error: hardware description '{{.*}}bad.json': pe.mac_lanes: must be >= 1 (got 0)
// NOFILE: error: accel-attach-hardware: file=<hardware description JSON> is required
// ISA: isa.program grid(4 x 4)
// LABELS: #accel.hw<name = "labels-example"
// LABELS-SAME: shared_cache = true
// LABELS-SAME: channels = [{bytes_per_cycle = 6.400000e+01 : f64, latency_cycles = 100 : i64, max_outstanding = 16 : i64, router = [0, 0]}, {bytes_per_cycle = 6.400000e+01 : f64, latency_cycles = 100 : i64, max_outstanding = 16 : i64, router = [0, 1]}]
// LABELS-SAME: numerics = {accumulate = "f32", compute = "f16"}
// LABELS-SAME: split = {activation_tile = 256 : i64, database = "shared-cache", weight_tile = 512 : i64}

func.func @main(%a: tensor<4x8xf32> {accel.name = "a"}) -> (tensor<4x8xf32> {accel.name = "y"}) {
  %0 = graph.relu %a : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
