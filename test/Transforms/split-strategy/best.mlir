// parallel=best: the database constrains, the cost model chooses
// (docs/labels-and-splits.md, "Split strategy and mapping: one decision").
// Per op, every `parallel` mode the database can split it with (auto's mode
// first, then model, data, hybrid) gives a partition; the mapping cost model
// (select-mapping's, with the partition's actual ranges and the op's
// accel.tiling from select-tiling) prices each, the cheapest is applied and
// recorded as accel.parallel. Default machine (2 x 2 clusters x 4 PEs, 2
// channels, shared-cache database), the layer shapes of accel-split-bench.
// RUN: accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy="parallel=best print=true" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PRICE
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy=parallel=best %s | FileCheck %s --check-prefix=BEST
// select-mapping then chooses the dataflow with the same cost (the ranges
// included): it records the cycles parallel=best priced.
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy=parallel=best --select-mapping %s | FileCheck %s --check-prefix=MAPPED
// auto and forced modes are what they were: no accel.parallel, the mode's
// own partition even where another is cheaper.
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy %s | FileCheck %s --check-prefix=AUTO
// RUN: accel-opt --accel-hw=%hw_dir/default.json --select-tiling --tensor-labeling --split-strategy=parallel=data %s | FileCheck %s --check-prefix=DATA
// The default pipeline runs parallel=best (select-tiling first); a
// forwarded parallel= is followed exactly. Its rounding is clusters (one
// piece per core, the clusters' shares balanced first): data parallel cuts
// late_resnet's 7 rows 2, 2, 2, 1 (rounding=ceil, the pass's default:
// 4, 0, 3, 0 rows).
// RUN: accel-opt --accel-hw=%hw_dir/default.json --accel-default-pipeline=entry=fc --mlir-print-ir-after=split-strategy %s 2>&1 >/dev/null | FileCheck %s --check-prefix=BEST
// RUN: accel-opt --accel-hw=%hw_dir/default.json --accel-default-pipeline="parallel=data rounding=ceil entry=fc" --mlir-print-ir-after=split-strategy %s 2>&1 >/dev/null | FileCheck %s --check-prefix=DATA
// RUN: accel-opt --accel-hw=%hw_dir/default.json --accel-default-pipeline="parallel=data entry=fc" --mlir-print-ir-after=split-strategy %s 2>&1 >/dev/null | FileCheck %s --check-prefix=CLUSTERS

// Late ResNet (res5 1x1 2048 -> 512, 7 x 7 output). Data parallel (auto)
// splits the image rows: 7 rows in 16 core pieces dealt to the cores in
// contiguous blocks leave clusters 1 and 3 idle; model parallel splits the
// 512 output channels over all four clusters.
// PRICE: remark: parallel=best: data 136380 model 58128 hybrid 58128 -> model
// MAPPED-LABEL: func.func @late_resnet
// MAPPED: accel.mapping = #accel.mapping<dataflow = output_stationary, ranges = [0, 128, 256, 384, 512], array = [M, M], cycles = 58128>
// BEST-LABEL: func.func @late_resnet
// BEST: graph.conv2d {{.*}}accel.mapping = #accel.mapping<ranges = [0, 128, 256, 384, 512], array = [M, M]>, accel.parallel = "model"
// AUTO-LABEL: func.func @late_resnet
// AUTO-NOT: accel.parallel
// AUTO: graph.conv2d {{.*}}accel.mapping = #accel.mapping<ranges = [0, 28, 28, 49, 49], array = [N, N]>
// DATA-LABEL: func.func @late_resnet
// DATA-NOT: accel.parallel
// DATA: graph.conv2d {{.*}}accel.mapping = #accel.mapping<ranges = [0, 28, 28, 49, 49], array = [N, N]>
// CLUSTERS-LABEL: func.func @late_resnet
// CLUSTERS: graph.conv2d {{.*}}accel.mapping = #accel.mapping<ranges = [0, 14, 28, 42, 49], array = [N, N]>
func.func @late_resnet(%x: tensor<1x2048x7x7xf32>, %w: tensor<512x2048x1x1xf32>, %b: tensor<512xf32>) -> tensor<1x512x7x7xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x2048x7x7xf32>, tensor<512x2048x1x1xf32>, tensor<512xf32>) -> tensor<1x512x7x7xf32>
  return %y : tensor<1x512x7x7xf32>
}

// conv1 (7 x 7 / 2, 3 -> 64 channels, 112 x 112 output): the image rows
// feed every cluster; 64 output channels in 16 pieces of 4 would starve the
// PE rows.
// PRICE: remark: parallel=best: data 134486 model 291797 hybrid 291797 -> data
// MAPPED-LABEL: func.func @conv1
// MAPPED: accel.mapping = #accel.mapping<dataflow = output_stationary, ranges = [0, 3136, 6272, 9408, 12544], array = [N, N], cycles = 134486>
// BEST-LABEL: func.func @conv1
// BEST: graph.conv2d {{.*}}accel.mapping = #accel.mapping<ranges = [0, 3136, 6272, 9408, 12544], array = [N, N]>, accel.parallel = "data"
// AUTO-LABEL: func.func @conv1
// AUTO: graph.conv2d {{.*}}accel.mapping = #accel.mapping<ranges = [0, 3136, 6272, 9408, 12544], array = [N, N]>
func.func @conv1(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>) -> tensor<1x64x112x112xf32> {
  %y = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  return %y : tensor<1x64x112x112xf32>
}

// MLP fc1 (batch 16, 1024 -> 4096, ONNX Gemm with transB): model parallel
// (auto) splits K and pays the partial-sum combine; data parallel splits
// the 16 rows; hybrid splits the 4096 output features and is cheapest.
// PRICE: remark: parallel=best: model 168345 data 534884 hybrid 142272 -> hybrid
// MAPPED-LABEL: func.func @fc
// MAPPED: accel.mapping = #accel.mapping<dataflow = output_stationary, ranges = [0, 1024, 2048, 3072, 4096], array = [N, N], cycles = 142272>
// BEST-LABEL: func.func @fc
// BEST: graph.gemm {{.*}}accel.mapping = #accel.mapping<ranges = [0, 1024, 2048, 3072, 4096], array = [N, N]>, accel.parallel = "hybrid"
// AUTO-LABEL: func.func @fc
// AUTO: graph.gemm {{.*}}accel.mapping = #accel.mapping<ranges = [0, 256, 512, 768, 1024], array = [K, K]>
// DATA-LABEL: func.func @fc
// DATA: graph.gemm {{.*}}accel.mapping = #accel.mapping<ranges = [0, 4, 8, 12, 16], array = [M, M]>
func.func @fc(%x: tensor<16x1024xf32>, %w: tensor<4096x1024xf32>, %b: tensor<4096xf32>) -> tensor<16x4096xf32> {
  %y = graph.gemm %x, %w, %b {trans_b = true} : (tensor<16x1024xf32>, tensor<4096x1024xf32>, tensor<4096xf32>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}

// An op whose partition was chosen before (here by hand) is not re-decided:
// its labels follow auto's mode and no accel.parallel is recorded.
// BEST-LABEL: func.func @chosen_before
// BEST-NOT: accel.parallel
// BEST: graph.gemm {{.*}}accel.mapping = #accel.mapping<dataflow = output_stationary, array = [M, N]>
func.func @chosen_before(%x: tensor<16x1024xf32>, %w: tensor<4096x1024xf32>, %b: tensor<4096xf32>) -> tensor<16x4096xf32> {
  %y = graph.gemm %x, %w, %b {trans_b = true, accel.mapping = #accel.mapping<dataflow = output_stationary, array = [M, N]>} : (tensor<16x1024xf32>, tensor<4096x1024xf32>, tensor<4096xf32>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}
