// One decision (docs/labels-and-splits.md, "Split strategy and mapping: one
// decision"). By default (accel-compile --split=partition) the strategy
// database's split of the driving operand (the weight, K = c for matmul
// model parallel) is the cluster partition: [K, K] with its ranges, and
// select-mapping adds only the dataflow.
// RUN: accel-opt %s --tensor-labeling --split-strategy --select-tiling --select-mapping | FileCheck %s --check-prefix=PART
// PART: arith.constant {{.*}}split_dim = "c", ranges = [(0, 63), (64, 127),
// PART: graph.matmul {{.*}}split_dim = "c", ranges = [(0, 255)], store = "cluster", swap = core>>], accel.mapping = #accel.mapping<dataflow = output_stationary, ranges = [0, 256, 512, 768, 1024], array = [K, K]
//
// --split=labels: split-strategy only labels (partition=false), the cost
// model picks [N, N], and drop-label-splits removes the database's split
// that would contradict it; the rest of each label stays.
// RUN: accel-opt %s --tensor-labeling --split-strategy=partition=false --select-tiling --select-mapping --drop-label-splits | FileCheck %s --check-prefix=LABELS
// LABELS: arith.constant {{.*}}accel.labels = [#accel.label<static = #accel.static_label<category = cw, type = "float32", order = "cn", dims = [1024, 256]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc", tile_dim = "c", tile = 64, pad_dim = "c", size = 1048576>>]
// LABELS-NOT: split_dim
// LABELS-NOT: ranges = [0
// LABELS: graph.matmul {{.*}}accel.mapping = #accel.mapping<dataflow = output_stationary, array = [N, N]
// LABELS-NOT: split_dim
//
// Without drop-label-splits the labels contradict the executed partition
// (a c split of the weight under an [N, N] partition): what it removes.
// RUN: accel-opt %s --tensor-labeling --split-strategy=partition=false --select-tiling --select-mapping | FileCheck %s --check-prefix=STALE
// STALE: graph.matmul {{.*}}split_dim = "c"{{.*}}array = [N, N]

func.func @fc(%x: tensor<64x1024xf32>) -> tensor<64x256xf32> {
  %w = arith.constant dense<1.0> : tensor<1024x256xf32>
  %y = graph.matmul %x, %w : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
