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

/// Adds the default pipeline (what accel-compile runs) to `pm`;
/// `depthwise` is convert-graph-to-isa's depthwise option ("sw" / "gemm").
void buildDefaultPipeline(mlir::OpPassManager &pm, const std::string &hwPath,
                          const std::string &depthwise = "sw");

/// Registers `accel-default-pipeline` (graph -> isa, what accel-compile runs)
///.
void registerAccelPipelines();

} // namespace accel

#endif
