//===- ApplySplit.cpp - Steps S15 / S16 for one tensor --------------------===//
//
// Combines the database row, the target-dim rule and the piece count into
// the split part of a dynamic label (spec/labels-and-splits.md, Steps).
//
//===----------------------------------------------------------------------===//
#include "accel/Split/Split.h"

namespace accel::split {

bool applySplit(const StaticLabel &s, DynamicLabel &d, const StrategyRow &row,
                uint64_t memoryChannels, uint64_t cores, Rounding r,
                std::string &err, uint64_t clusters) {
  if (row.dims.empty()) {
    // Not split: one piece, the whole innermost processor dim.
    d.splitDim = d.dimOrder.empty() ? 0 : d.dimOrder.back();
    d.ranges.clear();
    int64_t D = d.splitDim ? operationDim(s, d, d.splitDim) : 0;
    if (D > 0)
      d.ranges.push_back({0, D - 1});
    d.store = row.store;
    d.swap = row.swap;
    return true;
  }
  std::vector<int64_t> dims;
  for (const SplitOption &o : row.dims) {
    int64_t D = operationDim(s, d, o.dim);
    if (D < 0) {
      err = std::string("split dim '") + o.dim + "' of the " + row.op + " / " +
            categoryCode(row.category) + " row is not a dim of dim_" +
            s.dimOrder;
      return false;
    }
    dims.push_back(D);
  }
  size_t pick = *selectTargetDim(dims, memoryChannels);
  PieceCount pc = pieceCount(dims[pick], memoryChannels, cores, r);
  d.splitDim = row.dims[pick].dim;
  // Clusters: one piece per core, so piece j is core j's (coreOfPieces)
  // and the cluster shares can be balanced; fewer pieces than cores are
  // spread over the clusters and cut as Balanced.
  d.ranges = r == Rounding::Clusters && pc.mode == 1
                 ? clusterBalancedRanges(dims[pick], pc.pieces, clusters)
                 : pieceRanges(dims[pick], pc, r);
  d.store = row.dims[pick].store;
  d.swap = row.dims[pick].swap;
  return true;
}

} // namespace accel::split
