//===- InteractionModule.h - The program of one interaction -----*- C++ -*-===//
#ifndef ACCEL_TOOLS_INTERACTIONMODULE_H
#define ACCEL_TOOLS_INTERACTIONMODULE_H

#include "accel/MultiNet/NetworkPlan.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace accel {

/// The graph-dialect module of interaction `x` whose inputs have `shapes`
/// (f32): arguments in0, in1, ... and the result `result`; sum, product
/// (numpy broadcasting) or concat along `axis`, or the given ONNX graph
/// (its inputs in order, one output). Null with `err` naming the input
/// whose shape does not fit.
mlir::OwningOpRef<mlir::ModuleOp>
interactionModule(mlir::MLIRContext &ctx, const multinet::InteractionEntry &x,
                  const std::vector<std::vector<int64_t>> &shapes,
                  std::string &err);

} // namespace accel

#endif
