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
  // and the cluster shares can be balanced. Fewer pieces than cores: one
  // piece per cluster when the dim has that many (the spec's count, one
  // per memory channel, would leave the other clusters of each channel
  // idle: ResNet-18's 56 output rows on 16 clusters and 4 channels), else
  // the spec's count; either way spread over the clusters, cut as Balanced.
  if (r == Rounding::Clusters && pc.mode == 2 &&
      clusters > uint64_t(pc.pieces) && uint64_t(dims[pick]) >= clusters) {
    pc.pieces = int64_t(clusters);
    pc.length = (dims[pick] + pc.pieces - 1) / pc.pieces;
  }
  d.ranges = r == Rounding::Clusters && pc.mode == 1
                 ? clusterBalancedRanges(dims[pick], pc.pieces, clusters)
                 : pieceRanges(dims[pick], pc, r);
  d.store = row.dims[pick].store;
  d.swap = row.dims[pick].swap;
  return true;
}

} // namespace accel::split
