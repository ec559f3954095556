// RUN: accel-opt --select-tiling %s | FileCheck %s
// RUN: accel-opt --accel-hw=%S/../../../hw/bandwidth-starved.json --select-tiling %s | FileCheck %s --check-prefix=STARVED
// RUN: accel-opt --select-tiling="outer=n split-k=on" %s | FileCheck %s --check-prefix=FORCED
// RUN: accel-opt --select-tiling="partition-m=128 partition-k=128" %s | FileCheck %s --check-prefix=P64
// RUN: accel-opt --select-tiling --convert-graph-to-isa %s | FileCheck %s --check-prefix=ISA

func.func @main(%a: tensor<512x1024xf32> {accel.name = "a"}, %b: tensor<1024x512xf32> {accel.name = "b"},
                %x: tensor<100x37xf32> {accel.name = "x"}, %y: tensor<37x513xf32> {accel.name = "y"})
    -> (tensor<512x512xf32> {accel.name = "c"}, tensor<100x513xf32> {accel.name = "d"}) {
  %0 = graph.matmul %a, %b : (tensor<512x1024xf32>, tensor<1024x512xf32>) -> tensor<512x512xf32>
  %1 = graph.matmul %x, %y : (tensor<100x37xf32>, tensor<37x513xf32>) -> tensor<100x513xf32>
  return %0, %1 : tensor<512x512xf32>, tensor<100x513xf32>
}

// Default machine: 512x1024x512 splits K (4 chunks of 256, 64x64 partial sums
// in the accumulation buffers); 100x37x513 keeps A (branch F).
// CHECK: graph.matmul %arg0, %arg1 {accel.tiling = #accel.tiling<partition_m = 64, partition_n = 64, partition_k = 256, outer = m, tile_m = 64, tile_n = 64, split_k = true, acc_bytes = 16384, loads_a = 8, loads_b = 8, util = 1.000000e+00, cycles = 1048576, strategy = split_k>}
// CHECK: graph.matmul %arg2, %arg3 {accel.tiling = #accel.tiling<partition_m = 100, partition_n = 384, partition_k = 37, outer = m, tile_m = 100, tile_n = 384, split_k = false, acc_bytes = 0, loads_a = 1, loads_b = 1, {{.*}}strategy = resident_a>

// Bandwidth-starved: a larger split partition (256x256, 256 KiB of partial
// sums: the whole accumulation buffers, C in its own storage region).
// STARVED: module attributes {accel.hw = #accel.hw<name = "bandwidth-starved", fingerprint = {{[0-9]+}}, desc = {
// STARVED: {accel.tiling = #accel.tiling<partition_m = 256, partition_n = 256, partition_k = 64, outer = m, {{.*}}split_k = true, acc_bytes = 262144, loads_a = 2, loads_b = 2,
// STARVED: strategy = resident_a>

// FORCED: {accel.tiling = #accel.tiling<{{.*}}outer = n, {{.*}}split_k = true
// FORCED: {accel.tiling = #accel.tiling<{{.*}}outer = n, {{.*}}split_k = false, {{.*}}strategy = resident_b>

// P64: {accel.tiling = #accel.tiling<partition_m = 128, partition_n = 64, partition_k = 128, outer = m, {{.*}}split_k = true, acc_bytes = 32768, loads_a = 8, loads_b = 4,

// Lowered: the first partition's K chunks run back to back (A columns 0, 256,
// ... at byte offsets 0, 1024, ...) without `last`; the fourth ends it.
// ISA: isa.cluster(0, 0) {
// ISA: isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [64, 256] src_strides [1024, 1]
// ISA: isa.dma load tag 1 src 1024 dst {{[0-9]+}} shape [64, 256] src_strides [1024, 1]
// ISA: isa.execute ibuf 1{{$| patches}}
// ISA: isa.dma load tag 0 src 2048 dst
// ISA: isa.execute ibuf 1{{$| patches}}
// ISA: isa.dma load tag 1 src 3072 dst
// ISA: isa.execute ibuf 1{{$| patches}}
// ISA: isa.execute ibuf 1 shift last
