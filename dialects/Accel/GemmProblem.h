//===- GemmProblem.h - The GEMM problem of a GEMM-shaped op -----*- C++ -*-===//
//
// Shared by the accel dialect's verifier (partitions within the GEMM) and
// select-tiling / select-mapping.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_ACCEL_GEMMPROBLEM_H
#define ACCEL_ACCEL_GEMMPROBLEM_H

#include "accel/Tiling/TileSelection.h"
#include "mlir/IR/Operation.h"

namespace accel::transforms {

/// The GEMM problem of a graph.matmul / graph.gemm / graph.conv2d as
/// convert-graph-to-isa emits it (m, k, n, count: batches, or images x
/// groups; `withInit`: bias / C with beta 1 initialises the accumulators).
/// False for other ops or shapes the importer would not produce.
bool problemOf(mlir::Operation *op, unsigned elemBytes, tiling::GemmProblem &p,
               bool &withInit);

} // namespace accel::transforms

#endif
