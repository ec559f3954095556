//===- LowerSplit.cpp - Labelled lowering: reduction trees ----------------===//
//
// docs/labels-and-splits.md, "Lowering: reduction trees, constant packets,
// materialisation": a K split whose output carries a dynamic label combines
// its partial sums with the pairwise tree of the spec's application
// examples, through cluster storage over the mesh or through memory as the
// label's exchange level (and the machine) says.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"
#include "accel/Transforms/Passes.h"
#include <map>

using namespace mlir;
using namespace accel;
using namespace accel::codegen;
using namespace accel::lowering;

std::optional<ReductionExchange>
Lowering::reductionExchangeFor(Operation *op) const {
  auto labels = op->getAttrOfType<ArrayAttr>(kLabelsAttrName);
  if (!labels || labels.empty())
    return std::nullopt;
  auto label = dyn_cast<LabelAttr>(labels[0]);
  if (!label)
    return std::nullopt;
  SwapLevel swap = label.getDynamicLabel().getSwap();
  bool onChip = swap == SwapLevel::Core || swap == SwapLevel::Cluster;
  return onChip && hw_.sharedClusterCache ? ReductionExchange::Mesh
                                          : ReductionExchange::Memory;
}

LogicalResult Lowering::emitReductionTree(
    Operation *op, const std::vector<ClusterGemmWork> &work,
    const MappedOutput &mo, ReductionExchange x, SfuFunc func) {
  // The clusters of one M / N part, by K part.
  std::map<std::pair<int64_t, int64_t>,
           std::vector<std::pair<int64_t, uint32_t>>>
      byPart;
  for (uint32_t cl = 0; cl < slices_.size() && cl < work.size(); ++cl) {
    const tiling::ClusterSlice &s = slices_[cl];
    if (!s.empty())
      byPart[{s.part.m, s.part.n}].push_back({s.part.k, cl});
  }
  std::vector<ReductionGroup> groups;
  for (auto &[mn, parts] : byPart) {
    std::sort(parts.begin(), parts.end());
    const auto [rootK, rootCl] = parts.front();
    const uint64_t rootBase = mo.partOut(rootK);
    ReductionGroup g;
    for (auto [k, cl] : parts)
      g.members.push_back({cl, int64_t(mo.partOut(k)) - int64_t(rootBase)});
    g.outShiftBytes = int64_t(mo.out) - int64_t(rootBase);
    // The root's output tiles cover the region once.
    const ClusterGemmWork &w = work[rootCl];
    const int64_t mcMax = w.tiling.peRows * int64_t(hw_.pesPerCluster);
    for (const GemmTiles &p : w.problems)
      for (int64_t m0 = 0; m0 < p.m; m0 += mcMax)
        for (size_t ni = 0; ni < p.nTiles.size(); ++ni)
          g.boxes.push_back(p.cBox(m0, std::min(mcMax, p.m - m0), ni));
    groups.push_back(std::move(g));
  }
  std::string err;
  if (!emitReductionTrees(sb_, groups, x, func, err))
    return op->emitOpError("cannot reduce the K split through ")
           << reductionExchangeName(x) << ": " << err;
  return success();
}
