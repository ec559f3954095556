// RUN: accel-opt --accel-hw=%S/../../../hw/bandwidth-starved.json --select-tiling %s | FileCheck %s --check-prefix=SPEC
// RUN: accel-opt --accel-hw=%S/../../../hw/bandwidth-starved.json --select-tiling="refine=machine" %s | FileCheck %s --check-prefix=REFINED
// RUN: not accel-opt --select-tiling="refine=machine outer=m" %s 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: not accel-opt --select-tiling="refine=cluster" %s 2>&1 | FileCheck %s --check-prefix=BAD
//
// 256x1024x256 on bandwidth-starved: the spec's single-cluster model takes
// one 256x256 split-K partition (fewest loads), which keeps one of the four
// clusters busy; refine=machine prices the kernel on the whole machine
// (tiling::machineCycles) and deals four 128x128 partitions instead.

func.func @main(%a: tensor<256x1024xf32> {accel.name = "a"}, %b: tensor<1024x256xf32> {accel.name = "b"}) -> (tensor<256x256xf32> {accel.name = "c"}) {
  %0 = graph.matmul %a, %b : (tensor<256x1024xf32>, tensor<1024x256xf32>) -> tensor<256x256xf32>
  return %0 : tensor<256x256xf32>
}

// SPEC: partition_m = 256, partition_n = 256, partition_k = 64, {{.*}}split_k = true
// REFINED: partition_m = 128, partition_n = 128, partition_k = 64, {{.*}}split_k = true
// FORCED: error: select-tiling: refine cannot be combined with a forced decision or a baseline
// BAD: for the --refine option: Cannot find option named 'cluster'!
