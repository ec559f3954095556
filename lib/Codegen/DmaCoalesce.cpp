//===- DmaCoalesce.cpp - Consecutive DMAs merged into one box -------------===//
#include "accel/Codegen/DmaCoalesce.h"

#include <limits>
#include <vector>

using namespace accel;

namespace {
/// The outermost dimension of `d`'s right-aligned box that is declared (an
/// extent above one or a stride); 3 for a one-element box.
int outerDim(const DmaDesc &d) {
  for (int i = 0; i < 3; ++i)
    if (d.shape[i] > 1 || d.srcStride[i] != 0 || d.dstStride[i] != 0)
      return i;
  return 3;
}

bool mergeable(DmaDir dir) {
  return dir == DmaDir::Load || dir == DmaDir::Store ||
         dir == DmaDir::LocalCopy || dir == DmaDir::RemoteLoad;
}

/// The DRAM ranges of the program's inputs and outputs (every piece and
/// replica), each with its symbol's index: a DMA that reads two symbols
/// must stay two DMAs (an input's arrival delays only the loads that read
/// it, `accel-run --arrival`).
class SymbolRanges {
public:
  explicit SymbolRanges(const Program &p) {
    for (size_t i = 0; i < p.symbols.size(); ++i) {
      const Symbol &s = p.symbols[i];
      const uint64_t bytes = s.numElements() * 4;
      if (s.pieces.empty())
        ranges_.push_back({s.dramAddr, s.dramAddr + bytes, i});
      for (const DramPiece &q : s.pieces)
        ranges_.push_back({q.dramAddr, q.dramAddr + q.bytes, i});
    }
  }
  /// The symbol whose range holds DRAM byte `addr`, or -1.
  int64_t symbolAt(uint64_t addr) const {
    for (const Range &r : ranges_)
      if (addr >= r.lo && addr < r.hi)
        return int64_t(r.symbol);
    return -1;
  }

private:
  struct Range {
    uint64_t lo, hi;
    size_t symbol;
  };
  std::vector<Range> ranges_;
};
} // namespace

namespace {
/// The dimension along which `b` continues `a`'s box (continuesBox), or -1.
int mergeDim(const DmaDesc &a, const DmaDesc &b) {
  if (a.dir != b.dir || !mergeable(a.dir) || a.tag != b.tag ||
      a.elemBytes != b.elemBytes ||
      (a.dir == DmaDir::RemoteLoad && a.srcCluster != b.srcCluster) ||
      a.numElements() == 0 || b.numElements() == 0)
    return -1;
  const int k = std::min(outerDim(a), outerDim(b));
  if (a.srcStride[k] == 0 || a.dstStride[k] == 0)
    return -1;
  for (int i = 0; i < 4; ++i) {
    if (i < k && (a.shape[i] != 1 || b.shape[i] != 1))
      return -1;
    if (i > k && a.shape[i] != b.shape[i])
      return -1;
    if (i >= k &&
        (a.srcStride[i] != b.srcStride[i] || a.dstStride[i] != b.dstStride[i]))
      return -1;
  }
  if (uint64_t(a.shape[k]) + b.shape[k] > std::numeric_limits<uint32_t>::max())
    return -1;
  const int64_t n = int64_t(a.shape[k]) * int64_t(a.elemBytes);
  return b.src == a.src + uint64_t(n * a.srcStride[k]) &&
                 b.dst == a.dst + uint64_t(n * a.dstStride[k])
             ? k
             : -1;
}
} // namespace

bool accel::codegen::continuesBox(const DmaDesc &a, const DmaDesc &b) {
  return mergeDim(a, b) >= 0;
}

size_t accel::codegen::coalesceDmaLoads(Program &p) {
  const SymbolRanges symbols(p);
  // DRAM sides in one symbol or in none (local copies and remote loads
  // have none).
  auto sameSymbol = [&](const DmaDesc &a, const DmaDesc &b) {
    if (a.dir == DmaDir::Load)
      return symbols.symbolAt(a.src) == symbols.symbolAt(b.src);
    if (a.dir == DmaDir::Store)
      return symbols.symbolAt(a.dst) == symbols.symbolAt(b.dst);
    return true;
  };
  size_t removed = 0;
  for (ClusterStream &s : p.clusters) {
    CommandList out;
    out.reserve(s.commands.size());
    for (Command &c : s.commands) {
      if (c.kind == CommandKind::Dma && !out.empty()) {
        Command &prev = out.back();
        const int k = prev.kind == CommandKind::Dma && prev.layer == c.layer
                          ? mergeDim(prev.dma, c.dma)
                          : -1;
        if (k >= 0 && sameSymbol(prev.dma, c.dma)) {
          prev.dma.shape[k] += c.dma.shape[k];
          ++removed;
          continue;
        }
      }
      out.push_back(std::move(c));
    }
    s.commands = std::move(out);
  }
  return removed;
}
