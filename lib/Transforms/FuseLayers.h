//===- FuseLayers.h - fuse-layers internals ---------------------*- C++ -*-===//
//
// Shared by the pass driver (FuseLayers.cpp), the graph rewrites
// (FuseLayersPatterns.cpp) and the epilogue chain analysis
// (FuseLayersChains.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TRANSFORMS_FUSELAYERS_H
#define ACCEL_TRANSFORMS_FUSELAYERS_H

#include "Accel/AccelDialect.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"
#include <string>

namespace accel::fuse {

/// The name the per-layer table uses for `op`: the first name of its
/// location (the ONNX node name), else `file:line:col`, else the op name.
std::string layerName(mlir::Operation *op);
/// Every name of `op`'s location (an op created from several, e.g. the
/// hard_swish of x * hard_sigmoid(x), has a fused location); at least one.
llvm::SmallVector<std::string> layerNames(mlir::Operation *op);

/// `op`'s #accel.fusion with `update` applied to a copy of its fields
/// (steps, fused names, pad, squeeze_excite); set on `op`.
struct FusionFields {
  llvm::SmallVector<FusionStep> steps;
  llvm::SmallVector<mlir::Attribute> fused;
  std::string pad, squeezeExcite;
};
FusionFields fusionFields(mlir::Operation *op);
void setFusion(mlir::Operation *op, const FusionFields &f);

/// Graph rewrites: x * hard_sigmoid(x) -> hard_swish (`activations`), zero
/// pad -> conv pads (`pad`), per-channel scale -> next conv's weights
/// (`squeezeExcite`).
void populateFusePatterns(mlir::RewritePatternSet &patterns, bool activations,
                          bool pad, bool squeezeExcite);

/// Marks the epilogue chain after every GEMM-shaped op in `root`;
/// `broadcastResidual` also takes residual adds whose other operand is
/// broadcast (through reshapes of the chain value; the producer moves down
/// to the add when that operand is computed after it).
void fuseEpilogueChains(mlir::Operation *root, bool activations, bool residual,
                        bool broadcastResidual);

} // namespace accel::fuse

#endif
