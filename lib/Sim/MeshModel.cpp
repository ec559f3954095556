//===- MeshModel.cpp - Link timing of mesh transfers ----------------------===//
#include "MeshModel.h"

#include <algorithm>
#include <cmath>

namespace accel {
namespace sim {

uint64_t MeshModel::serialise(uint64_t bytes) const {
  return bytes ? uint64_t(std::ceil(double(bytes) / hw.linkBytesPerCycle)) : 0;
}

uint64_t MeshModel::reserve(const std::vector<MeshLink> &tree,
                            uint64_t issued) const {
  uint64_t start = issued;
  for (const MeshLink &l : tree) {
    auto it = use.find(l);
    if (it != use.end())
      start = std::max(start, it->second.freeAt);
  }
  return start;
}

void MeshModel::occupy(const MeshTransfer &t, uint64_t bytes) {
  for (const MeshLink &l : t.links) {
    LinkUse &u = use[l];
    u.freeAt = t.start + t.linkBusy;
    u.busyCycles += t.linkBusy;
    u.bytes += bytes;
    ++u.transfers;
  }
}

MeshTransfer MeshModel::send(uint32_t from,
                             const std::vector<uint32_t> &targets,
                             uint64_t bytes, uint64_t issued) {
  MeshTransfer t;
  t.links = multicastLinks(hw.rows, hw.cols, from, targets);
  t.start = reserve(t.links, issued);
  const uint64_t ser = serialise(bytes);
  const uint64_t local =
      bytes ? uint64_t(std::ceil(double(bytes) / hw.storageBytesPerCycle)) : 0;
  uint64_t maxHops = 0;
  bool anyRemote = false, anyLocal = false;
  for (uint32_t to : targets) {
    uint64_t hops = hw.meshHops(from, to);
    maxHops = std::max(maxHops, hops);
    if (hops == 0) {
      anyLocal = true;
      t.arrival.push_back(t.start + local);
    } else {
      anyRemote = true;
      t.arrival.push_back(t.start + hops * hw.hopLatency + ser);
    }
  }
  t.linkBusy = anyRemote ? maxHops * hw.hopLatency + ser : 0;
  t.sourceDone = t.start + std::max(anyRemote ? ser : 0, anyLocal ? local : 0);
  t.byteHops = bytes * t.links.size();
  occupy(t, bytes);
  return t;
}

MeshTransfer MeshModel::remoteLoad(uint32_t reader, uint32_t owner,
                                   uint64_t bytes, uint64_t issued) {
  MeshTransfer t;
  t.links = xyLinks(hw.rows, hw.cols, owner, reader);
  t.start = reserve(t.links, issued);
  const uint64_t hops = t.links.size();
  t.linkBusy = 2 * hops * hw.hopLatency + serialise(bytes);
  t.sourceDone = t.start + t.linkBusy;
  t.arrival = {t.start + t.linkBusy};
  t.byteHops = bytes * hops;
  occupy(t, bytes);
  return t;
}

uint64_t MeshModel::signalArrival(uint32_t from, uint32_t to,
                                  uint64_t issued) const {
  return issued +
         std::max<uint64_t>(1, uint64_t(hw.meshHops(from, to)) * hw.hopLatency);
}

std::vector<ChannelShare> channelShares(const HardwareDesc &hw, uint64_t lo,
                                        uint64_t hi, uint64_t payload) {
  const uint32_t first = hw.channelOfAddress(lo);
  if (hi <= lo || hw.channelOfAddress(hi - 1) == first)
    return {{first, payload}};
  const uint64_t region = hw.channelRegionBytes();
  const uint32_t last = hw.channelOfAddress(hi - 1);
  const unsigned __int128 span = hi - lo;
  std::vector<ChannelShare> shares;
  uint64_t given = 0;
  for (uint32_t ch = first; ch <= last; ++ch) {
    uint64_t rlo = std::max<uint64_t>(lo, uint64_t(ch) * region);
    uint64_t rhi = ch == last ? hi : std::min<uint64_t>(hi, (ch + 1) * region);
    uint64_t part = uint64_t((unsigned __int128)payload * (rhi - rlo) / span);
    shares.push_back({ch, part});
    given += part;
  }
  shares.front().bytes += payload - given;
  return shares;
}

} // namespace sim
} // namespace accel
