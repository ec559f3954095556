//===- ChannelSplit.cpp - Shared DRAM buffers cut over the channels -------===//
#include "accel/Codegen/ChannelSplit.h"
#include "StreamParts.h"
#include "accel/Codegen/Residency.h"
#include <algorithm>
#include <string>

using namespace accel;
using namespace accel::codegen;

namespace {

/// Whether no channel's clusters do kOwnedNum / kOwnedDen of the segment's
/// DMA bytes.
bool sharedTraffic(const BufferTraffic &t) {
  uint64_t total = 0, best = 0;
  for (size_t ch = 0; ch < t.read.size(); ++ch) {
    const uint64_t b = t.read[ch] + t.written[ch];
    total += b;
    best = std::max(best, b);
  }
  return total != 0 && best * kOwnedDen < total * kOwnedNum;
}

/// The segments with the chosen ones cut into `parts` equal aligned parts.
std::vector<DramBuffer> cutInto(const std::vector<DramBuffer> &segments,
                                const std::vector<char> &cut, uint64_t parts,
                                uint64_t alignment) {
  std::vector<DramBuffer> out;
  for (size_t i = 0; i < segments.size(); ++i) {
    const DramBuffer &s = segments[i];
    uint64_t start = s.addr;
    if (cut[i])
      for (uint64_t k = 1; k < parts; ++k) {
        const uint64_t at =
            (s.addr + s.bytes * k / parts) / alignment * alignment;
        if (at <= start || at >= s.addr + s.bytes)
          continue;
        out.push_back({start, at - start});
        start = at;
      }
    out.push_back({start, s.addr + s.bytes - start});
  }
  return out;
}

/// Unmarks in `cut` every segment holding a DMA that would need more than
/// `maxParts` parts at the cuts of `parts`.
void keepWholeWhereDmasCannotSplit(const Program &p,
                                   const std::vector<DramBuffer> &segments,
                                   const std::vector<DramBuffer> &parts,
                                   size_t maxParts, std::vector<char> &cut) {
  std::vector<DmaDesc> pieces;
  for (const ClusterStream &cl : p.clusters)
    for (const Command &c : cl.commands) {
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0 ||
          splitAtPieces(c.dma, parts, maxParts, pieces))
        continue;
      for (bool srcSide : {true, false}) {
        if (!dramSide(c.dma.dir, srcSide))
          continue;
        const int64_t b = bufferOf(segments, srcSide ? c.dma.src : c.dma.dst);
        if (b >= 0)
          cut[size_t(b)] = 0;
      }
    }
}

/// Replaces every DMA across the cuts of `parts` by its parts (one command
/// each, same tag and layer).
void splitDmasAt(Program &p, const std::vector<DramBuffer> &parts,
                 size_t maxParts) {
  for (ClusterStream &cl : p.clusters)
    detail::replaceByParts(
        cl.commands, [&](const Command &c, std::vector<DmaDesc> &pieces) {
          return c.kind == CommandKind::Dma && c.dma.numElements() != 0 &&
                 splitAtPieces(c.dma, parts, maxParts, pieces) &&
                 pieces.size() >= 2;
        });
}

} // namespace

size_t accel::codegen::splitSharedSegments(Program &p, const HardwareDesc &hw,
                                           std::vector<DramBuffer> &segments,
                                           const std::vector<char> &splittable,
                                           const ChannelSplitOptions &opts) {
  const uint64_t nch = hw.channels.size();
  std::vector<BufferTraffic> traffic;
  std::string err;
  if (nch < 2 || !measureBufferTraffic(p, hw, segments, traffic, err))
    return 0;
  std::vector<char> cut(segments.size(), 0);
  for (size_t i = 0; i < segments.size(); ++i)
    cut[i] = i < splittable.size() && splittable[i] &&
             segments[i].bytes >= opts.minBytes && sharedTraffic(traffic[i]);
  keepWholeWhereDmasCannotSplit(p, segments,
                                cutInto(segments, cut, nch, opts.alignment),
                                opts.maxPartsPerDma, cut);
  const size_t count = size_t(std::count(cut.begin(), cut.end(), 1));
  if (count == 0)
    return 0;
  std::vector<DramBuffer> parts = cutInto(segments, cut, nch, opts.alignment);
  splitDmasAt(p, parts, opts.maxPartsPerDma);
  segments = std::move(parts);
  return count;
}
