//===- Passes.td - Graph-level transforms of the accel compiler -*- tablegen -*-===//
#ifndef ACCEL_TRANSFORMS_PASSES
#define ACCEL_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def SelectTiling : Pass<"select-tiling", "mlir::ModuleOp"> {
  let summary = "Attach the tile-size / loop-order decision to GEMM-shaped ops";
  let description = [{
    Runs the tile selection of docs/tiling.md (spec/tiling.md, library
    AccelTiling) for every graph.matmul, graph.gemm and graph.conv2d on the
    parameters the GEMM kernel can honour (`kernelTilingHardware`) and
    attaches the decision as `accel.tiling = {partition_m, partition_n,
    partition_k, tile_m, tile_n, outer = "m" | "n", split_k, acc_bytes,
    loads_a, loads_b, util, cycles, strategy}`. convert-graph-to-isa follows
    the attribute (loop order, partition sizes, split-K). An op that already
    carries the attribute is left alone. Options force parts of the decision
    (experiments, tests); a forced mapping that is not legal is an error.
  }];
  let options = [
    Option<"hwPath", "hw", "std::string", /*default=*/"\"\"",
           "hardware description JSON (empty = built-in default preset)">,
    Option<"outer", "outer", "std::string", /*default=*/"\"\"",
           "force the outer loop: m | n (empty = selected)">,
    Option<"splitK", "split-k", "std::string", /*default=*/"\"\"",
           "force split-K: on | off (empty = selected)">,
    Option<"partitionM", "partition-m", "int64_t", /*default=*/"0",
           "force partition_m (0 = selected)">,
    Option<"partitionN", "partition-n", "int64_t", /*default=*/"0",
           "force partition_n (0 = selected)">,
    Option<"partitionK", "partition-k", "int64_t", /*default=*/"0",
           "force partition_k (0 = selected)">,
    Option<"baseline", "baseline", "std::string", /*default=*/"\"\"",
           "use a naive baseline instead: naive-order | naive-64 | square-sk">,
    Option<"refine", "refine", "std::string", /*default=*/"\"\"",
           "after the spec's selection: machine = take the cheapest mapping "
           "under the machine prediction (tiling::machineSearch) when it is "
           "at least 1 % cheaper (dense matmul / gemm only; empty = off)">,
  ];
}

def SelectMapping : Pass<"select-mapping", "mlir::ModuleOp"> {
  let summary = "Choose the dataflow and the cluster-array partition of GEMM-shaped ops";
  let description = [{
    For every graph.matmul, graph.gemm and graph.conv2d, prices the 27
    (dataflow, array partition) pairs of docs/mapping.md with the cost model
    of AccelTiling (`allMappingCosts`: modelled machine cycles of the mapped
    kernel, including the partial-sum combine of K splits and idle clusters)
    and attaches the cheapest as
    `accel.mapping = {dataflow = "input_stationary" | "output_stationary" |
    "weight_stationary", array = [<dim split by the grid rows>, <dim split by
    the grid columns>], cycles = <modelled>}` with dims "M", "N", "K".
    convert-graph-to-isa follows the attribute: cluster (r, c) computes the
    slice the partition gives it, K splits are combined by SFU add layers
    (across each grid row, then across rows). The per-cluster tile sizes are
    those of `accel.tiling` (select-tiling), clamped to the slice.

    An op that already carries `accel.mapping` (set by another pass) keeps
    it; a malformed one is an error. Options force the dataflow and / or the
    partition (the rest is still chosen by cost).
  }];
  let options = [
    Option<"hwPath", "hw", "std::string", /*default=*/"\"\"",
           "hardware description JSON (empty = built-in default preset)">,
    Option<"dataflow", "dataflow", "std::string", /*default=*/"\"\"",
           "force the dataflow: input_stationary | output_stationary | "
           "weight_stationary (empty = chosen by cost)">,
    ListOption<"array", "array", "std::string",
               "force the partition: two of M, N, K, none (grid rows, grid "
               "columns), e.g. array=K,N (empty = chosen by cost)">,
  ];
}

def FoldBatchNorm : Pass<"fold-batch-norm", "mlir::ModuleOp"> {
  let summary = "Fold inference batch normalisation into the preceding conv2d";
  let description = [{
    `graph.batch_norm(graph.conv2d(x, w, b))` with constant weights, bias and
    normalisation parameters, and a conv result used only by the batch norm,
    becomes one `graph.conv2d(x, w', b')` with
    `a = scale / sqrt(var + eps)`, `w'[o] = w[o] * a[o]`,
    `b'[o] = (b[o] - mean[o]) * a[o] + bias[o]`. Other batch norms stay and
    are lowered to SFU layers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif
