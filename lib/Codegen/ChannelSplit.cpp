//===- ChannelSplit.cpp - Shared DRAM buffers cut over the channels -------===//
#include "accel/Codegen/ChannelSplit.h"
#include "accel/Codegen/Residency.h"
#include <algorithm>
#include <string>

using namespace accel;
using namespace accel::codegen;

namespace {

bool dramSide(const DmaDesc &d, bool srcSide) {
  return srcSide ? (d.dir == DmaDir::Load || d.dir == DmaDir::DramCopy)
                 : (d.dir == DmaDir::Store || d.dir == DmaDir::DramCopy);
}

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

/// The segments with the chosen ones cut into `parts` equal aligned parts;
/// `cutFrom[i]` = the segment of the input each output part comes from.
std::vector<DramBuffer> cutInto(const std::vector<DramBuffer> &segments,
                                const std::vector<char> &cut, uint64_t parts,
                                uint64_t alignment,
                                std::vector<size_t> &cutFrom) {
  std::vector<DramBuffer> out;
  cutFrom.clear();
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
        cutFrom.push_back(i);
        start = at;
      }
    out.push_back({start, s.addr + s.bytes - start});
    cutFrom.push_back(i);
  }
  return out;
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
  // A segment stays whole when one of the DMAs across its cuts would need
  // too many parts.
  std::vector<size_t> from;
  std::vector<DramBuffer> parts =
      cutInto(segments, cut, nch, opts.alignment, from);
  std::vector<DmaDesc> pieces;
  for (const ClusterStream &cl : p.clusters)
    for (const Command &c : cl.commands) {
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0 ||
          splitAtPieces(c.dma, parts, opts.maxPartsPerDma, pieces))
        continue;
      for (bool srcSide : {true, false}) {
        if (!dramSide(c.dma, srcSide))
          continue;
        const int64_t b = bufferOf(segments, srcSide ? c.dma.src : c.dma.dst);
        if (b >= 0)
          cut[size_t(b)] = 0;
      }
    }
  const size_t count = size_t(std::count(cut.begin(), cut.end(), 1));
  if (count == 0)
    return 0;
  parts = cutInto(segments, cut, nch, opts.alignment, from);
  for (ClusterStream &cl : p.clusters) {
    std::vector<Command> out;
    out.reserve(cl.commands.size());
    for (Command &c : cl.commands) {
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0 ||
          !splitAtPieces(c.dma, parts, opts.maxPartsPerDma, pieces) ||
          pieces.size() < 2) {
        out.push_back(std::move(c));
        continue;
      }
      for (const DmaDesc &d : pieces) {
        Command x = c;
        x.dma = d;
        out.push_back(std::move(x));
      }
    }
    cl.commands = std::move(out);
  }
  segments = std::move(parts);
  return count;
}
