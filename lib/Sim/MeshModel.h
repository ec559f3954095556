//===- MeshModel.h - Link timing of mesh transfers (private to AccelSim) --===//
//
// Wormhole timing of SEND / remote_load transfers on the cluster mesh and the
// split of a DRAM box over the channel regions it touches. Pure C++; the
// formulas are documented in docs/simulator.md ("Mesh", "Memory channels").
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_MESHMODEL_H
#define ACCEL_LIB_SIM_MESHMODEL_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Hardware/Mesh.h"

#include <cstdint>
#include <map>
#include <vector>

namespace accel {
namespace sim {

/// The timing of one reserved mesh transfer.
struct MeshTransfer {
  uint64_t start = 0;      ///< the head enters the first link
  uint64_t linkBusy = 0;   ///< every link of `links` is busy until start + it
  uint64_t sourceDone = 0; ///< the last byte has left the source
  std::vector<uint64_t> arrival; ///< per target: the last byte has arrived
  std::vector<MeshLink> links;   ///< the route / multicast tree
  uint64_t byteHops = 0;         ///< bytes x links of the tree
};

/// Per-link occupancy and statistics.
struct LinkUse {
  uint64_t freeAt = 0;
  uint64_t busyCycles = 0, bytes = 0, transfers = 0;
};

/// Directed links of the mesh with their free times. Deterministic: a
/// transfer starts when every link of its tree is free (wormhole: the
/// packet holds its whole path) and holds them for its whole duration.
class MeshModel {
public:
  explicit MeshModel(const HardwareDesc &hw) : hw(hw) {}

  /// SEND of `bytes` from `from` to every cluster of `targets` (a target may
  /// be `from` itself: a local copy through the storage unit).
  MeshTransfer send(uint32_t from, const std::vector<uint32_t> &targets,
                    uint64_t bytes, uint64_t issued);
  /// remote_load of `bytes` from `owner`'s storage unit into `reader`'s:
  /// the request travels to the owner, the data returns along XY(owner ->
  /// reader).
  MeshTransfer remoteLoad(uint32_t reader, uint32_t owner, uint64_t bytes,
                          uint64_t issued);
  /// SIGNAL arrival at `to`: hops * hopLatency after `issued`, at least 1.
  uint64_t signalArrival(uint32_t from, uint32_t to, uint64_t issued) const;

  const std::map<MeshLink, LinkUse> &links() const { return use; }

private:
  uint64_t serialise(uint64_t bytes) const;
  uint64_t reserve(const std::vector<MeshLink> &tree, uint64_t issued) const;
  void occupy(const MeshTransfer &t, uint64_t bytes);

  const HardwareDesc &hw;
  std::map<MeshLink, LinkUse> use;
};

/// Bytes of one DRAM access charged to one channel.
struct ChannelShare {
  uint32_t channel = 0;
  uint64_t bytes = 0;
};

/// Splits `payload` bytes of a DRAM box with bounding byte range [lo, hi)
/// over the channel regions the range touches, in proportion to the bytes
/// of the range inside each region (rounded down; the remainder goes to the
/// channel of the lowest byte). A range inside one region (or empty) is
/// charged entirely to channelOfAddress(lo). Ascending channels.
std::vector<ChannelShare> channelShares(const HardwareDesc &hw, uint64_t lo,
                                        uint64_t hi, uint64_t payload);

} // namespace sim
} // namespace accel

#endif
