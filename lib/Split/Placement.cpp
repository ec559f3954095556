//===- Placement.cpp - Where pieces live, how partials are combined -------===//
//
// Storage of the pieces (memory channels / cluster storage, local first)
// and the pairwise reduction tree of the application examples.
//
//===----------------------------------------------------------------------===//
#include "accel/Split/Split.h"

#include "accel/Hardware/HardwareDesc.h"

#include <algorithm>

namespace accel::split {

namespace {
uint32_t instanceCount(StorageTarget::Kind kind, const HardwareDesc &hw) {
  return kind == StorageTarget::Mem ? uint32_t(hw.channels.size())
                                    : hw.numClusters();
}
} // namespace

std::string checkStorageTarget(const StorageTarget &store,
                               const HardwareDesc &hw) {
  uint32_t n = instanceCount(store.kind, hw);
  if (store.instance <= n)
    return "";
  return "store " + store.str() + ": the machine has " + std::to_string(n) +
         (store.kind == StorageTarget::Mem ? " memory channels" : " clusters");
}

std::vector<uint32_t> placePieces(const std::vector<uint32_t> &coreOfPiece,
                                  const StorageTarget &store,
                                  const HardwareDesc &hw) {
  uint32_t n = std::max<uint32_t>(instanceCount(store.kind, hw), 1);
  uint32_t clusters = std::max<uint32_t>(hw.numClusters(), 1);
  uint32_t pes = std::max<uint32_t>(hw.pesPerCluster, 1);
  std::vector<uint32_t> out;
  out.reserve(coreOfPiece.size());
  for (uint32_t core : coreOfPiece) {
    if (store.instance) {
      out.push_back(std::min(store.instance, n) - 1);
      continue;
    }
    uint32_t cluster = std::min(core / pes, clusters - 1);
    out.push_back(store.kind == StorageTarget::Mem ? hw.channelOf(cluster)
                                                   : cluster);
  }
  return out;
}

std::vector<std::vector<std::pair<uint32_t, uint32_t>>>
reductionTree(uint32_t parts) {
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> levels;
  for (uint64_t stride = 1; stride < parts; stride *= 2) {
    std::vector<std::pair<uint32_t, uint32_t>> level;
    for (uint64_t dst = 0; dst + stride < parts; dst += 2 * stride)
      level.push_back({uint32_t(dst), uint32_t(dst + stride)});
    levels.push_back(std::move(level));
  }
  return levels;
}

} // namespace accel::split
