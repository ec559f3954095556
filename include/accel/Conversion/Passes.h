//===- Passes.h - Conversion passes -----------------------------*- C++ -*-===//
#ifndef ACCEL_CONVERSION_PASSES_H
#define ACCEL_CONVERSION_PASSES_H

#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace accel {

/// Values of the enum-like options of convert-graph-to-isa (Passes.td lists
/// their spellings with llvm::cl::values).
enum class DepthwiseKernel { Sw, Gemm };
enum class ConvKernel { Gemm, Rq };
enum class SparseWeightsMode { Off, Auto };
enum class SfuMode { Chained, Decoupled };
enum class LayerSync { Barrier, Events };
enum class DramPlacement { Linear, Channels };

#define GEN_PASS_DECL
#include "accel/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "accel/Conversion/Passes.h.inc"

/// Adds the default pipeline (what accel-compile runs) to `pm`: with a
/// non-empty `hwPath` first accel-attach-hardware, then legalisation,
/// canonicalisation, fold-batch-norm, select-tiling, select-mapping and
/// `lowering` (a convert-graph-to-isa pass; null = default options).
void buildDefaultPipeline(mlir::OpPassManager &pm, const std::string &hwPath,
                          std::unique_ptr<mlir::Pass> lowering = nullptr);

/// A convert-graph-to-isa pass configured by `options` ("name=value ...",
/// parsed by the pass's own option parser); errors go to `errorHandler`.
mlir::FailureOr<std::unique_ptr<mlir::Pass>> createConvertGraphToIsaFromString(
    llvm::StringRef options,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler);

/// Registers `accel-default-pipeline` (graph -> isa, what accel-compile
/// runs). Its options are those of convert-graph-to-isa, forwarded.
void registerAccelPipelines();

} // namespace accel

#endif
