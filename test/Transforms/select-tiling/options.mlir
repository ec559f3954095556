// Enum-like options are typed: --help lists the allowed values and the
// option parser rejects anything else before a pass runs.
// RUN: accel-opt --help | FileCheck %s --check-prefix=HELP
// RUN: not accel-opt --select-tiling="split-k=maybe" %s 2>&1 | FileCheck %s --check-prefix=SPLITK
// RUN: not accel-opt --select-tiling="baseline=naive" %s 2>&1 | FileCheck %s --check-prefix=BASE
// RUN: not accel-opt --convert-graph-to-isa="sparse-threshold=-0.5" %s 2>&1 | FileCheck %s --check-prefix=THR
// RUN: not accel-opt --accel-default-pipeline="sfu-mode=fused" %s 2>&1 | FileCheck %s --check-prefix=PIPE

// HELP: --accel-hw=<file>
// HELP: --convert-graph-to-isa
// HELP: --conv=<value>
// HELP-NEXT: =gemm
// HELP-NEXT: =rq
// HELP: --select-mapping
// HELP: --dataflow=<value>
// HELP-NEXT: =auto
// HELP-NEXT: =input_stationary
// HELP-NEXT: =output_stationary
// HELP-NEXT: =weight_stationary
// HELP: --select-tiling
// HELP: --baseline=<value>
// HELP-NEXT: =none
// HELP-NEXT: =naive-order
// HELP-NEXT: =naive-64
// HELP-NEXT: =square-sk
// HELP: --outer=<value>
// HELP-NEXT: =auto
// HELP-NEXT: =m
// HELP-NEXT: =n
// HELP: --refine=<value>
// HELP-NEXT: =none
// HELP-NEXT: =machine
// HELP: --split-k=<value>
// HELP-NEXT: =auto
// HELP-NEXT: =on
// HELP-NEXT: =off

// SPLITK: for the --split-k option: Cannot find option named 'maybe'!
// BASE: for the --baseline option: Cannot find option named 'naive'!
// THR: error: sparse-threshold expects a zero fraction in [0, 1], got -0.5
// PIPE: for the --sfu-mode option: Cannot find option named 'fused'!

func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
