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
    attaches the decision as `accel.tiling = #accel.tiling<partition_m,
    partition_n, partition_k, outer = m | n, tile_m, tile_n, split_k,
    acc_bytes, loads_a, loads_b, util, cycles, strategy>` (dialects/Accel).
    The machine is the module's `accel.hw` (default preset without one). convert-graph-to-isa follows
    the attribute (loop order, partition sizes, split-K). An op that already
    carries the attribute is left alone. Options force parts of the decision
    (experiments, tests); a forced mapping that is not legal is an error.
  }];
  let options = [
    Option<"outer", "outer", "accel::OuterChoice",
           /*default=*/"accel::OuterChoice::Auto",
           "force the outer loop (default: selected)",
           [{::llvm::cl::values(
             clEnumValN(accel::OuterChoice::Auto, "auto", "selected"),
             clEnumValN(accel::OuterChoice::M, "m", "m loop outside"),
             clEnumValN(accel::OuterChoice::N, "n", "n loop outside"))}]>,
    Option<"splitK", "split-k", "accel::SplitKChoice",
           /*default=*/"accel::SplitKChoice::Auto",
           "force split-K (default: selected)",
           [{::llvm::cl::values(
             clEnumValN(accel::SplitKChoice::Auto, "auto", "selected"),
             clEnumValN(accel::SplitKChoice::On, "on",
                        "split K (largest block-aligned chunk below k unless "
                        "partition-k is given)"),
             clEnumValN(accel::SplitKChoice::Off, "off",
                        "partition_k = k"))}]>,
    Option<"partitionM", "partition-m", "int64_t", /*default=*/"0",
           "force partition_m (0 = selected)">,
    Option<"partitionN", "partition-n", "int64_t", /*default=*/"0",
           "force partition_n (0 = selected)">,
    Option<"partitionK", "partition-k", "int64_t", /*default=*/"0",
           "force partition_k (0 = selected)">,
    Option<"baseline", "baseline", "accel::TilingBaseline",
           /*default=*/"accel::TilingBaseline::None",
           "use a naive baseline instead of the spec's selection",
           [{::llvm::cl::values(
             clEnumValN(accel::TilingBaseline::None, "none",
                        "the spec's selection"),
             clEnumValN(accel::TilingBaseline::NaiveOrder, "naive-order",
                        "fixed loop order, no split"),
             clEnumValN(accel::TilingBaseline::Naive64, "naive-64",
                        "fixed 64-element blocks"),
             clEnumValN(accel::TilingBaseline::SquareSplitK, "square-sk",
                        "square partitions with split-K"))}]>,
    Option<"refine", "refine", "accel::TilingRefine",
           /*default=*/"accel::TilingRefine::None",
           "after the spec's selection (dense matmul / gemm only)",
           [{::llvm::cl::values(
             clEnumValN(accel::TilingRefine::None, "none", "keep it"),
             clEnumValN(accel::TilingRefine::Machine, "machine",
                        "take the cheapest mapping under the machine "
                        "prediction (tiling::machineSearch) when it is at "
                        "least 1 % cheaper"))}]>,
  ];
  let dependentDialects = ["::accel::AccelDialect"];
}

def SelectMapping : Pass<"select-mapping", "mlir::ModuleOp"> {
  let summary = "Choose the dataflow and the cluster-array partition of GEMM-shaped ops";
  let description = [{
    For every graph.matmul, graph.gemm and graph.conv2d, prices the 48
    (dataflow, array partition) pairs of docs/mapping.md (3 dataflows x 16
    partitions: the spec's nine over M, N, K and the seven with an unsplit
    grid dimension, `none`) with the cost model of AccelTiling
    (`selectMapping` over `candidatePartitions`: modelled machine cycles of
    the mapped kernel, including the partial-sum combine of K splits and
    idle clusters) and attaches the cheapest as
    `accel.mapping = #accel.mapping<dataflow = input_stationary |
    output_stationary | weight_stationary, array = [<dim split by the grid
    rows>, <dim split by the grid columns>], cycles = <modelled>>` with dims
    M, N, K, none. A batched graph.matmul (count > 1) also prices the seven
    partitions with B (the batch: whole instances per cluster; [B,B], [B,M],
    [B,N], [B,none], [M,B], [N,B], [none,B]).
    convert-graph-to-isa follows the attribute: cluster (r, c) computes the
    slice the partition gives it, K splits are combined by SFU add layers
    (across each grid row, then across rows). The per-cluster tile sizes are
    those of `accel.tiling` (select-tiling), clamped to the slice.

    An op that already carries `accel.mapping` (set by another pass) keeps
    it; a malformed one is a verifier error. Options force the dataflow
    and / or the partition (the rest is still chosen by cost). The machine
    is the module's `accel.hw` (default preset without one).
  }];
  let options = [
    Option<"dataflow", "dataflow", "accel::DataflowChoice",
           /*default=*/"accel::DataflowChoice::Auto",
           "force the dataflow (default: chosen by cost)",
           [{::llvm::cl::values(
             clEnumValN(accel::DataflowChoice::Auto, "auto", "chosen by cost"),
             clEnumValN(accel::DataflowChoice::InputStationary,
                        "input_stationary", "input stationary"),
             clEnumValN(accel::DataflowChoice::OutputStationary,
                        "output_stationary", "output stationary"),
             clEnumValN(accel::DataflowChoice::WeightStationary,
                        "weight_stationary", "weight stationary"))}]>,
    // A list of strings checked by the pass: MLIR's list options parse
    // each element with a parser that does not see llvm::cl::values.
    ListOption<"array", "array", "std::string",
               "force the partition: two of M, N, K, none, B (the dimension "
               "split by the grid rows, then by the grid columns), e.g. "
               "array=K,N (empty = chosen by cost)">,
  ];
  let dependentDialects = ["::accel::AccelDialect"];
}

def FoldBatchNorm : Pass<"fold-batch-norm", "mlir::ModuleOp"> {
  let summary = "Fold inference batch normalisation into the preceding "
                "conv2d or conv_transpose2d";
  let description = [{
    `graph.batch_norm(graph.conv2d(x, w, b))` with constant weights, bias and
    normalisation parameters, and a conv result used only by the batch norm,
    becomes one `graph.conv2d(x, w', b')` with
    `a = scale / sqrt(var + eps)`, `w'[o] = w[o] * a[o]`,
    `b'[o] = (b[o] - mean[o]) * a[o] + bias[o]`. The same for
    `graph.conv_transpose2d`, whose weight [C, O/g, KH, KW] is scaled along
    axis 1: `w'[c][o] = w[c][o] * a[(c / (C/g)) * (O/g) + o]`. Other batch
    norms stay and are lowered to SFU layers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FoldUpsampledMerge : Pass<"fold-upsampled-merge", "mlir::ModuleOp"> {
  let summary = "Run a convolution of (1x1 conv + nearest upsampling) as a "
                "composed convolution plus sub-pixel phase convolutions";
  let description = [{
    A feature pyramid's top-down merge at its finest level,
    `conv_b(add(conv1x1_a(x), nearest_upsample(y)))`, where `conv_b` is the
    only user of the merged map (stride 1, size-keeping pads, one group),
    becomes `add(conv_{b.a}(x), depth_to_space(phases(y + bias_a)))`:

    - `conv_{b.a}`: conv_b's kernel times conv_a's 1 x 1 weights (the map
      conv_a wrote had conv_b as its only reader, so the two linear maps
      compose), with conv_b's bias and pads;
    - `y + bias_a`: conv_a's bias, if any, added to the coarse map (a
      per-channel constant commutes with the upsampling);
    - `phases(...)`: per sub-pixel phase of conv_b over the upsampled map
      (s_h x s_w of them), one convolution of the coarse map that reads a
      small window of y with taps summed from conv_b's (see
      accel/Tiling/SubPixel.h), named `<conv_b> [phase a,b]`; the phases
      concatenated and interleaved by reshape / transpose / reshape.

    The upsampled map and the merged map are never written. Applied only
    when it needs fewer multiply-adds than the three ops it replaces and
    the new weights weigh less than the merged map written and read once. The
    summation order changes (the weights are composed in double and
    rounded once): results differ by float rounding
    (docs/passes.md, `fold-upsampled-merge`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FuseLayers : Pass<"fuse-layers", "mlir::ModuleOp"> {
  let summary = "Fuse elementwise chains, residual adds, zero pads and "
                "squeeze-excite scales into the neighbouring GEMM-shaped op";
  let description = [{
    Decides which operators run where the data already is instead of as a
    layer of their own (docs/passes.md, "fuse-layers"), and records the
    decisions as `accel.fusion = #accel.fusion<...>` on the producing
    graph.conv2d / graph.gemm / graph.matmul / graph.conv_transpose2d
    (chains only: `activations` and `residual`):

    - `activations`: a chain of elementwise operators after the producer
      whose intermediate results have one user, each a unary function the
      SFU applies per element (relu, clip, hard_sigmoid, hard_swish,
      sigmoid, leaky_relu, tanh, ... and mul / add / sub / div by a scalar
      constant); `x * hard_sigmoid(x)` with alpha = 1/6, beta = 1/2 first
      becomes graph.unary hard_swish. The fused operators keep their place
      in the graph with `accel.fused` and are not lowered as layers.
    - `residual`: a graph.add of the chain value and another tensor of the
      same type defined before the producer (a residual connection): the
      epilogue adds that tensor's tile (`residual` step).
    - `broadcast-residual` (with `residual`): the same for a tensor that
      broadcasts into the chain value, possibly reached through
      graph.reshape ops of the chain value (a feature pyramid's
      `Add(lateral, Resize(upper))` with the nearest upsampling as
      addressing): the epilogue reads the residual through the broadcast.
      When that tensor is computed after the producer, the producer (and
      the chain before the add) moves down to the add.
    - `pad`: a constant-zero graph.pad of the spatial dims whose only user
      is a conv2d input is folded into the conv's `pads`.
    - `squeeze-excite`: `x * s` with a per-channel scale s ([1, C, 1, 1],
      batch 1) whose only user is a conv2d (groups 1 or depthwise) becomes
      that conv with its weights scaled by s, so the feature map is not
      rewritten; recorded as `squeeze_excite` when s is computed from a
      global average pool of x (a squeeze-and-excite block).
  }];
  let options = [
    Option<"activations", "activations", "bool", /*default=*/"true",
           "fuse elementwise / activation chains into the epilogue">,
    Option<"residual", "residual", "bool", /*default=*/"true",
           "fuse residual adds into the epilogue">,
    Option<"broadcastResidual", "broadcast-residual", "bool",
           /*default=*/"true",
           "with residual: also fuse residual adds whose other operand is "
           "broadcast into the chain value (a nearest upsampling read as "
           "addressing), through reshapes, moving the producer down to the "
           "add when that operand is computed after it">,
    Option<"pad", "pad", "bool", /*default=*/"true",
           "fold constant-zero pads into the conv's pads">,
    Option<"squeezeExcite", "squeeze-excite", "bool", /*default=*/"true",
           "fold per-channel (squeeze-excite) scales into the next conv's "
           "weights">,
  ];
  let dependentDialects = ["::accel::AccelDialect",
                           "::mlir::arith::ArithDialect"];
}

def DepthFirstChannels : Pass<"depth-first-channels", "mlir::ModuleOp"> {
  let summary = "Run conv -> depthwise pairs depth-first, one channel slice "
                "at a time, so the map between them fits on chip";
  let description = [{
    A graph.conv2d (groups 1, one image, constant weights) whose output,
    through its fused epilogue chain, feeds only a depthwise graph.conv2d
    (groups = channels, constant weights): when the map between them does
    not fit the storage units (more than `whole-fraction` of all clusters'
    storage), the pair becomes K slices, slice k = the producer's output
    channels [k C/K, (k+1) C/K) (its input read again) followed by the
    depthwise conv of those channels, each with its chain, and a
    graph.concat of the slices along the channels replaces the depthwise
    result. K is the fewest slices dividing C whose slice of the map is at
    most `slice-fraction` of the storage, when the map's write and read
    back at the machine's DRAM bandwidth take at least
    `min-dram-to-mac-ratio` times the producer's MAC time and the K - 1
    extra reads of the producer's input cost fewer bytes than that round
    trip (accel::tiling::chooseChannelSlices); else the pair stays. Each slice's
    layer is named after its source with " [c0:c1]". Runs after
    fuse-layers (docs/passes.md, "depth-first-channels").
  }];
  let options = [
    Option<"wholeFraction", "whole-fraction", "double", /*default=*/"0.5",
           "maps up to this share of the on-chip storage stay whole">,
    Option<"sliceFraction", "slice-fraction", "double", /*default=*/"0.3",
           "largest share of the on-chip storage one slice may take">,
    Option<"minDramToMacRatio", "min-dram-to-mac-ratio", "double",
           /*default=*/"2",
           "slice only when the map's DRAM round trip takes at least this "
           "many times the producer's MAC time">,
    Option<"slices", "slices", "int64_t", /*default=*/"0",
           "slice every matching pair into this many slices (must divide "
           "its channels; 0 = the cost rule)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def DepthFirstRows : Pass<"depth-first-rows", "mlir::ModuleOp"> {
  let summary = "Run chains of halo-free layers depth-first, one band of "
                "rows at a time, so the maps between them fit on chip";
  let description = [{
    A chain of at least two layers, each the only user of the previous
    one's result (through its fused epilogue chain, whose other operands
    are splat constants), each with output rows that depend on its own
    input rows only: graph.conv2d, graph.conv_transpose2d or graph.pool2d
    whose kernel equals its stride along the rows, with no row padding and
    no row dilation. When the largest map between the layers does not fit
    the storage units (more than `whole-fraction` of all clusters'
    storage), the chain becomes K bands: band k is a graph.slice of rows
    [k H/K, (k+1) H/K) of the chain's input, then every layer (and its
    chain) on its band; a graph.concat of the bands along the rows
    replaces the chain's result. K is the fewest bands dividing H into
    whole rows at every layer whose band of the largest map is at most
    `slice-fraction` of the storage, at most `max-slices`, when the maps'
    write and read back at the machine's DRAM bandwidth take at least
    `min-dram-to-mac-ratio` times the chain's MAC time and the weights
    read again per band plus the concat's copy (none when the result has
    one image and one channel) cost fewer bytes than that round trip
    (accel::tiling::chooseRowSlices); else the chain stays. Each band's
    layer is named after its source with " [rows r0:r1]" (its output
    rows). With `halos`, graph.conv2d and graph.pool2d layers that read rows
    around their band (kernel larger than the stride, row pads) join the
    chains too, before any transposed convolution: the bands then cut the
    chain's result rows, each layer makes the rows its consumer's band
    reads (the rows next to a cut twice) with its own row pads only at the
    map's edges, and the rule also counts the chain input's rows read again
    per cut. A chain with halos the rule leaves whole leaves the layers
    after its head to chains of their own. Runs after fuse-layers and
    depth-first-channels (docs/passes.md, "depth-first-rows").
  }];
  let options = [
    Option<"wholeFraction", "whole-fraction", "double", /*default=*/"0.5",
           "maps up to this share of the on-chip storage stay whole">,
    Option<"sliceFraction", "slice-fraction", "double", /*default=*/"0.3",
           "largest share of the on-chip storage one band of a map may "
           "take">,
    Option<"minDramToMacRatio", "min-dram-to-mac-ratio", "double",
           /*default=*/"0.5",
           "slice only when the maps' DRAM round trip takes at least this "
           "many times the chain's MAC time">,
    Option<"maxSlices", "max-slices", "int64_t", /*default=*/"256",
           "at most this many bands">,
    Option<"slices", "slices", "int64_t", /*default=*/"0",
           "cut every matching chain into this many bands (must cut its "
           "rows into whole rows at every layer; 0 = the cost rule)">,
    Option<"halos", "halos", "bool", /*default=*/"false",
           "also chain layers that read rows around their band (3x3 "
           "convolutions, overlapping pools): each band makes those rows "
           "again">,
  ];
}

def AttachHardware : Pass<"accel-attach-hardware", "mlir::ModuleOp"> {
  let summary = "Attach a hardware description to the module as accel.hw";
  let description = [{
    Reads the JSON description `file` (docs/hardware.md), validates it and
    attaches it as `accel.hw = #accel.hw<name, fingerprint, desc>` to the
    module. Every pass that needs the machine reads it from there
    (`accel::moduleHardware`); without the attribute they use the built-in
    default preset. `accel-opt --accel-hw=FILE` and `accel-compile --hw FILE`
    run this pass first. A module that already carries a different machine
    is an error; a bad file is an error naming the file and the field.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"\"",
           "hardware description JSON">,
  ];
  let dependentDialects = ["::accel::AccelDialect"];
}

def TensorLabeling : Pass<"tensor-labeling", "mlir::ModuleOp"> {
  let summary = "Attach the static label and the processor part of the dynamic label to every tensor";
  let description = [{
    Label generation of spec/labels-and-splits.md (docs/labels-and-splits.md,
    "Passes"), one traversal per function: the static label (category from
    the in / out degree and the operand role, element type, dim letters,
    extents) and step S0 of the dynamic label (compute type of the module's
    `accel.hw`, the processor's dim order, tiling on its innermost dim,
    zero padding to a multiple of the tile, size of the operation dims).
    Function arguments get `accel.label = #accel.label<static = ...,
    dynamic = ...>`, op results (constants included) one entry each in
    `accel.labels`. Tensors of rank above 5 have no dim letters and stay
    unlabelled. `print` emits one remark per tensor with both labels in the
    spec's text (`static:in,float32,dim_nc,{1 1024}
    dynamic:float16,dim_nc,c=256,c=0,2048 bytes,...`).
  }];
  let options = [
    Option<"print", "print", "bool", /*default=*/"false",
           "emit a remark per tensor with its labels in the spec's text">,
  ];
  let dependentDialects = ["::accel::AccelDialect"];
}

def SplitStrategy : Pass<"split-strategy", "mlir::ModuleOp"> {
  let summary = "Split the tensors of GEMM-shaped ops by the architecture's strategy database";
  let description = [{
    Steps S15 / S16 of spec/labels-and-splits.md for every tensor of every
    graph.matmul (2-D), graph.gemm and graph.conv2d (not depthwise): looks
    up (operator + parallel mode, category) in the database of the module's
    `accel.hw` (hw/strategies/<split.database>.json), chooses the target dim
    and the pieces (C = clusters x PEs, M = memory channels) and appends
    split, store and swap to the tensor's dynamic label. A tensor whose
    consumers want different splits gets an explicit `graph.relayout` per
    disagreeing consumer. The split of the op's driving operand (weight
    first, then input) becomes the op's cluster partition: `accel.mapping`
    with `array = [D, D]` and the per-cluster `ranges` (select-mapping adds
    the dataflow). A missing database row is an error naming the operator
    and the category unless `policy=leave-unsplit`; a hand-written
    accel.mapping that contradicts the split is an error. Needs the labels
    of tensor-labeling.

    `parallel=best`: the database constrains, the cost model chooses. For
    every op, the partition of each `parallel` mode the database can split
    it with (auto's mode first, then model, data, hybrid) is priced by the
    mapping cost model (tiling::selectMapping with the partition's ranges,
    the op's accel.tiling when select-tiling ran first); the cheapest mode's
    labels and partition are applied (the earlier mode on a tie) and the
    mode is recorded as `accel.parallel = "model" | "data" | "hybrid"`.
    An op that already has an accel.mapping keeps auto's mode.

    `balance-clusters` (with parallel=best): the modes are compared with
    the pieces of `rounding`; the chosen mode is then cut again with
    rounding=clusters (one piece per core, the cluster shares balanced
    first) and that cut is taken when the cost model prices the op's first
    cut compute-bound (EXECUTE time at least the busiest channel's DMA
    time) and the balanced partition cheaper. The remark then ends with
    `, clusters N`.
  }];
  let options = [
    Option<"parallel", "parallel", "accel::ParallelChoice",
           /*default=*/"accel::ParallelChoice::Auto",
           "parallel mode of the database rows (default auto: model for "
           "matmul / gemm, data for conv2d; best: the cheapest per op)",
           [{::llvm::cl::values(
             clEnumValN(accel::ParallelChoice::Auto, "auto",
                        "model for matmul / gemm, data for conv2d"),
             clEnumValN(accel::ParallelChoice::Model, "model", "model parallel"),
             clEnumValN(accel::ParallelChoice::Data, "data", "data parallel"),
             clEnumValN(accel::ParallelChoice::Hybrid, "hybrid",
                        "model parallel inside a cluster, data across"),
             clEnumValN(accel::ParallelChoice::Best, "best",
                        "per op, the mode whose partition the mapping cost "
                        "model prices cheapest (recorded as accel.parallel)"))}]>,
    Option<"rounding", "rounding", "accel::SplitRounding",
           /*default=*/"accel::SplitRounding::Ceil",
           "piece length rounding R",
           [{::llvm::cl::values(
             clEnumValN(accel::SplitRounding::Ceil, "ceil",
                        "ceil(D / pieces), short last piece (the spec's)"),
             clEnumValN(accel::SplitRounding::Floor, "floor",
                        "floor(D / pieces), the last piece takes the rest"),
             clEnumValN(accel::SplitRounding::Balanced, "balanced",
                        "lengths differ by at most one"),
             clEnumValN(accel::SplitRounding::Clusters, "clusters",
                        "one piece per core, the cluster shares balanced "
                        "first; ops of fewer than 200000 multiply-adds "
                        "keep ceil (the default pipeline's)"))}]>,
    Option<"policy", "policy", "accel::MissingRowPolicy",
           /*default=*/"accel::MissingRowPolicy::Error",
           "what a tensor without a database row does",
           [{::llvm::cl::values(
             clEnumValN(accel::MissingRowPolicy::Error, "error",
                        "an error naming operator and category"),
             clEnumValN(accel::MissingRowPolicy::LeaveUnsplit, "leave-unsplit",
                        "keep the tensor whole (no split in its label)"))}]>,
    Option<"print", "print", "bool", /*default=*/"false",
           "emit a remark per split tensor with its labels in the spec's text">,
    Option<"partition", "partition", "bool", /*default=*/"true",
           "write the driving operand's split as the op's accel.mapping "
           "(false: labels only, select-mapping chooses the partition)">,
    Option<"balanceClusters", "balance-clusters", "bool", /*default=*/"false",
           "parallel=best: re-cut the chosen mode's pieces with "
           "rounding=clusters when the cost model prices the op "
           "compute-bound and the balanced partition cheaper (the default "
           "pipeline's)">,
    Option<"bytesTolerance", "bytes-tolerance", "double", /*default=*/"0.005",
           "parallel=best: among the modes priced within this fraction of "
           "the cheapest, take the one with the fewest modelled DMA bytes "
           "when it moves at most 4/5 of the cheapest's (0: the cheapest)">,
  ];
  let dependentDialects = ["::accel::AccelDialect"];
}

def DropLabelSplits : Pass<"drop-label-splits", "mlir::ModuleOp"> {
  let summary = "Remove the split part of every dynamic label (accel-compile --split=labels)";
  let description = [{
    Runs after select-mapping when split-strategy only labelled the tensors
    (partition=false) and select-mapping's cost model chose the cluster
    partition: the database's split (target dim, piece ranges, store, swap)
    may contradict the executed partition and the lowering reads it, so it
    is removed. Static labels and the rest of the dynamic labels (order,
    tiling, padding, size) stay. docs/labels-and-splits.md, "Split strategy
    and mapping: one decision".
  }];
  let dependentDialects = ["::accel::AccelDialect"];
}

def SelectRnnParallelism : Pass<"select-rnn-parallelism", "mlir::ModuleOp"> {
  let summary = "Choose EP / VP of every recurrent layer (spec/rnn-multithreading.md)";
  let description = [{
    For every graph.recurrent: the column-wise engine of one cluster's PE
    array (npe = pes x mac_lanes, docs/rnn.md) multiplies `ep` input
    elements by `vp` rows of the merged gate matrix per block. The pass
    searches ep over the powers of two up to `rnn.ep_max` with the cost
    model of docs/rnn.md (block cycles with the CAT limit, adder-tree depth
    and pipeline latencies; library AccelRnn, `rnn::selectEpVp`) under
    constraints (7) vp <= rows and (8) vp <= npe / ep, and attaches
    `accel.rnn_parallelism = #accel.rnn_parallelism<ep, vp, candidate_vp
    (GRU), accumulators, block_cycles, step_cycles>`. An op that already
    carries one is checked against the machine ((8), ep <= ep_max) and kept.
  }];
  let options = [
    Option<"ep", "ep", "int64_t", /*default=*/"0",
           "force EP: a power of two <= the hardware's rnn.ep_max "
           "(0: selected by the cost model)">
  ];
  let dependentDialects = ["::accel::AccelDialect"];
}

def ScheduleRnnThreads : Pass<"schedule-rnn-threads", "mlir::ModuleOp"> {
  let summary = "Assign RNN tasks to clusters and hardware thread contexts (CGMT)";
  let description = [{
    Every direction of every graph.recurrent is a task (a bidirectional
    layer is two; a layer that reads another layer's output waits for it).
    Tasks arrive at their op's `accel.arrival` (cycles, 0 when absent) or
    when the layers they read finish. The pass places each task, in program
    order, on the cluster where the coarse-grained multithreaded schedule
    of docs/rnn.md (`rnn::runInterleaved`: switch on a blocked step, round
    robin, tasks beyond the contexts queue) finishes it earliest, gives it
    the lowest thread context free at its start, and attaches
    `accel.rnn_threads = [#accel.rnn_thread<task, cluster, thread, arrival,
    after, start, finish>, ...]` (one per direction). Step cycles come from
    the op's accel.rnn_parallelism, or the cost model's choice without one.
  }];
  let options = [
    Option<"contexts", "contexts", "int64_t", /*default=*/"0",
           "thread contexts per cluster (0: the hardware's "
           "cluster.instruction_buffers; 1: no multithreading)">,
    Option<"clusters", "clusters", "int64_t", /*default=*/"0",
           "clusters to use, the first N in row-major order (0: all)">
  ];
  let dependentDialects = ["::accel::AccelDialect"];
}

def MultiNetSchedule : Pass<"multinet-schedule", "mlir::ModuleOp"> {
  let summary = "Time unit and EUs of every process of a multinet.plan (S11)";
  let description = [{
    Steps S11 / S12 of spec/multi-network.md on every `multinet.plan`: each
    process and interaction gets `placement = #multinet.placement<time T on
    (x, y), ...>` (a producer's time unit before its readers'; pinned EUs
    kept; otherwise the free EUs of its target set holding most of its
    inputs, then fewest hops, then already running its network), and each
    result that crosses the routers one `multinet.transfer` (a multicast to
    every EU of its readers that lacks it). Earlier placements and transfers
    are replaced. The algorithm is lib/MultiNet's `schedule`
    (docs/multi-network.md). An interaction whose target sets do not meet
    is an error on that interaction unless `repair-empty-interaction`.
  }];
  let options = [
    Option<"repairEmptyInteraction", "repair-empty-interaction", "bool",
           /*default=*/"false",
           "place an interaction whose target sets do not meet on the free "
           "EU nearest to its inputs instead of failing">
  ];
  let dependentDialects = ["::accel::multinet::MultiNetDialect"];
}

def MultiNetPowerGating : Pass<"multinet-power-gating", "mlir::ModuleOp"> {
  let summary = "EUs switched off per time unit of a placed multinet.plan";
  let description = [{
    `sets=full` (default) replaces the plan's `multinet.power_off` ops by the
    full sets: per time unit, every EU that runs nothing in it and nothing
    in the next (an EU needed next is starting up). `sets=given` keeps the
    ops written by hand (e.g. the spec's conservative subsets of E5) and
    checks each lies inside the full set of its time unit. The plan must be
    placed (multinet-schedule).
  }];
  let options = [
    Option<"sets", "sets", "accel::PowerOffSets",
           /*default=*/"accel::PowerOffSets::Full",
           "which power-off sets the plan carries",
           [{::llvm::cl::values(
             clEnumValN(accel::PowerOffSets::Full, "full",
                        "computed: not used in this time unit nor the next"),
             clEnumValN(accel::PowerOffSets::Given, "given",
                        "the plan's own multinet.power_off ops, checked"))}]>
  ];
  let dependentDialects = ["::accel::multinet::MultiNetDialect"];
}

def MultiNetTime : Pass<"multinet-time", "mlir::ModuleOp"> {
  let summary = "Predicted times and energy of a placed multinet.plan";
  let description = [{
    Attaches `span = #multinet.span<start, finish>` to every process (the
    dataflow style: a process fires once its inputs have arrived, its EUs
    are free and awake, and its network's `arrival` has passed) and `timing = #multinet.timing<barrier,
    dataflow, gated, energy_pj>` to the plan (barrier style: a time unit
    waits for the previous one). Arrivals take hop latency x hops plus
    bytes over the link width; with `multinet.power_off` ops, an EU off in
    time unit t - 2 wakes at the start of t - 1 and runs `wake_latency`
    cycles later. Costs are the module's accel.hw (mesh, power) or the
    default machine's.
  }];
  let dependentDialects = ["::accel::multinet::MultiNetDialect"];
}

#endif
