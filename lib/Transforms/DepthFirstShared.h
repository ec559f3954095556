//===- DepthFirstShared.h - Helpers of the depth-first passes ---*- C++ -*-===//
//
// Shared by depth-first-channels (DepthFirstChannels.cpp) and
// depth-first-rows (DepthFirstRows.cpp): both replace a few layers by
// slices of them, each slice taking its layers' fused epilogue chains.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TRANSFORMS_DEPTHFIRSTSHARED_H
#define ACCEL_TRANSFORMS_DEPTHFIRSTSHARED_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include <optional>
#include <string>

namespace accel::depthfirst {

/// The fused epilogue chain after a producer (fuse-layers' accel.fused ops),
/// when every operand of its ops other than the chain value is a splat
/// constant, so each op can be applied to a slice as it is.
struct SliceableChain {
  llvm::SmallVector<mlir::Operation *> ops;
  mlir::Value end; ///< the chain's last value (the producer's when empty)
};
std::optional<SliceableChain> sliceableChain(mlir::Operation *producer);

bool isSplatConstant(mlir::Value v);
int64_t dim(mlir::Value v, unsigned d);
uint64_t bytesOf(mlir::Value v);
/// `v`'s type with extent `extent` in dimension `d`.
mlir::RankedTensorType withDim(mlir::Value v, unsigned d, int64_t extent);

/// `op`'s location with `suffix` after the layer name (the first name of a
/// fused location), so each slice is its own row of the layer table.
mlir::Location sliceLoc(mlir::Operation *op, const std::string &suffix);

/// Clones `chain`'s ops after `v` (the slice of the chain's producer
/// result `orig`), each result of `v`'s shape in dimension `d`; full-shape
/// splat operands become splats of that shape. Returns the last value.
mlir::Value cloneChain(mlir::OpBuilder &b, const SliceableChain &chain,
                       mlir::Value orig, mlir::Value v, unsigned d);

} // namespace accel::depthfirst

#endif
