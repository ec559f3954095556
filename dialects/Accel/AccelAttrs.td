//===- AccelAttrs.td - accel.tiling / accel.mapping / accel.hw -*- tablegen -*-===//
#ifndef ACCEL_ACCEL_ATTRS
#define ACCEL_ACCEL_ATTRS

include "AccelDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Accel_Attr<string name, string attrMnemonic>
    : AttrDef<Accel_Dialect, name> {
  let mnemonic = attrMnemonic;
  let genVerifyDecl = 1;
}

// An optional integer figure (printed only when present).
def Accel_OptI64 : OptionalParameter<"std::optional<int64_t>">;

// An optional `true` / `false` keyword.
def Accel_OptBool : OptionalParameter<"std::optional<bool>"> {
  let parser = "::accel::detail::parseBoolKeyword($_parser)";
  let printer = "$_printer << (*$_self ? \"true\" : \"false\")";
}

// An optional floating-point figure.
def Accel_OptF64 : OptionalParameter<"std::optional<::llvm::APFloat>"> {
  let parser = "::accel::detail::parseDouble($_parser)";
  let printer = "$_printer.printFloat(*$_self)";
}

// An optional tiling strategy keyword.
def Accel_OptStrategy : OptionalParameter<"std::optional<::accel::TilingStrategy>"> {
  let parser = "::accel::detail::parseStrategy($_parser)";
  let printer = "$_printer << ::accel::stringifyTilingStrategy(*$_self)";
}

// An optional dataflow keyword.
def Accel_OptDataflow : OptionalParameter<"std::optional<::accel::MappingDataflow>"> {
  let parser = "::accel::detail::parseDataflow($_parser)";
  let printer = "$_printer << ::accel::stringifyMappingDataflow(*$_self)";
}

def Accel_TilingAttr : Accel_Attr<"Tiling", "tiling"> {
  let summary = "The tile-size / loop-order decision of one GEMM-shaped op";
  let description = [{
    Written by select-tiling on graph.matmul, graph.gemm and graph.conv2d;
    convert-graph-to-isa follows `outer` and the three partitions. The other
    fields are the figures of the decision (docs/tiling.md) and may be
    omitted in hand-written IR; when present they are checked.

    ```mlir
    #accel.tiling<partition_m = 256, partition_n = 256, partition_k = 64,
                  outer = m, tile_m = 64, tile_n = 64, split_k = true,
                  acc_bytes = 262144, loads_a = 2, loads_b = 2, util = 0.9,
                  cycles = 1048576, strategy = split_k>
    ```

    Verified on its op: partitions >= 1 and at most the op's GEMM m, n, k;
    tiles >= 1 and at most their partition; `split_k` equal to
    `partition_k < k`.
  }];
  let parameters = (ins
    "int64_t":$partition_m,
    "int64_t":$partition_n,
    "int64_t":$partition_k,
    EnumParameter<Accel_OuterLoop>:$outer,
    Accel_OptI64:$tile_m,
    Accel_OptI64:$tile_n,
    Accel_OptBool:$split_k,
    Accel_OptI64:$acc_bytes,
    Accel_OptI64:$loads_a,
    Accel_OptI64:$loads_b,
    Accel_OptF64:$util,
    Accel_OptI64:$cycles,
    Accel_OptStrategy:$strategy
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Accel_MappingAttr : Accel_Attr<"Mapping", "mapping"> {
  let summary = "The dataflow and cluster-array partition of one GEMM-shaped op";
  let description = [{
    Written by select-mapping on graph.matmul, graph.gemm and graph.conv2d;
    convert-graph-to-isa follows it (docs/mapping.md). `array` lists the GEMM
    dimension split by the grid rows, then the one split by the grid columns
    (M, N, K or none; B, the batch of a batched graph.matmul: whole
    instances per cluster); `cycles` is the modelled cost (informational).

    ```mlir
    #accel.mapping<dataflow = weight_stationary, array = [K, N], cycles = 1234>
    ```

    split-strategy (docs/labels-and-splits.md, "Passes") writes the
    partition of a split decision: `array = [D, D]` with the explicit
    per-cluster boundaries `ranges = [b0, ..., bn]` along D (written before
    `array`: `#accel.mapping<ranges = [0, 512, 1000], array = [K, K]>`; cluster j,
    row-major, computes [b_j, b_j+1)) and no dataflow; select-mapping then
    chooses only the dataflow. Verified: ranges need array = [D, D] with D
    one of M, N, K, start at 0, never decrease, and (on the op) end at the
    GEMM's extent of D.
  }];
  let parameters = (ins
    Accel_OptDataflow:$dataflow,
    EnumParameter<Accel_ArraySplit>:$rows,
    EnumParameter<Accel_ArraySplit>:$cols,
    OptionalArrayRefParameter<"int64_t">:$ranges,
    Accel_OptI64:$cycles
  );
  let assemblyFormat = [{
    `<` (`dataflow` `=` $dataflow^ `,` ` `)?
    (`ranges` `=` `[` $ranges^ `]` `,` ` `)?
    `array` `=` `[` $rows `,` $cols `]` (`,` `cycles` `=` $cycles^)? `>`
  }];
}

def Accel_HardwareAttr : Accel_Attr<"Hardware", "hw"> {
  let summary = "The hardware description the module is compiled for";
  let description = [{
    Attached once to the module (`accel-opt --accel-hw=FILE`,
    `accel-compile --hw FILE`, or the pass `accel-attach-hardware`); every
    pass reads the machine from it (no attribute: the built-in default
    preset). `desc` is the whole description in the nesting of the JSON
    format (docs/hardware.md); `name` and `fingerprint` repeat its name and
    HardwareDesc::fingerprint so that an edited description is caught.

    ```mlir
    module attributes {accel.hw = #accel.hw<name = "default",
        fingerprint = 1234..., desc = {grid = {cols = 2, rows = 2}, ...}>}
    ```

    Verified: `desc` is a valid description (the checks of
    lib/Hardware), its name is `name` and its fingerprint `fingerprint`.
  }];
  let parameters = (ins
    StringRefParameter<"the description's name">:$name,
    "uint64_t":$fingerprint,
    "::mlir::DictionaryAttr":$desc
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// Tensor labels (spec/labels-and-splits.md, docs/labels-and-splits.md)
//===----------------------------------------------------------------------===//

// A label string field that may be empty (`""` = not set).
class Accel_OptStr<string desc> : StringRefParameter<desc, [{""}]>;

// The SFU steps of a fused epilogue: `[relu, min_imm(6.0), residual]`.
def Accel_FusionSteps : OptionalArrayRefParameter<"::accel::FusionStep"> {
  let parser = "::accel::detail::parseFusionSteps($_parser)";
  let printer = "::accel::detail::printFusionSteps($_printer, $_self)";
}

def Accel_FusionAttr : Accel_Attr<"Fusion", "fusion"> {
  let summary = "The operators fused into one GEMM-shaped op (fuse-layers)";
  let description = [{
    Written by fuse-layers (docs/passes.md, "fuse-layers") on graph.matmul,
    graph.gemm, graph.conv2d and graph.conv_transpose2d; convert-graph-to-isa
    lowers the op and what it lists as one layer.

    ```mlir
    #accel.fusion<steps = [residual, relu], fused = ["Add_7", "Relu_8"],
                  pad = "Pad_3", squeeze_excite = "Mul_5">
    ```

    - `steps`: the epilogue applied to the output tile in order on its way
      out, each an SFU unary function of the table (accel/Target/Sfu.h;
      `name(imm)` when it takes an immediate) or `residual`, the add of the
      other operand of a fused graph.add (same shape as the result).
    - `fused`: the names of the operators the epilogue replaces, in chain
      order. Those operators stay in the graph with the unit attribute
      `accel.fused` (the lowering emits no layer for them); the per-layer
      table lists them in the producer's `fused`.
    - `pad`: the name of a constant-zero graph.pad folded into the conv's
      `pads` (it is gone from the graph).
    - `squeeze_excite`: the name of a squeeze-and-excite broadcast multiply
      folded into this conv's weights (the weights are scaled per input
      channel by the excitation vector, a graph.binary mul of the weights,
      instead of the whole feature map).

    Verified: unary SFU functions only, at most one `residual`, names are
    strings, at least one field set.
  }];
  let parameters = (ins
    Accel_FusionSteps:$steps,
    OptionalParameter<"::mlir::ArrayAttr">:$fused,
    Accel_OptStr<"folded pad name">:$pad,
    Accel_OptStr<"folded squeeze-excite multiply name">:$squeeze_excite
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// Every operator folded into the op: the pad, the squeeze-excite
    /// multiply, then the epilogue chain (what LayerInfo::fused lists).
    std::vector<std::string> allFusedNames() const;
  }];
}

// The inclusive piece ranges of a split, flattened (first0, last0, first1,
// last1, ...); written `[(0, 255), (256, 511)]`.
def Accel_PieceRanges : OptionalArrayRefParameter<"int64_t"> {
  let parser = "::accel::detail::parsePieceRanges($_parser)";
  let printer = "::accel::detail::printPieceRanges($_printer, $_self)";
}

// A bracketed integer list: `[1, 1024]`.
def Accel_IntList : ArrayRefParameter<"int64_t"> {
  let parser = "::accel::detail::parseIntList($_parser)";
  let printer = "$_printer << '[' << $_self << ']'";
}

def Accel_StaticLabelAttr : Accel_Attr<"StaticLabel", "static_label"> {
  let summary = "The processor-independent label of a tensor (its role)";
  let description = [{
    Category, element type, dim order (letters n, c, h, w, d, t; outermost
    first: the order the tensor is stored in) and the extent of each dim in
    that order. `str()` gives the spec's text:

    ```mlir
    #accel.static_label<category = in, type = "float32", order = "nc", dims = [1, 1024]>
    // static:in,float32,dim_nc,{1 1024}
    ```

    Verified: the order has distinct letters of `nchwdt`, one extent
    (>= 1) per letter, a known type.
  }];
  let parameters = (ins
    EnumParameter<Accel_TensorCategory>:$category,
    StringRefParameter<"element type name">:$type,
    StringRefParameter<"dim order, outermost first">:$order,
    Accel_IntList:$dims
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// The spec's textual form: "static:in,float32,dim_nc,{1 1024}".
    std::string str() const;
  }];
}

def Accel_DynamicLabelAttr : Accel_Attr<"DynamicLabel", "dynamic_label"> {
  let summary = "The processor-dependent label of a tensor";
  let description = [{
    Step S0 (tensor-labeling): the type the processor computes in, its
    read / store dim order, tiling (`tile_dim`, `tile` values per step),
    zero padding (`pad_dim`, `pad`) and the size in bytes of the operation
    dims. Step S16 (split-strategy) adds the target split dim, the inclusive
    piece ranges, the target storage (`mem`, `cluster`, or an instance
    `mem1`, `cluster2`, 1-based) and the exchange level. `str()` gives the
    spec's text:

    ```mlir
    #accel.dynamic_label<type = "float16", order = "nc", tile_dim = "c",
        tile = 256, pad_dim = "c", pad = 0, size = 2048, split_dim = "c",
        ranges = [(0, 255), (256, 511), (512, 767), (768, 1023)],
        store = "mem", swap = none>
    // dynamic:float16,dim_nc,c=256,c=0,2048 bytes,c[(0,255),...],mem,none
    ```

    Verified: order letters as in the static label; tile_dim, pad_dim and
    split_dim letters of the order; tile >= 1 when tile_dim is set; pad
    >= 0; ranges contiguous from 0, each non-empty, present exactly when
    split_dim is; store `mem[K]` or `cluster[K]` (K >= 1).
  }];
  let parameters = (ins
    StringRefParameter<"compute type name">:$type,
    StringRefParameter<"processor dim order">:$order,
    Accel_OptStr<"dim letter of the tiling">:$tile_dim,
    DefaultValuedParameter<"int64_t", "0">:$tile,
    Accel_OptStr<"dim letter of the padding">:$pad_dim,
    DefaultValuedParameter<"int64_t", "0">:$pad,
    DefaultValuedParameter<"int64_t", "0">:$size,
    Accel_OptStr<"target split dim">:$split_dim,
    Accel_PieceRanges:$ranges,
    Accel_OptStr<"target storage space">:$store,
    DefaultValuedParameter<"::accel::SwapLevel", "::accel::SwapLevel::None">:$swap
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    /// The spec's textual form (split, store and swap only once set).
    std::string str() const;
  }];
}

// A label part: the full attribute (`#accel.static_label<...>`).
class Accel_LabelPart<string cls> : AttrParameter<"::accel::" # cls, ""> {
  let parser = "::accel::detail::parseLabelPart<::accel::" # cls # ">($_parser)";
  let printer = "$_printer << $_self";
}

def Accel_LabelAttr : Accel_Attr<"Label", "label"> {
  let summary = "The static and dynamic label of one tensor";
  let description = [{
    On a function argument (`accel.label`), and one per result in the
    `accel.labels` array of an op (constants included):

    ```mlir
    func.func @f(%i: tensor<1x1024xf32> {accel.label = #accel.label<
        static = #accel.static_label<...>, dynamic = #accel.dynamic_label<...>>})
    %o = graph.matmul %i, %w {accel.labels = [#accel.label<...>]} : ...
    ```

    Verified on its value: the static dims are the tensor's shape, the
    static type its element type, the dynamic order a permutation of the
    static one.
  }];
  let parameters = (ins
    Accel_LabelPart<"StaticLabelAttr">:$static_label,
    Accel_LabelPart<"DynamicLabelAttr">:$dynamic_label
  );
  let assemblyFormat = [{
    `<` `static` `=` $static_label `,` `dynamic` `=` $dynamic_label `>`
  }];
}

//===----------------------------------------------------------------------===//
// RNN engine decisions (spec/rnn-multithreading.md, docs/rnn.md)
//===----------------------------------------------------------------------===//

// An optional bracketed integer list: `after = [0, 2]`.
def Accel_OptIntList : OptionalArrayRefParameter<"int64_t"> {
  let parser = "::accel::detail::parseIntList($_parser)";
  let printer = "$_printer << '[' << $_self << ']'";
}

def Accel_RnnParallelismAttr : Accel_Attr<"RnnParallelism", "rnn_parallelism"> {
  let summary = "The EP / VP decision of one recurrent layer (select-rnn-parallelism)";
  let description = [{
    Written by select-rnn-parallelism on graph.recurrent: the column-wise
    matrix-vector product of each time step multiplies `ep` input elements
    by `vp` rows of the merged, row-interleaved gate matrix per block
    (weight blocks of vp x ep, docs/rnn.md). For a GRU the second phase
    (the candidate state) has its own `candidate_vp`; both phases share ep.
    The figures are the cost model's (informational, checked when given).

    ```mlir
    #accel.rnn_parallelism<ep = 32, vp = 2048, accumulators = 2,
                           block_cycles = 32, step_cycles = 47>
    ```

    Verified: `ep` a power of two, `vp` >= 1, figures >= 0; on its op
    (a graph.recurrent): constraint (7) `vp` <= the rows of the merged
    matrix (4H for an LSTM, 2H for a GRU's first phase, H for an RNN),
    `candidate_vp` only on a GRU and <= H. Constraint (8), vp <= npe / ep,
    depends on the machine: select-rnn-parallelism checks it.
  }];
  let parameters = (ins
    "int64_t":$ep,
    "int64_t":$vp,
    Accel_OptI64:$candidate_vp,
    Accel_OptI64:$accumulators,
    Accel_OptI64:$block_cycles,
    Accel_OptI64:$step_cycles
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def Accel_RnnThreadAttr : Accel_Attr<"RnnThread", "rnn_thread"> {
  let summary = "The hardware thread of one RNN task (schedule-rnn-threads)";
  let description = [{
    Written by schedule-rnn-threads on graph.recurrent, one per direction
    in the array `accel.rnn_threads` (forward first): the task id, the
    cluster whose PE array runs it, the hardware thread context `thread` (an instruction
    buffer of that cluster's control unit), the arrival cycle, the tasks
    it waits for (`after`: the layers it reads) and the predicted start
    and finish cycles of the coarse-grained multithreaded schedule.

    ```mlir
    accel.rnn_threads = [#accel.rnn_thread<task = 0, cluster = 0,
        thread = 1, arrival = 0, start = 0, finish = 900>]
    ```

    Verified: every field >= 0, start >= arrival, finish >= start, a task
    does not wait for itself; on its op (a graph.recurrent): one thread per
    direction, task ids distinct. Cluster and context bounds depend on the
    machine: schedule-rnn-threads checks them.
  }];
  let parameters = (ins
    "int64_t":$task,
    "int64_t":$cluster,
    "int64_t":$thread,
    "int64_t":$arrival,
    Accel_OptIntList:$after,
    Accel_OptI64:$start,
    Accel_OptI64:$finish
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif
