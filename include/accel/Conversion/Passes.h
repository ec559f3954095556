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

#define GEN_PASS_DECL
#include "accel/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "accel/Conversion/Passes.h.inc"

/// Adds the default pipeline (what accel-compile runs) to `pm`. `lowering`
/// carries the options of convert-graph-to-isa (depthwise kernel, sparse
/// weights, load balancing, SFU mode); its hwPath is replaced by `hwPath`.
void buildDefaultPipeline(mlir::OpPassManager &pm, const std::string &hwPath,
                          const ConvertGraphToIsaOptions &lowering = {});

/// Registers `accel-default-pipeline` (graph -> isa, what accel-compile runs)
///.
void registerAccelPipelines();

} // namespace accel

#endif
