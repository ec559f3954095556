//===- MappingProblem.h - The cost model's view of a GEMM op ----*- C++ -*-===//
//
// What tiling::mappingCost needs to price a mapping of a graph.matmul /
// graph.gemm / graph.conv2d: shared by select-mapping (the dataflow and
// partition) and split-strategy's parallel=best (the partition among the
// database's rows), so both price an op the same way.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TRANSFORMS_MAPPINGPROBLEM_H
#define ACCEL_TRANSFORMS_MAPPINGPROBLEM_H

#include "accel/Tiling/ArrayMapping.h"
#include "mlir/IR/Operation.h"

namespace accel {
struct HardwareDesc;
} // namespace accel

namespace accel::transforms {

/// The GEMM problem the lowering emits for `op` (transforms::problemOf),
/// whether the activation is A, whether a ReLU (the result's only user) is
/// fused, and the per-cluster tiles the kernel realises for the op's
/// accel.tiling (codegen::gemmTilingFor; its own decision without one).
/// False for ops without a GEMM problem.
bool mappingProblemOf(mlir::Operation *op, const HardwareDesc &hw,
                      tiling::MappingProblem &mp);

} // namespace accel::transforms

#endif
