// RUN: accel-opt "--convert-graph-to-isa=residency-report" %s -o /dev/null 2>&1 | FileCheck %s
// RUN: accel-opt "--convert-graph-to-isa=residency-report residency-reserve-cap=25" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUARTER
// RUN: not accel-opt "--convert-graph-to-isa=residency-reserve-cap=91" %s 2>&1 | FileCheck %s --check-prefix=BAD

// The residency reserve (docs/passes.md, On-chip residency) on the default
// 2 x 2 grid, 512 KiB of storage per cluster. The intermediate %0 is
// 256 x 800 floats (800 KiB), 200 KiB per cluster: 39 % of a storage unit.
// Under the default cap (67 %) the GEMM kernels leave 200 KiB of every
// storage unit to it and all four pieces stay on chip; with the cap at a
// quarter no reserve can hold it, the kernels fill the storage units and
// %0 goes through DRAM.

// CHECK: remark: residency: 819200 bytes of intermediates in 4 pieces kept on chip (1638400 DMA bytes off DRAM), 0 bytes in 0 pieces spilled to DRAM (0 DMA bytes)
// QUARTER: remark: residency: 0 bytes of intermediates in 0 pieces kept on chip (0 DMA bytes off DRAM), 819200 bytes in 4 pieces spilled to DRAM (1638400 DMA bytes)
// BAD: residency-reserve-cap expects a percentage in [0, 90], got 91

func.func @main(%x: tensor<256x256xf32> {accel.name = "x"},
                %w1: tensor<256x800xf32> {accel.name = "w1"},
                %w2: tensor<800x64xf32> {accel.name = "w2"})
    -> (tensor<256x64xf32> {accel.name = "y"}) {
  %0 = graph.matmul %x, %w1 : (tensor<256x256xf32>, tensor<256x800xf32>) -> tensor<256x800xf32>
  %1 = graph.matmul %0, %w2 : (tensor<256x800xf32>, tensor<800x64xf32>) -> tensor<256x64xf32>
  return %1 : tensor<256x64xf32>
}
