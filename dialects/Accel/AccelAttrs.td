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
    (M, N, K or none); `cycles` is the modelled cost (informational).

    ```mlir
    #accel.mapping<dataflow = weight_stationary, array = [K, N], cycles = 1234>
    ```
  }];
  let parameters = (ins
    EnumParameter<Accel_MappingDataflow>:$dataflow,
    EnumParameter<Accel_ArraySplit>:$rows,
    EnumParameter<Accel_ArraySplit>:$cols,
    Accel_OptI64:$cycles
  );
  let assemblyFormat = [{
    `<` `dataflow` `=` $dataflow `,` `array` `=` `[` $rows `,` $cols `]`
    (`,` `cycles` `=` $cycles^)? `>`
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

#endif
