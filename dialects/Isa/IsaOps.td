//===- IsaOps.td - Buffer-level ISA dialect ----------------*- tablegen -*-===//
//
// One op per command and instruction of spec/isa.md. A program is a list of
// per-cluster command streams; there are no SSA values at this level, only
// storage-unit and DRAM byte addresses, exactly as in the binary. Each op maps
// 1:1 onto a field of accel::Program (include/accel/Target/Program.h), so
// `accel-translate` can write and read it without loss.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_ISA_OPS
#define ACCEL_ISA_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Isa_Dialect : Dialect {
  let name = "isa";
  let cppNamespace = "::accel::isa";
  let summary = "Commands and instructions of the accelerator (spec/isa.md)";
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Isa_LoadStream : I32EnumAttr<"LoadStream", "LD stream (bits 3-4)", [
    I32EnumAttrCase<"acts", 0>, I32EnumAttrCase<"weights", 1>,
    I32EnumAttrCase<"psums", 2>, I32EnumAttrCase<"sparse_weights", 3>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}
def Isa_LoadStreamAttr : EnumAttr<Isa_Dialect, Isa_LoadStream, "load_stream">;

def Isa_StoreSource : I32EnumAttr<"StoreSource", "ST source (bits 3-4)", [
    I32EnumAttrCase<"acc", 0>, I32EnumAttrCase<"inbuf", 1>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}
def Isa_StoreSourceAttr : EnumAttr<Isa_Dialect, Isa_StoreSource, "store_source">;

def Isa_SpuType : I32EnumAttr<"SpuType", "SPU function type (bits 3-4)", [
    I32EnumAttrCase<"unary", 0>, I32EnumAttrCase<"binary", 1>,
    I32EnumAttrCase<"reduce", 2>, I32EnumAttrCase<"copy", 3>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}
def Isa_SpuTypeAttr : EnumAttr<Isa_Dialect, Isa_SpuType, "spu_type">;

def Isa_QueueMode : I32EnumAttr<"QueueMode", "weight-queue mode", [
    I32EnumAttrCase<"SQ", 0>, I32EnumAttrCase<"RQ", 1>,
    I32EnumAttrCase<"SW", 2>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}

def Isa_SfuFunc : I32EnumAttr<"SfuFunc", "SFU function (accel/Target/Sfu.h)", [
    I32EnumAttrCase<"none", 0>,
    I32EnumAttrCase<"relu", 1>,
    I32EnumAttrCase<"add", 2>,
    I32EnumAttrCase<"sub", 3>,
    I32EnumAttrCase<"mul", 4>,
    I32EnumAttrCase<"max", 5>,
    I32EnumAttrCase<"min", 6>,
    I32EnumAttrCase<"scale", 7>,
    I32EnumAttrCase<"add_imm", 8>,
    I32EnumAttrCase<"max_imm", 9>,
    I32EnumAttrCase<"min_imm", 10>,
    I32EnumAttrCase<"fill", 11>,
    I32EnumAttrCase<"neg", 12>,
    I32EnumAttrCase<"abs", 13>,
    I32EnumAttrCase<"reciprocal", 14>,
    I32EnumAttrCase<"sqrt", 15>,
    I32EnumAttrCase<"exp", 16>,
    I32EnumAttrCase<"log", 17>,
    I32EnumAttrCase<"erf", 18>,
    I32EnumAttrCase<"floor", 19>,
    I32EnumAttrCase<"ceil", 20>,
    I32EnumAttrCase<"sign", 21>,
    I32EnumAttrCase<"sin", 22>,
    I32EnumAttrCase<"cos", 23>,
    I32EnumAttrCase<"tan", 24>,
    I32EnumAttrCase<"sigmoid", 25>,
    I32EnumAttrCase<"tanh", 26>,
    I32EnumAttrCase<"softplus", 27>,
    I32EnumAttrCase<"softsign", 28>,
    I32EnumAttrCase<"leaky_relu", 29>,
    I32EnumAttrCase<"elu", 30>,
    I32EnumAttrCase<"celu", 31>,
    I32EnumAttrCase<"hard_swish", 32>,
    I32EnumAttrCase<"thresholded_relu", 33>,
    I32EnumAttrCase<"round", 34>,
    I32EnumAttrCase<"square", 35>,
    I32EnumAttrCase<"pow_imm", 36>,
    I32EnumAttrCase<"div", 40>,
    I32EnumAttrCase<"pow", 41>,
    I32EnumAttrCase<"prelu", 42>,
    I32EnumAttrCase<"equal", 43>,
    I32EnumAttrCase<"less", 44>,
    I32EnumAttrCase<"greater", 45>,
    I32EnumAttrCase<"less_equal", 46>,
    I32EnumAttrCase<"greater_equal", 47>,
    I32EnumAttrCase<"mask_keep", 48>,
    I32EnumAttrCase<"mask_drop", 49>,
    I32EnumAttrCase<"add_row", 56>,
    I32EnumAttrCase<"sub_row", 57>,
    I32EnumAttrCase<"mul_row", 58>,
    I32EnumAttrCase<"div_row", 59>,
    I32EnumAttrCase<"argmax", 60>,
    I32EnumAttrCase<"argmin", 61>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}

def Isa_DmaDir : I32EnumAttr<"DmaDir", "DMA direction", [
    I32EnumAttrCase<"load", 0>, I32EnumAttrCase<"store", 1>,
    I32EnumAttrCase<"dram_copy", 2>, I32EnumAttrCase<"remote_load", 3>,
    I32EnumAttrCase<"local_copy", 4>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}
def Isa_DmaDirAttr : EnumAttr<Isa_Dialect, Isa_DmaDir, "dma_dir">;

def Isa_RecurCell : I32EnumAttr<"RecurCell", "recurrent cell of a RECUR task", [
    I32EnumAttrCase<"rnn", 0>, I32EnumAttrCase<"gru", 1>,
    I32EnumAttrCase<"lstm", 2>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}
def Isa_RecurCellAttr : EnumAttr<Isa_Dialect, Isa_RecurCell, "recur_cell">;

def Isa_PatchField : I32EnumAttr<"PatchField", "register-file field", [
    I32EnumAttrCase<"addr", 0>, I32EnumAttrCase<"rows", 1>,
    I32EnumAttrCase<"cols", 2>, I32EnumAttrCase<"depth", 3>,
    I32EnumAttrCase<"base", 4>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}

def Isa_IoKind : I32EnumAttr<"IoKind", "program input or output", [
    I32EnumAttrCase<"input", 0>, I32EnumAttrCase<"output", 1>]> {
  let cppNamespace = "::accel::isa";
  let genSpecializedAttr = 0;
}
def Isa_IoKindAttr : EnumAttr<Isa_Dialect, Isa_IoKind, "io_kind">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class Isa_Attr<string name, string mnemonic_> : AttrDef<Isa_Dialect, name> {
  let mnemonic = mnemonic_;
}

def Isa_OperandsAttr : Isa_Attr<"Operands", "operands"> {
  let summary = "one register-file operand record";
  let description = [{
    The operands of one instruction (accel::OperandRecord). Fields equal to
    their defaults are omitted when printed:
    `#isa.operands<addr = 4096, rows = 64, cols = 32, row_stride = 32>`.
    `imm` is an f32 attribute (absent = 0.0): `imm = 5.000000e-01 : f32`.
    Control-unit fields: `base` (MAC index-compare base), `step` (scalar-unit
    increment, needs `pipeline = 2`), `pipeline` (1 = ID-FO, 2 =
    ID-FO-SU-WB), `across_pes` (SPU reduce across the cluster's PEs,
    decoupled SFU mode), `pe_addrs = array<i64: ...>` (per-PE storage
    addresses precomputed by the compiler).
  }];
  let parameters = (ins
    DefaultValuedParameter<"uint32_t", "0">:$addr,
    DefaultValuedParameter<"uint32_t", "1">:$rows,
    DefaultValuedParameter<"uint32_t", "1">:$cols,
    DefaultValuedParameter<"int32_t", "0">:$row_stride,
    DefaultValuedParameter<"int32_t", "1">:$col_stride,
    DefaultValuedParameter<"uint32_t", "0">:$pe_rows,
    DefaultValuedParameter<"uint32_t", "0">:$depth,
    DefaultValuedParameter<"uint32_t", "1">:$repeat,
    DefaultValuedParameter<"::accel::isa::QueueMode",
                           "::accel::isa::QueueMode::SQ">:$queue_mode,
    DefaultValuedParameter<"::accel::isa::SfuFunc",
                           "::accel::isa::SfuFunc::none">:$func,
    DefaultValuedParameter<"::mlir::FloatAttr", "::mlir::FloatAttr()">:$imm,
    DefaultValuedParameter<"uint32_t", "0">:$base,
    DefaultValuedParameter<"int32_t", "0">:$step,
    DefaultValuedParameter<"uint32_t", "1">:$pipeline,
    DefaultValuedParameter<"bool", "false">:$across_pes,
    DefaultValuedParameter<"::mlir::DenseI64ArrayAttr",
                           "::mlir::DenseI64ArrayAttr()">:$pe_addrs);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Isa_ClusterAttr : Isa_Attr<"Cluster", "cluster"> {
  let summary = "a cluster of the grid by (row, column)";
  let description = [{
    Names a cluster: a SEND / SIGNAL target, the source of a remote_load DMA,
    the owner of a constant packet. Inside those ops it prints as `(row, col)`;
    the generic form is `#isa.cluster<row, col>`. The binary stores the
    row-major index `row * cols + col`.
  }];
  let parameters = (ins "uint32_t":$row, "uint32_t":$col);
  let assemblyFormat = "`<` $row `,` $col `>`";
}
def Isa_ClusterListAttr
    : TypedArrayAttrBase<Isa_ClusterAttr, "list of clusters">;

def Isa_DramPieceAttr : Isa_Attr<"DramPiece", "piece"> {
  let summary = "bytes [offset, offset + bytes) of a tensor's image in DRAM";
  let description = [{
    One piece of an `isa.io` tensor placed on several memory channels
    (accel::DramPiece): bytes [`offset`, `offset + bytes`) of the tensor's
    dense row-major image, held at DRAM address `addr`. Inside `isa.io` a
    piece prints as the half-open byte range of the image and its address,
    `[0, 512) at 4096`; the generic form is
    `#isa.piece<offset = 0, bytes = 512, addr = 4096>`.
  }];
  let parameters = (ins "uint64_t":$offset, "uint64_t":$bytes,
                    "uint64_t":$addr);
  let assemblyFormat = "`<` struct(params) `>`";
}
def Isa_DramPieceListAttr
    : TypedArrayAttrBase<Isa_DramPieceAttr, "list of DRAM pieces">;

def Isa_LayerAttr : Isa_Attr<"Layer", "layer"> {
  let summary = "one entry of the layer table (per-layer attribution)";
  let description = [{
    A network layer (accel::LayerInfo): the source operator `name` (the ONNX
    node name, or the MLIR location of a TOSA / linalg / graph op) of kind
    `op`, its dense multiply-adds `macs`, the bytes it must move at least
    (`compulsory_bytes`: its constant operands, `weight_bytes`, plus the
    network inputs it reads and outputs it writes) and the source operators
    `fused` into it. The data flow, for process formation (accel-compile
    --networks --emit=plan), follows: the earlier layers whose results it
    reads (`inputs`, indices), the program inputs it reads and outputs it
    writes (`input_symbols`, `output_symbols`) and the bytes of its result
    (`output_bytes`). The binary does not carry the data flow. `isa.program`
    lists the layers as `layers [...]`; a command's `layer N` is an index
    into that list:

    ```
    #isa.layer<name = "conv1", op = "Conv", macs = 118013952,
               compulsory_bytes = 616448, weight_bytes = 37888,
               fused = ["bn1", "relu1"], inputs = array<i64: 0>,
               output_bytes = 3211264>
    ```
  }];
  let parameters = (ins StringRefParameter<"source operator name">:$name,
                    StringRefParameter<"source operator kind">:$op,
                    DefaultValuedParameter<"uint64_t", "0">:$macs,
                    DefaultValuedParameter<"uint64_t", "0">:$compulsory_bytes,
                    DefaultValuedParameter<"uint64_t", "0">:$weight_bytes,
                    DefaultValuedParameter<"::mlir::ArrayAttr",
                                           "::mlir::ArrayAttr()">:$fused,
                    DefaultValuedParameter<"::mlir::DenseI64ArrayAttr",
                                           "::mlir::DenseI64ArrayAttr()">:$inputs,
                    DefaultValuedParameter<"::mlir::ArrayAttr",
                                           "::mlir::ArrayAttr()">:$input_symbols,
                    DefaultValuedParameter<"::mlir::ArrayAttr",
                                           "::mlir::ArrayAttr()">:$output_symbols,
                    DefaultValuedParameter<"uint64_t", "0">:$output_bytes);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}
def Isa_LayerListAttr
    : TypedArrayAttrBase<Isa_LayerAttr, "layer table">;

def Isa_PatchAttr : Isa_Attr<"Patch", "patch"> {
  let summary = "EXECUTE data: overwrite one register-file field";
  let parameters = (ins "uint32_t":$instr,
                    EnumParameter<Isa_PatchField>:$field, "uint32_t":$value);
  let assemblyFormat = "`<` $instr `,` $field `,` $value `>`";
}

//===----------------------------------------------------------------------===//
// Program structure
//===----------------------------------------------------------------------===//

class Isa_Op<string mnemonic, list<Trait> traits = []>
    : Op<Isa_Dialect, mnemonic, traits>;

/// Commands: an optional `layer N` (index into the enclosing isa.program's
/// `layers`), checked by the InLayerTable trait.
def Isa_InLayerTable : NativeOpTrait<"InLayerTable"> {
  let cppNamespace = "::accel::isa";
}
class Isa_CommandOp<string mnemonic, list<Trait> traits = []>
    : Isa_Op<mnemonic, !listconcat([HasParent<"ClusterOp">, Isa_InLayerTable],
                                   traits)>;

def Isa_ProgramOp : Isa_Op<"program", [SingleBlock, NoTerminator,
                                       IsolatedFromAbove]> {
  let summary = "a whole accelerator program (one binary)";
  let description = [{
    Holds the I/O symbols, constant DRAM data, the constant packets of the
    cores (`isa.packet`) and one `isa.cluster` stream per cluster of the
    `rows` x `cols` grid. `layers` is the layer table (`#isa.layer`, one per
    line), which the commands' `layer N` index; programs written by hand
    may omit both.
  }];
  let arguments = (ins I32Attr:$rows, I32Attr:$cols, I64Attr:$dram_size,
                   I64Attr:$hw_fingerprint,
                   OptionalAttr<Isa_LayerListAttr>:$layers);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `grid` `(` $rows `x` $cols `)` `dram` $dram_size `hw` $hw_fingerprint
    (`layers` custom<LayerTable>($layers)^)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Isa_IoOp : Isa_Op<"io", [HasParent<"ProgramOp">]> {
  let summary = "a program input or output tensor in DRAM";
  let description = [{
    A tensor the caller writes before the run (`input`) or reads after it
    (`output`), dense and row-major at DRAM address `addr`. A tensor placed
    on several memory channels lists its `pieces` instead (Symbol::pieces):
    byte ranges of the image, in ascending order of their start, that
    together cover the whole image; `addr` is then the first piece's
    address. Replicas of a range are pieces with the same range: an input
    is written to every piece, an output is read from the first piece that
    covers each byte.

    ```
    isa.io input "x" at 4096 pieces [[0, 512) at 4096, [0, 512) at 1052672,
                                     [512, 1024) at 1053184] : tensor<256xf32>
    ```
  }];
  let arguments = (ins Isa_IoKindAttr:$kind, StrAttr:$sym_name,
                   I64Attr:$addr, TypeAttrOf<AnyRankedTensor>:$type,
                   OptionalAttr<Isa_DramPieceListAttr>:$pieces);
  let assemblyFormat = [{
    $kind $sym_name `at` $addr (`pieces` custom<DramPieces>($pieces)^)?
    attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def Isa_DataOp : Isa_Op<"data", [HasParent<"ProgramOp">]> {
  let summary = "constant bytes (weights) placed in DRAM before the run";
  let description = [{
    The bytes of `value` at DRAM address `addr` and at every address of
    `replicas` (ConstSegment::replicas: one copy in each memory channel whose
    clusters read them), all written before the run:
    `isa.data at 4096 replicas [1052672] = dense<...> : tensor<4xf32>`.
  }];
  let arguments = (ins I64Attr:$addr, ElementsAttr:$value,
                   OptionalAttr<DenseI64ArrayAttr>:$replicas);
  let assemblyFormat = [{
    `at` $addr (`replicas` $replicas^)? `=` $value attr-dict
  }];
  let hasVerifier = 1;
}

def Isa_PacketOp : Isa_Op<"packet", [HasParent<"ProgramOp">, SingleBlock,
                                     NoTerminator]> {
  let summary = "the constant packet of one core (loaded before the run)";
  let description = [{
    The constant packet of core (PE) `core` of cluster `cluster`: the region
    lists the blocks of the split constants the core computes with (bytes
    already placed by `isa.data`), `marker` holds the bytes of its marker
    area (constant total, block sizes and offsets, hidden sizes, address
    table) written at DRAM address `marker_addr` before execution:

    ```
    isa.packet cluster (0, 1) core 2 marker at 65536 = dense<[3072, 2048]> : tensor<2xi64> {
      isa.block "w" at 8192 bytes 2048
    }
    ```

    Like `isa.data`, the marker accepts any dense integer or float tensor of
    whole-byte elements (its little-endian bytes); the disassembler prints
    i64 words when the byte count is a non-zero multiple of 8, else i8.
  }];
  let arguments = (ins Isa_ClusterAttr:$cluster, I32Attr:$core,
                   I64Attr:$marker_addr, ElementsAttr:$marker);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `cluster` custom<ClusterCoord>($cluster) `core` $core `marker` `at`
    $marker_addr `=` $marker attr-dict-with-keyword $body
  }];
}

def Isa_BlockOp : Isa_Op<"block", [HasParent<"PacketOp">]> {
  let summary = "one block of a split constant inside a constant packet";
  let arguments = (ins StrAttr:$name, I64Attr:$addr, I64Attr:$bytes);
  let assemblyFormat = "$name `at` $addr `bytes` $bytes attr-dict";
}

def Isa_ClusterOp : Isa_Op<"cluster", [HasParent<"ProgramOp">, SingleBlock,
                                       NoTerminator]> {
  let summary = "the command stream of one cluster's control unit";
  let arguments = (ins I32Attr:$row, I32Attr:$col);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "`(` $row `,` $col `)` attr-dict-with-keyword $body";
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

def Isa_ConfigOp : Isa_CommandOp<"config", [SingleBlock, NoTerminator]> {
  let summary = "CONFIG: load an instruction sequence and its operands";
  let description = [{
    8-bit command `0 rr bbbbb`. The region holds the instructions stored into
    instruction buffer `ibuf`; each instruction's operand record goes to the
    register file.
  }];
  let arguments = (ins I32Attr:$ibuf, OptionalAttr<I32Attr>:$layer);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat =
      "`ibuf` $ibuf (`layer` $layer^)? attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Isa_ExecuteOp : Isa_CommandOp<"execute"> {
  let summary = "EXECUTE: run an instruction buffer on new data";
  let description = [{
    8-bit command `1 s l bbbbb`. `shift`: after the run the PEs shift their
    accumulated results out (accumulation buffers restart from zero). `last`:
    this is the last data segment of the input, so ST instructions that read
    an accumulation buffer write the results back. `patches` are the new data:
    register-file fields overwritten before the run.
  }];
  let arguments = (ins I32Attr:$ibuf, UnitAttr:$shift, UnitAttr:$last,
                   DefaultValuedAttr<TypedArrayAttrBase<Isa_PatchAttr,
                       "patch list">, "{}">:$patches,
                   OptionalAttr<I32Attr>:$layer);
  let assemblyFormat = [{
    `ibuf` $ibuf (`shift` $shift^)? (`last` $last^)? (`patches` $patches^)?
    (`layer` $layer^)? attr-dict
  }];
  let hasVerifier = 1;
}

def Isa_DmaOp : Isa_CommandOp<"dma"> {
  let summary = "command-processor DMA of a strided 4-D box (asynchronous)";
  let description = [{
    `load`: DRAM -> storage unit, `store`: storage unit -> DRAM, `dram_copy`:
    DRAM -> DRAM, `remote_load from (r, c)`: the storage unit of cluster
    (r, c) -> this cluster's storage unit over the mesh (NUMA cost = route
    hops; only on machines whose storage unit is a shared cluster cache),
    `local_copy`: this cluster's storage unit -> itself at the storage
    bandwidth (an intermediate kept on chip, no DRAM bytes).
    Only remote_load names a source cluster, and never its own cluster.
  }];
  let arguments = (ins Isa_DmaDirAttr:$dir, I32Attr:$tag, I64Attr:$src,
                   I64Attr:$dst, DenseI64ArrayAttr:$shape,
                   DenseI64ArrayAttr:$src_strides,
                   DenseI64ArrayAttr:$dst_strides,
                   DefaultValuedAttr<I32Attr, "4">:$elem_bytes,
                   OptionalAttr<Isa_ClusterAttr>:$src_cluster,
                   OptionalAttr<I32Attr>:$layer);
  let assemblyFormat = [{
    $dir (`from` custom<ClusterCoord>($src_cluster)^)? `tag` $tag `src` $src
    `dst` $dst `shape` $shape `src_strides` $src_strides
    `dst_strides` $dst_strides (`layer` $layer^)? attr-dict
  }];
  let hasVerifier = 1;
}

def Isa_WaitOp : Isa_CommandOp<"wait"> {
  let summary = "stall the control unit until DMA tags complete / PEs idle";
  let arguments = (ins DenseI32ArrayAttr:$tags, UnitAttr:$pe, OptionalAttr<I32Attr>:$layer);
  let assemblyFormat =
      "`tags` $tags (`pe` $pe^)? (`layer` $layer^)? attr-dict";
  let hasVerifier = 1;
}

def Isa_BarrierOp : Isa_CommandOp<"barrier"> {
  let summary = "all clusters meet before any goes on";
  let arguments = (ins I32Attr:$id, OptionalAttr<I32Attr>:$layer);
  let assemblyFormat = "$id (`layer` $layer^)? attr-dict";
}

def Isa_SendOp : Isa_CommandOp<"send"> {
  let summary = "SEND: storage bytes to one or more clusters over the mesh";
  let description = [{
    Copies `bytes` contiguous bytes from this cluster's storage unit at `src`
    to storage address `dst` of every target cluster (a multicast when there
    are several; XY routes, links shared by the routes carry the data once).
    When the data has arrived at a target, that target's semaphore `sem` is
    incremented by one. DMA tag `tag` of the sender completes when the last
    byte has left (after a WAIT on it the source may be overwritten). A
    target equal to the sender is a local copy.

    Targets are `(row, col)` pairs inside the grid in ascending row-major
    order without repeats:
    `isa.send src 0 dst 4096 bytes 1024 to [(0, 1), (1, 1)] sem 3 tag 1`.
  }];
  let arguments = (ins I32Attr:$src, I32Attr:$dst, I32Attr:$bytes,
                   Isa_ClusterListAttr:$targets, I32Attr:$sem, I32Attr:$tag,
                   OptionalAttr<I32Attr>:$layer);
  let assemblyFormat = [{
    `src` $src `dst` $dst `bytes` $bytes `to` custom<ClusterList>($targets)
    `sem` $sem `tag` $tag (`layer` $layer^)? attr-dict
  }];
  let hasVerifier = 1;
}

def Isa_SignalOp : Isa_CommandOp<"signal"> {
  let summary = "SIGNAL: increment a semaphore of one or more clusters";
  let description = [{
    No data: semaphore `sem` of every target is incremented by one after the
    route's hop latency (at least one cycle). Targets as for `isa.send`:
    `isa.signal to [(1, 0)] sem 2`.
  }];
  let arguments = (ins Isa_ClusterListAttr:$targets, I32Attr:$sem, OptionalAttr<I32Attr>:$layer);
  let assemblyFormat = [{
    `to` custom<ClusterList>($targets) `sem` $sem (`layer` $layer^)? attr-dict
  }];
  let hasVerifier = 1;
}

def Isa_RecvOp : Isa_CommandOp<"recv"> {
  let summary = "RECV: wait until a semaphore reaches a count, then take it";
  let description = [{
    Blocks the control unit until this cluster's semaphore `sem` is at least
    `count` (>= 1), then subtracts `count`. Semaphores start at 0; the
    compiler uses the producing cluster's row-major index as the id:
    `isa.recv sem 1 count 2`.
  }];
  let arguments = (ins I32Attr:$sem, I32Attr:$count, OptionalAttr<I32Attr>:$layer);
  let assemblyFormat = "`sem` $sem `count` $count (`layer` $layer^)? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Instructions (12-bit words inside a CONFIG)
//===----------------------------------------------------------------------===//

class Isa_InstrOp<string mnemonic> : Isa_Op<mnemonic, [HasParent<"ConfigOp">]>;

def Isa_LdOp : Isa_InstrOp<"ld"> {
  let summary = "LD: storage unit -> PE input buffer / weight queue / acc";
  let arguments = (ins Isa_LoadStreamAttr:$stream, I32Attr:$slot,
                   Isa_OperandsAttr:$operands);
  let assemblyFormat = "$stream `slot` $slot $operands attr-dict";
  let hasVerifier = 1;
}

def Isa_MacOp : Isa_InstrOp<"mac"> {
  let summary = "MAC: acc[acc] += inbuf[slot] (rows x depth) * wq (depth x cols)";
  let arguments = (ins I32Attr:$slot, I32Attr:$acc, UnitAttr:$load_balance,
                   UnitAttr:$sfu, Isa_OperandsAttr:$operands);
  let assemblyFormat = [{
    `slot` $slot `acc` $acc (`load_balance` $load_balance^)? (`sfu` $sfu^)?
    $operands attr-dict
  }];
  let hasVerifier = 1;
}

def Isa_StOp : Isa_InstrOp<"st"> {
  let summary = "ST: PE accumulation buffer / input buffer -> storage unit";
  let arguments = (ins Isa_StoreSourceAttr:$source, I32Attr:$slot,
                   I32Attr:$acc, Isa_OperandsAttr:$operands);
  let assemblyFormat = "$source `slot` $slot `acc` $acc $operands attr-dict";
  let hasVerifier = 1;
}

def Isa_SpuOp : Isa_InstrOp<"spu"> {
  let summary = "SPU: start the special function unit on input-buffer tiles";
  let arguments = (ins Isa_SpuTypeAttr:$type, I32Attr:$in_slot,
                   I32Attr:$out_slot, Isa_OperandsAttr:$operands);
  let assemblyFormat = "$type `in` $in_slot `out` $out_slot $operands attr-dict";
  let hasVerifier = 1;
}


def Isa_RecurOp : Isa_CommandOp<"recur"> {
  let summary = "RECUR: one RNN task on the column-wise engine (asynchronous)";
  let description = [{
    Runs `steps` time steps of one direction of one batch row of a recurrent
    layer on this cluster's PE array used as the column-wise engine of
    spec/rnn-multithreading.md (docs/rnn.md, "RECUR"), in hardware thread
    context `thread`. Weight blocks of `vp` x `ep`; x columns first, h
    columns as their elements are written back; when the running thread
    would read an element that is not written back yet, the engine switches
    to another thread. `tag` completes when the last element of `h_t` is
    written back (WAIT tags). Addresses are storage-unit bytes (`weights`
    a DRAM address with `weights_in_dram`); the layouts are those of
    RecurDesc (include/accel/Target/Program.h).

    ```mlir
    isa.recur lstm thread 1 tag 2 hidden 64 inputs 32 steps 10 ep 16 vp 16
        {activations = ["Sigmoid", "Tanh", "Tanh"], weights = 0 : i64,
         bias = 24576 : i32, x = 25600 : i32, h0 = 26880 : i32,
         c0 = 27136 : i32, y = 27392 : i32, h_t = 29952 : i32,
         c_t = 30208 : i32}
    ```
  }];
  let arguments = (ins Isa_RecurCellAttr:$cell, UnitAttr:$reverse,
                   I32Attr:$thread, I32Attr:$tag, I32Attr:$hidden,
                   I32Attr:$inputs, I32Attr:$steps, I32Attr:$ep, I32Attr:$vp,
                   DefaultValuedAttr<I32Attr, "1">:$candidate_vp,
                   StrArrayAttr:$activations,
                   DefaultValuedAttr<DenseF32ArrayAttr, "{0.0f, 0.0f, 0.0f}">:$alpha,
                   DefaultValuedAttr<DenseF32ArrayAttr, "{0.0f, 0.0f, 0.0f}">:$beta,
                   OptionalAttr<F32Attr>:$clip, UnitAttr:$linear_before_reset,
                   UnitAttr:$input_forget, UnitAttr:$weights_in_dram,
                   I64Attr:$weights, I32Attr:$bias,
                   OptionalAttr<I32Attr>:$peepholes, I32Attr:$x, I32Attr:$h0,
                   DefaultValuedAttr<I32Attr, "0">:$c0, I32Attr:$y,
                   I32Attr:$h_t, DefaultValuedAttr<I32Attr, "0">:$c_t,
                   OptionalAttr<I32Attr>:$seq_len,
                   DefaultValuedAttr<I64Attr, "0">:$arrival,
                   OptionalAttr<I32Attr>:$layer);
  let assemblyFormat = [{
    $cell (`reverse` $reverse^)? `thread` $thread `tag` $tag `hidden` $hidden
    `inputs` $inputs `steps` $steps `ep` $ep `vp` $vp (`layer` $layer^)?
    attr-dict
  }];
  let hasVerifier = 1;
}

#endif
