//===- Passes.td - Conversion passes of the accel compiler -*- tablegen -*-===//
#ifndef ACCEL_CONVERSION_PASSES
#define ACCEL_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTosaLinalgToGraph : Pass<"convert-tosa-linalg-to-graph", "mlir::ModuleOp"> {
  let summary = "Legalise ONNX-lowered TOSA / linalg named ops into the graph dialect";
  let description = [{
    Rewrites `tosa` and `linalg` ops on tensors into graph ops so that MLIR
    from onnx-mlir / torch-mlir style front ends meets the ONNX importer in
    one dialect: tosa.matmul, tosa.conv2d, clamp (ReLU), the elementwise,
    comparison, reduction, pooling and shape ops (reshape, transpose, slice,
    pad, tile, concat); linalg.matmul / batch_matmul (a matmul whose
    indexing_maps transpose A or B becomes graph.gemm), the conv_2d
    variants (nchw_fchw, nhwc_fhwc, nhwc_hwcf, with bias and pad folding),
    the elementwise named ops, pooling, softmax and elementwise
    linalg.generic bodies. (MLIR 22's TOSA has no fully_connected op.) An
    op that has no graph equivalent is an error naming it. The table of
    every form: docs/passes/convert-tosa-linalg-to-graph.md.
  }];
  let dependentDialects = ["::accel::graph::GraphDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertGraphToIsa : Pass<"convert-graph-to-isa", "mlir::ModuleOp"> {
  let summary = "Lower the graph dialect to one isa.program";
  let description = [{
    Plans DRAM (inputs, outputs, constants, intermediates), tiles every
    matmul / gemm / conv2d / elementwise op to the storage-unit and PE buffer
    sizes of the hardware description, maps tiles onto the cluster grid and
    emits per-cluster command streams (DMA with ping-pong storage halves,
    CONFIG once, EXECUTE per tile). The entry function (`func.func` with the
    graph ops) is replaced by an `isa.program`. The machine is the module's
    `accel.hw` (default preset without one). See docs/passes.md.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "function to lower (empty = the only public function)">,
    Option<"depthwise", "depthwise", "accel::DepthwiseKernel",
           /*default=*/"accel::DepthwiseKernel::Sw",
           "depthwise conv2d (groups == C == O) kernel",
           [{::llvm::cl::values(
             clEnumValN(accel::DepthwiseKernel::Sw, "sw",
                        "sliding-window weight-queue kernel (weights and "
                        "activations swapped, docs/depthwise.md; default)"),
             clEnumValN(accel::DepthwiseKernel::Gemm, "gemm",
                        "implicit GEMM per group"))}]>,
    Option<"depthwiseLaneRows", "depthwise-lane-rows",
           "accel::DepthwiseLaneRows",
           /*default=*/"accel::DepthwiseLaneRows::Auto",
           "depthwise=sw: several output rows of a small plane side by side "
           "in the queue's columns, one MAC group per plane "
           "(docs/depthwise.md, Small planes)",
           [{::llvm::cl::values(
             clEnumValN(accel::DepthwiseLaneRows::Auto, "auto",
                        "where the kernel's estimate is lower, the layer is "
                        "not DRAM-bound and every cluster has 40 planes "
                        "(default)"),
             clEnumValN(accel::DepthwiseLaneRows::On, "on",
                        "wherever a whole plane fits one MAC group"),
             clEnumValN(accel::DepthwiseLaneRows::Off, "off",
                        "one output row per MAC row (the sliding queue)"))}]>,
    Option<"pool", "pool", "accel::PoolKernel",
           /*default=*/"accel::PoolKernel::Window",
           "max / average pool2d kernel",
           [{::llvm::cl::values(
             clEnumValN(accel::PoolKernel::Window, "window",
                        "one layer: each input band loaded once, the taps "
                        "combined on chip (docs/passes.md, graph.pool2d; "
                        "default); falls back to taps when no band fits"),
             clEnumValN(accel::PoolKernel::Taps, "taps",
                        "one SFU layer per kernel position through DRAM"))}]>,
    Option<"conv", "conv", "accel::ConvKernel",
           /*default=*/"accel::ConvKernel::Gemm",
           "regular conv2d (groups == 1) kernel",
           [{::llvm::cl::values(
             clEnumValN(accel::ConvKernel::Gemm, "gemm",
                        "implicit GEMM; tiling / mapping attributes apply "
                        "(default)"),
             clEnumValN(accel::ConvKernel::Rq, "rq",
                        "rotating weight-queue kernel (all taps of a channel "
                        "block in the queue, docs/depthwise.md); falls back "
                        "to gemm when no block fits"))}]>,
    Option<"convPadding", "conv-padding", "accel::ConvPadding",
           /*default=*/"accel::ConvPadding::Auto",
           "how an implicit-GEMM conv2d reads its zero padding",
           [{::llvm::cl::values(
             clEnumValN(accel::ConvPadding::Window, "window",
                        "image tiles loaded from the unpadded input with "
                        "boxes clipped to it, the padding zero-filled in "
                        "storage (docs/passes.md, graph.conv2d)"),
             clEnumValN(accel::ConvPadding::Copy, "copy",
                        "a zero-padded copy of the input in DRAM first "
                        "(per-cluster bands under accel.mapping)"),
             clEnumValN(accel::ConvPadding::Auto, "auto",
                        "window unless its extra DMAs cost more cycles than "
                        "the copy, per layer (default)"))}]>,
    Option<"convBands", "conv-bands", "accel::ConvBands",
           /*default=*/"accel::ConvBands::On",
           "mapped implicit-GEMM conv2d: input bands (docs/mapping.md, "
           "Convolution input bands)",
           [{::llvm::cl::values(
             clEnumValN(accel::ConvBands::Off, "off",
                        "every image tile DMA'd from DRAM"),
             clEnumValN(accel::ConvBands::Auto, "auto",
                        "bands for kernels larger than 1 x 1 where the "
                        "kernel's channel estimate says they move less and "
                        "the loads are at least half the MAC time"),
             clEnumValN(accel::ConvBands::On, "on",
                        "bands for every kernel larger than 1 x 1 where the "
                        "kernel's channel estimate says they move less "
                        "(default)"))}]>,
    Option<"convBandBlocks", "conv-band-blocks", "bool", /*default=*/"true",
           "with input bands: pixel boxes over whole output rows as blocks "
           "of rows x columns whose bands hold the fewest input elements "
           "(docs/mapping.md, Pixel blocks of the bands); false = pieces "
           "of rows">,
    Option<"convBandGroups", "conv-band-groups", "bool", /*default=*/"true",
           "with input bands read from DRAM: consecutive N tiles may share "
           "one band where that moves less channel time (docs/mapping.md, "
           "Band groups); false = a band per N tile">,
    Option<"filterShare", "filter-share", "bool", /*default=*/"true",
           "a convolution filter strip that no cluster's storage holds is "
           "shared: every cluster of the data split keeps its part of the "
           "chunks resident and reads the others' parts with remote_load "
           "instead of streaming them from DRAM per pixel block (shared "
           "cluster caches only; docs/mapping.md, Filter strips shared "
           "over the mesh)">,
    Option<"sparseWeights", "sparse-weights", "accel::SparseWeightsMode",
           /*default=*/"accel::SparseWeightsMode::Auto",
           "sparse weight-queue operands",
           [{::llvm::cl::values(
             clEnumValN(accel::SparseWeightsMode::Off, "off",
                        "always dense"),
             clEnumValN(accel::SparseWeightsMode::Auto, "auto",
                        "load constant weight-queue operands whose zero "
                        "fraction reaches sparse-threshold as LD "
                        "sparse_weights lists (default)"))}]>,
    Option<"sparseThreshold", "sparse-threshold", "double", /*default=*/"0.5",
           "minimum zero fraction (0..1) of a layer's weight tiles for "
           "sparse-weights=auto">,
    Option<"loadBalance", "load-balance", "bool", /*default=*/"false",
           "set the load-balancing bit (MAC bit 3) on every GEMM MAC">,
    Option<"layerSliceTiles", "layer-slice-tiles", "bool", /*default=*/"false",
           "mapped GEMMs: every cluster uses accel.tiling's tiles clamped to "
           "its slice (default: the tiles the cost model picks per slice, "
           "tiling::chooseSliceTiles, docs/mapping.md)">,
    Option<"sfuMode", "sfu-mode", "accel::SfuMode",
           /*default=*/"accel::SfuMode::Chained",
           "how a fused activation leaves the accumulators",
           [{::llvm::cl::values(
             clEnumValN(accel::SfuMode::Chained, "chained",
                        "MAC sfu bit set (default)"),
             clEnumValN(accel::SfuMode::Decoupled, "decoupled",
                        "MAC sfu bit clear, a separate SFU pass"))}]>,
    Option<"sync", "sync", "accel::LayerSync",
           /*default=*/"accel::LayerSync::Events",
           "how clusters synchronise between layers",
           [{::llvm::cl::values(
             clEnumValN(accel::LayerSync::Barrier, "barrier",
                        "every cluster waits and all meet at a BARRIER after "
                        "every layer (the behaviour before issue 11)"),
             clEnumValN(accel::LayerSync::Events, "events",
                        "a cluster RECVs the end-of-layer SIGNALs of the "
                        "clusters whose DRAM accesses it depends on "
                        "(docs/passes.md, Synchronisation; default)"))}]>,
    Option<"dramPlacement", "dram-placement", "accel::DramPlacement",
           /*default=*/"accel::DramPlacement::Pieces",
           "where DRAM buffers go",
           [{::llvm::cl::values(
             clEnumValN(accel::DramPlacement::Linear, "linear",
                        "one bump allocator over all of DRAM"),
             clEnumValN(accel::DramPlacement::Channels, "channels",
                        "each buffer in the region of the memory channel "
                        "local to the clusters that write (else read) most "
                        "of it (docs/passes.md, Memory planning on "
                        "channels)"),
             clEnumValN(accel::DramPlacement::Pieces, "pieces",
                        "as channels, but each buffer cut into the pieces "
                        "its DMAs allow, each on its own channel, and "
                        "read-only buffers copied onto every reading "
                        "channel (default)"))}]>,
    Option<"dramCopyFactor", "dram-copy-factor", "unsigned", /*default=*/"1",
           "dram-placement=pieces: a piece the program writes gets a copy "
           "on another memory channel when that channel's clusters read "
           "more than this many times its written bytes (every store then "
           "writes every copy; 0: whenever they read it; docs/passes.md, "
           "Memory planning on channels)">,
    Option<"dramCopyTime", "dram-copy-time", "bool", /*default=*/"true",
           "dram-placement=pieces: keep a copy that dram-copy-factor allows "
           "only when it shortens the layers it touches, each priced at its "
           "roofline time (MACs at peak, or its bytes on the busiest "
           "channel; docs/passes.md, Memory planning on channels)">,
    Option<"dramSplitShared", "dram-split-shared", "bool", /*default=*/"true",
           "dram-placement=pieces: a piece of an intermediate of 256 KiB or "
           "more whose DMA bytes no memory channel's clusters own (3/4) is "
           "cut into one part per channel, the DMAs across a cut split at "
           "it, so that the parts go to different channels "
           "(docs/passes.md, Shared buffers over the channels)">,
    Option<"residency", "residency", "accel::Residency",
           /*default=*/"accel::Residency::On",
           "on-chip residency of intermediates",
           [{::llvm::cl::values(
             clEnumValN(accel::Residency::Off, "off",
                        "every intermediate goes through DRAM"),
             clEnumValN(accel::Residency::On, "on",
                        "pieces of intermediates written by one cluster stay "
                        "in its storage unit when it has room for their "
                        "lifetime, unless their remote reads would load the "
                        "mesh more than their DRAM traffic loads a channel; "
                        "readers copy them locally or over the mesh "
                        "(docs/passes.md, On-chip residency; default)"),
             clEnumValN(accel::Residency::All, "all",
                        "as on, but whatever the remote reads cost"))}]>,
    Option<"residencyReserveCap", "residency-reserve-cap", "unsigned",
           /*default=*/"67",
           "most of a storage unit (percent, 0..90) the kernels leave to "
           "resident intermediates: the reserve is the largest per-cluster "
           "share of an intermediate that fits it (docs/passes.md, On-chip "
           "residency)">,
    Option<"residencyReport", "residency-report", "bool", /*default=*/"false",
           "emit a remark with the bytes of intermediates kept on chip and "
           "those spilled to DRAM (with their DMA bytes)">,
  ];
  // tensor: the overlapping conv_transpose2d lowering builds a temporary
  // conv2d over tensor.empty placeholders.
  let dependentDialects = ["::accel::isa::IsaDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif
