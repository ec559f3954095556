//===- ChannelPlacement.cpp - DRAM buffers on memory channels -------------===//
#include "accel/Codegen/ChannelPlacement.h"
#include <algorithm>

using namespace accel;
using namespace accel::codegen;

namespace {

/// Index of the buffer holding byte `a`, or -1.
int64_t bufferOf(const std::vector<DramBuffer> &buffers, uint64_t a) {
  auto it = std::upper_bound(
      buffers.begin(), buffers.end(), a,
      [](uint64_t x, const DramBuffer &b) { return x < b.addr; });
  if (it == buffers.begin())
    return -1;
  --it;
  if (a >= it->addr + it->bytes)
    return -1;
  return it - buffers.begin();
}

/// Bounding byte range of the DRAM side of a DMA (`src` side when
/// `srcSide`).
void dramBounds(const DmaDesc &d, bool srcSide, uint64_t &lo, uint64_t &hi) {
  uint64_t base = srcSide ? d.src : d.dst;
  const int64_t *stride = srcSide ? d.srcStride : d.dstStride;
  int64_t below = 0, above = 0;
  for (int i = 0; i < 4; ++i) {
    int64_t span = int64_t(d.shape[i] - 1) * stride[i];
    (span < 0 ? below : above) += span;
  }
  lo = base + uint64_t(below) * d.elemBytes; // below <= 0: wraps back
  hi = base + uint64_t(above) * d.elemBytes + d.elemBytes;
}

uint64_t regionEnd(const HardwareDesc &hw, uint32_t ch) {
  uint64_t r = hw.channelRegionBytes();
  return ch + 1 >= hw.channels.size() ? hw.dramBytes : (ch + 1) * r;
}

} // namespace

bool accel::codegen::measureBufferTraffic(
    const Program &p, const HardwareDesc &hw,
    const std::vector<DramBuffer> &buffers, std::vector<BufferTraffic> &traffic,
    std::string &err) {
  const size_t nch = std::max<size_t>(hw.channels.size(), 1);
  traffic.assign(buffers.size(), BufferTraffic{std::vector<uint64_t>(nch, 0),
                                               std::vector<uint64_t>(nch, 0)});
  for (size_t cl = 0; cl < p.clusters.size(); ++cl) {
    uint32_t ch = hw.channelOf(uint32_t(cl));
    for (const Command &c : p.clusters[cl].commands) {
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0)
        continue;
      auto note = [&](bool srcSide, bool write) {
        uint64_t lo, hi;
        dramBounds(c.dma, srcSide, lo, hi);
        int64_t b = bufferOf(buffers, lo);
        if (b < 0 || hi > buffers[b].addr + buffers[b].bytes) {
          err = "a DMA of cluster " + std::to_string(cl) + " touches DRAM [" +
                std::to_string(lo) + ", " + std::to_string(hi) +
                ") outside one planned buffer";
          return false;
        }
        uint64_t bytes = c.dma.numElements() * c.dma.elemBytes;
        (write ? traffic[b].written : traffic[b].read)[ch] += bytes;
        return true;
      };
      bool ok = true;
      switch (c.dma.dir) {
      case DmaDir::Load:
        ok = note(true, false);
        break;
      case DmaDir::Store:
        ok = note(false, true);
        break;
      case DmaDir::DramCopy:
        ok = note(true, false) && note(false, true);
        break;
      case DmaDir::RemoteLoad:
        break;
      }
      if (!ok)
        return false;
    }
  }
  return true;
}

bool accel::codegen::planChannels(const HardwareDesc &hw,
                                  const std::vector<DramBuffer> &buffers,
                                  const std::vector<BufferTraffic> &traffic,
                                  ChannelPlan &plan, std::string &err) {
  const uint32_t nch = uint32_t(std::max<size_t>(hw.channels.size(), 1));
  const uint64_t R = hw.channelRegionBytes();
  // Channels local to some cluster: where an untouched buffer may go.
  std::vector<char> local(nch, 0);
  for (uint32_t c = 0; c < hw.numClusters(); ++c)
    local[std::min(hw.channelOf(c), nch - 1)] = 1;
  plan.channel.assign(buffers.size(), 0);
  plan.addr.assign(buffers.size(), 0);
  plan.allocated.assign(nch, 0);
  plan.dramSize = 0;
  std::vector<uint64_t> next(nch);
  for (uint32_t ch = 0; ch < nch; ++ch)
    next[ch] = uint64_t(ch) * R;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const BufferTraffic &t = traffic.at(i);
    bool written = std::any_of(t.written.begin(), t.written.end(),
                               [](uint64_t b) { return b != 0; });
    const std::vector<uint64_t> &score = written ? t.written : t.read;
    uint64_t best = *std::max_element(score.begin(), score.end());
    // Candidates in preference order: near-best score first (balanced by
    // allocated bytes), then the others by score.
    std::vector<uint32_t> order(nch);
    for (uint32_t ch = 0; ch < nch; ++ch)
      order[ch] = ch;
    auto tier = [&](uint32_t ch) {
      if (best == 0)
        return local[ch] ? 0 : 1;
      return score[ch] * kTieFraction >= best * (kTieFraction - 1) ? 0 : 1;
    };
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      if (tier(a) != tier(b))
        return tier(a) < tier(b);
      if (tier(a) == 0)
        return plan.allocated[a] < plan.allocated[b];
      return score[a] > score[b];
    });
    bool placed = false;
    for (uint32_t ch : order) {
      uint64_t end = regionEnd(hw, ch);
      if (next[ch] > end || buffers[i].bytes > end - next[ch])
        continue;
      plan.channel[i] = ch;
      plan.addr[i] = next[ch];
      next[ch] += buffers[i].bytes;
      plan.allocated[ch] += buffers[i].bytes;
      plan.dramSize = std::max(plan.dramSize, next[ch]);
      placed = true;
      break;
    }
    if (!placed) {
      err = "a DRAM buffer of " + std::to_string(buffers[i].bytes) +
            " bytes fits no memory channel's region";
      return false;
    }
  }
  return true;
}

void accel::codegen::relocateBuffers(Program &p,
                                     const std::vector<DramBuffer> &buffers,
                                     const ChannelPlan &plan) {
  auto move = [&](uint64_t &a) {
    int64_t b = bufferOf(buffers, a);
    if (b >= 0)
      a = plan.addr[size_t(b)] + (a - buffers[size_t(b)].addr);
  };
  for (auto &cl : p.clusters)
    for (Command &c : cl.commands) {
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0)
        continue;
      if (c.dma.dir == DmaDir::Load || c.dma.dir == DmaDir::DramCopy)
        move(c.dma.src);
      if (c.dma.dir == DmaDir::Store || c.dma.dir == DmaDir::DramCopy)
        move(c.dma.dst);
    }
  for (Symbol &s : p.symbols)
    move(s.dramAddr);
  for (ConstSegment &s : p.constants)
    move(s.dramAddr);
  // Readers look constants up by address (ascending, as linear plans are).
  std::stable_sort(p.constants.begin(), p.constants.end(),
                   [](const ConstSegment &a, const ConstSegment &b) {
                     return a.dramAddr < b.dramAddr;
                   });
  for (ConstPacket &k : p.packets) {
    for (PacketBlockRef &b : k.blocks)
      move(b.dramAddr);
    move(k.markerAddr);
  }
  p.dramSize = plan.dramSize;
}
