// RUN: accel-opt --select-tiling %s | FileCheck %s
// RUN: accel-opt --select-tiling="hw=%S/../../../hw/bandwidth-starved.json" %s | FileCheck %s --check-prefix=STARVED
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
// CHECK: graph.matmul %arg0, %arg1 {accel.tiling = {acc_bytes = 16384 : i64, cycles = 1048576 : i64, loads_a = 8 : i64, loads_b = 8 : i64, outer = "m", partition_k = 256 : i64, partition_m = 64 : i64, partition_n = 64 : i64, split_k = true, strategy = "split-k", tile_m = 64 : i64, tile_n = 64 : i64, util = 1.000000e+00 : f64}}
// CHECK: graph.matmul %arg2, %arg3 {accel.tiling = {acc_bytes = 0 : i64, {{.*}}loads_a = 1 : i64, loads_b = 1 : i64, outer = "m", partition_k = 37 : i64, partition_m = 100 : i64, partition_n = 384 : i64, split_k = false, strategy = "resident-a"

// Bandwidth-starved: a larger split partition (256x256, 256 KiB of partial
// sums: the whole accumulation buffers, C in its own storage region).
// STARVED: {accel.tiling = {acc_bytes = 262144 : i64, {{.*}}loads_a = 2 : i64, loads_b = 2 : i64, outer = "m", partition_k = 64 : i64, partition_m = 256 : i64, partition_n = 256 : i64, split_k = true
// STARVED: strategy = "resident-a"

// FORCED: {accel.tiling = {{{.*}}outer = "n", {{.*}}split_k = true
// FORCED: {accel.tiling = {{{.*}}outer = "n", {{.*}}split_k = false, strategy = "resident-b"

// P64: {accel.tiling = {acc_bytes = 32768 : i64, {{.*}}loads_a = 8 : i64, loads_b = 4 : i64, outer = "m", partition_k = 128 : i64, partition_m = 128 : i64, partition_n = 64 : i64, split_k = true

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
