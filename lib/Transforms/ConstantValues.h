//===- ConstantValues.h - f32 values of a constant tensor -------*- C++ -*-===//
//
// The graph passes that fold constants at compile time (fold-batch-norm,
// fold-upsampled-merge) read a constant weight tensor as floats.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TRANSFORMS_CONSTANTVALUES_H
#define ACCEL_TRANSFORMS_CONSTANTVALUES_H

#include "mlir/IR/Value.h"
#include <vector>

namespace accel {

/// The f32 values of `v` when an arith.constant of f32 elements defines it
/// (a splat expanded to every element); false otherwise (also for a null
/// value).
bool constantF32Values(mlir::Value v, std::vector<float> &out);

} // namespace accel

#endif
