//===- Passes.td - Conversion passes of the accel compiler -*- tablegen -*-===//
#ifndef ACCEL_CONVERSION_PASSES
#define ACCEL_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertTosaLinalgToGraph : Pass<"convert-tosa-linalg-to-graph", "mlir::ModuleOp"> {
  let summary = "Legalise ONNX-lowered TOSA / linalg named ops into the graph dialect";
  let description = [{
    Rewrites `tosa` and `linalg` named ops on tensors (matmul, batch_matmul,
    fully_connected / gemm forms, conv2d, relu / clamp, add) into graph ops so
    that MLIR from onnx-mlir / torch-mlir style front ends meets the ONNX
    importer in one dialect. An op that has no graph equivalent is an error
    naming it. See docs/passes.md.
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
    graph ops) is replaced by an `isa.program`. See docs/passes.md.
  }];
  let options = [
    Option<"hwPath", "hw", "std::string", /*default=*/"\"\"",
           "hardware description JSON (empty = built-in default preset)">,
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "function to lower (empty = the only public function)">,
    Option<"depthwise", "depthwise", "std::string", /*default=*/"\"sw\"",
           "depthwise conv2d (groups == C == O): 'sw' = sliding-window "
           "weight-queue kernel (weights and activations swapped, "
           "docs/depthwise.md), 'gemm' = implicit GEMM per group">,
    Option<"conv", "conv", "std::string", /*default=*/"\"gemm\"",
           "regular conv2d (groups == 1): 'gemm' = implicit GEMM (tiling / "
           "mapping attributes apply), 'rq' = rotating weight-queue kernel "
           "(all taps of a channel block in the queue, docs/depthwise.md); "
           "falls back to 'gemm' when no block fits">,
    Option<"sparseWeights", "sparse-weights", "std::string",
           /*default=*/"\"auto\"",
           "off | auto: load constant weight-queue operands whose zero "
           "fraction reaches sparse-threshold as LD sparse_weights lists">,
    Option<"sparseThreshold", "sparse-threshold", "double", /*default=*/"0.5",
           "minimum zero fraction (0..1) of a layer's weight tiles for "
           "sparse-weights=auto">,
    Option<"loadBalance", "load-balance", "bool", /*default=*/"false",
           "set the load-balancing bit (MAC bit 3) on every GEMM MAC">,
    Option<"sfuMode", "sfu-mode", "std::string", /*default=*/"\"chained\"",
           "chained | decoupled: how a fused activation leaves the "
           "accumulators (MAC sfu bit set / clear)">,
  ];
  let dependentDialects = ["::accel::isa::IsaDialect"];
}

#endif
