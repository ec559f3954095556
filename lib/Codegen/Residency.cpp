//===- Residency.cpp - Intermediates kept in cluster storage --------------===//
//
// Planning works on the linear plan after the lowering: every DMA's DRAM
// side falls in one piece (cutSegments), so a piece is read and written by
// whole boxes and can move into a storage unit with the same strides.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Residency.h"
#include "accel/Codegen/SyncTracker.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace accel;
using namespace accel::codegen;

namespace {

/// [lo, hi) of a strided box of `elemBytes`-byte elements at `base`.
void boxBounds(uint64_t base, const uint32_t *shape, const int64_t *stride,
               int rank, uint64_t elemBytes, uint64_t &lo, uint64_t &hi) {
  int64_t below = 0, above = 0;
  for (int i = 0; i < rank; ++i) {
    int64_t span = int64_t(shape[i] - 1) * stride[i];
    (span < 0 ? below : above) += span;
  }
  lo = base + uint64_t(below) * elemBytes; // below <= 0: wraps back
  hi = base + uint64_t(above) * elemBytes + elemBytes;
}

void dmaSide(const DmaDesc &d, bool srcSide, uint64_t &lo, uint64_t &hi) {
  boxBounds(srcSide ? d.src : d.dst, d.shape,
            srcSide ? d.srcStride : d.dstStride, 4, d.elemBytes, lo, hi);
}

/// End of the highest storage byte of one LD / ST operand record.
uint64_t storageEnd(const OperandRecord &r, const InstrFields &f) {
  if (f.op == Opcode::LD && f.sub == uint8_t(LoadStream::SparseWeights))
    return uint64_t(r.addr) + uint64_t(r.rows) * 8;
  const int64_t stride[2] = {r.rowStride, r.colStride};
  uint64_t end = 0, lo = 0, hi = 0;
  if (r.peAddrs.empty()) {
    const uint32_t shape[2] = {r.rows, r.cols};
    boxBounds(r.addr, shape, stride, 2, 4, lo, hi);
    return hi;
  }
  for (size_t pe = 0; pe < r.peAddrs.size(); ++pe) {
    uint64_t r0 = r.peRows ? std::min<uint64_t>(pe * r.peRows, r.rows) : 0;
    uint64_t r1 = r.peRows ? std::min<uint64_t>(r0 + r.peRows, r.rows) : r.rows;
    if (r1 <= r0)
      continue;
    const uint32_t shape[2] = {uint32_t(r1 - r0), r.cols};
    boxBounds(r.peAddrs[pe], shape, stride, 2, 4, lo, hi);
    end = std::max(end, hi);
  }
  return end;
}

bool touchesStorage(const InstrFields &f) {
  return f.op == Opcode::LD || f.op == Opcode::ST;
}

/// Disjoint byte ranges [lo, hi) (merged on insertion).
class IntervalSet {
public:
  void add(uint64_t lo, uint64_t hi) {
    if (hi <= lo)
      return;
    auto it = set_.upper_bound(lo);
    if (it != set_.begin() && std::prev(it)->second >= lo)
      --it;
    while (it != set_.end() && it->first <= hi) {
      lo = std::min(lo, it->first);
      hi = std::max(hi, it->second);
      it = set_.erase(it);
    }
    set_.emplace(lo, hi);
  }
  /// The parts of [lo, hi) not in the set.
  std::vector<ByteRange> gaps(uint64_t lo, uint64_t hi) const {
    std::vector<ByteRange> out;
    auto it = set_.upper_bound(lo);
    if (it != set_.begin())
      --it;
    uint64_t at = lo;
    for (; it != set_.end() && it->first < hi && at < hi; ++it) {
      if (it->second <= at)
        continue;
      if (it->first > at)
        out.push_back({at, it->first});
      at = std::max(at, it->second);
    }
    if (at < hi)
      out.push_back({at, hi});
    return out;
  }
  void addAll(const IntervalSet &o) {
    for (auto [lo, hi] : o.set_)
      add(lo, hi);
  }

private:
  std::map<uint64_t, uint64_t> set_;
};

/// One DMA side (of a part of a DMA split at piece ends) in a piece.
struct PieceAccess {
  uint32_t cluster = 0, layer = 0;
  size_t cmd = 0;
  bool write = false;
  DmaDesc part;
};

/// Clusters other than `owner` that read the piece.
size_t remoteReaders(const std::vector<PieceAccess> &accesses, int64_t owner) {
  std::set<uint32_t> readers;
  for (const PieceAccess &a : accesses)
    if (!a.write && int64_t(a.cluster) != owner)
      readers.insert(a.cluster);
  return readers.size();
}

/// Whether serving the other clusters' reads of a piece owned by `owner`
/// over the mesh would cost more than leaving the piece in DRAM, summed
/// over its accesses, each priced with its latency and with the bandwidth
/// share it gets while the others run:
/// - resident: a remote read costs its hops x hop latency plus its bytes
///   over the owner's links shared by all the piece's remote readers
///   (dimension-order routing sends the readers of the owner's row along
///   one link and the others along one column link: two links); the
///   owner's own accesses become local copies (free here);
/// - in DRAM: every access costs the channel latency plus its bytes over a
///   channel shared by the clusters it serves (clusters / channels).
/// Small accesses are latency-bound and cheaper over the mesh; a piece that
/// many clusters stream (an output-channel split reads its whole input once
/// per step) is served faster from DRAM: ResNet-18's 14 x 14 layers on the
/// 4x4 preset (15 remote readers, each streaming the input 8 times in 10.8
/// KB loads) ran 2.9x longer resident.
bool remoteReadsCostMore(const std::vector<PieceAccess> &accesses,
                         int64_t owner, const HardwareDesc &hw) {
  if (hw.channels.empty() || hw.linkBytesPerCycle <= 0 || hw.cols == 0)
    return false;
  const size_t readers = remoteReaders(accesses, owner);
  if (readers == 0)
    return false;
  double channelBw = 0, latency = 0;
  for (const MemoryChannel &c : hw.channels) {
    channelBw += c.bytesPerCycle;
    latency += c.latencyCycles;
  }
  channelBw /= double(hw.channels.size());
  latency /= double(hw.channels.size());
  const double sharers =
      std::max(1.0, double(hw.numClusters()) / double(hw.channels.size()));
  constexpr double kOwnerLinks = 2;
  const double meshBw = kOwnerLinks * hw.linkBytesPerCycle / double(readers);
  double resident = 0, dram = 0;
  for (const PieceAccess &a : accesses) {
    const double bytes = double(a.part.numElements() * a.part.elemBytes);
    dram += latency + bytes * sharers / channelBw;
    if (a.write || int64_t(a.cluster) == owner)
      continue;
    const int64_t hops =
        std::abs(int64_t(a.cluster / hw.cols) - owner / int64_t(hw.cols)) +
        std::abs(int64_t(a.cluster % hw.cols) - owner % int64_t(hw.cols));
    resident += double(hops * hw.hopLatency) + bytes / meshBw;
  }
  return resident > dram;
}

} // namespace

std::vector<uint64_t>
accel::codegen::allocateStorage(const std::vector<StorageRequest> &requests,
                                const std::vector<std::vector<uint64_t>> &floor,
                                uint64_t capacity, uint64_t align) {
  align = std::max<uint64_t>(align, 1);
  auto up = [&](uint64_t a) { return (a + align - 1) / align * align; };
  std::vector<size_t> order(requests.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto held = [&](const StorageRequest &r) {
    return __int128(r.bytes) * (r.last - r.first + 1);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const StorageRequest &x = requests[a], &y = requests[b];
    return __int128(x.benefit) * held(y) > __int128(y.benefit) * held(x);
  });
  std::vector<uint64_t> addr(requests.size(), kNotGranted);
  std::vector<std::vector<size_t>> granted(floor.size());
  for (size_t i : order) {
    const StorageRequest &r = requests[i];
    if (r.cluster >= floor.size() || r.last < r.first || r.bytes == 0 ||
        r.last >= floor[r.cluster].size())
      continue;
    uint64_t base = 0;
    for (uint32_t l = r.first; l <= r.last; ++l)
      base = std::max(base, floor[r.cluster][l]);
    base = up(base);
    // Granted regions whose lifetime meets this one.
    std::vector<std::pair<uint64_t, uint64_t>> busy;
    for (size_t g : granted[r.cluster]) {
      const StorageRequest &o = requests[g];
      if (o.first <= r.last && r.first <= o.last)
        busy.push_back({addr[g], addr[g] + o.bytes});
    }
    std::vector<uint64_t> cands{base};
    for (auto [lo, hi] : busy)
      if (up(hi) >= base)
        cands.push_back(up(hi));
    std::sort(cands.begin(), cands.end());
    for (uint64_t a : cands) {
      if (a > capacity || r.bytes > capacity - a)
        break;
      bool clash = std::any_of(busy.begin(), busy.end(), [&](auto b) {
        return a < b.second && b.first < a + r.bytes;
      });
      if (clash)
        continue;
      addr[i] = a;
      granted[r.cluster].push_back(i);
      break;
    }
  }
  return addr;
}

std::vector<std::vector<uint64_t>> accel::codegen::storageHighWater(
    const Program &p, const std::vector<std::vector<uint32_t>> &commandLayers,
    uint32_t numLayers) {
  const size_t n = p.clusters.size();
  numLayers = std::max<uint32_t>(numLayers, 1);
  std::vector<std::vector<uint64_t>> hwm(n,
                                         std::vector<uint64_t>(numLayers, 0));
  for (size_t cl = 0; cl < n; ++cl) {
    std::vector<std::vector<Instruction>> bufs;
    const auto &cmds = p.clusters[cl].commands;
    for (size_t k = 0; k < cmds.size(); ++k) {
      const Command &c = cmds[k];
      uint32_t layer = cl < commandLayers.size() && k < commandLayers[cl].size()
                           ? std::min(commandLayers[cl][k], numLayers - 1)
                           : numLayers - 1;
      auto note = [&](size_t cluster, uint64_t end) {
        if (cluster < n)
          hwm[cluster][layer] = std::max(hwm[cluster][layer], end);
      };
      switch (c.kind) {
      case CommandKind::Config:
        if (bufs.size() <= c.ibuf)
          bufs.resize(size_t(c.ibuf) + 1);
        bufs[c.ibuf] = c.instrs;
        break;
      case CommandKind::Execute: {
        if (bufs.size() <= c.ibuf)
          bufs.resize(size_t(c.ibuf) + 1);
        auto &buf = bufs[c.ibuf];
        std::string err;
        applyPatches(buf, c.patches, err);
        for (Instruction &in : buf) {
          if (touchesStorage(in.fields)) {
            note(cl, storageEnd(in.operands, in.fields));
            if (in.operands.repeat > 1)
              note(cl, storageEnd(advancedOperands(in.operands, in.fields,
                                                   in.operands.repeat - 1),
                                  in.fields));
          }
          in.operands =
              advancedOperands(in.operands, in.fields, in.operands.repeat);
        }
        break;
      }
      case CommandKind::Dma: {
        const DmaDesc &d = c.dma;
        if (d.numElements() == 0)
          break;
        uint64_t lo, hi;
        if (!readsDram(d.dir)) {
          dmaSide(d, true, lo, hi);
          note(d.dir == DmaDir::RemoteLoad ? d.srcCluster : cl, hi);
        }
        if (!writesDram(d.dir)) {
          dmaSide(d, false, lo, hi);
          note(cl, hi);
        }
        break;
      }
      case CommandKind::Send:
        note(cl, uint64_t(c.mesh.src) + c.mesh.bytes);
        for (uint32_t t : c.mesh.targets)
          note(t, uint64_t(c.mesh.dst) + c.mesh.bytes);
        break;
      case CommandKind::Recur:
        note(cl, c.recur->storageEnd());
        break;
      default:
        break;
      }
    }
  }
  return hwm;
}

std::vector<char>
accel::codegen::intermediatePieces(const Program &p,
                                   const std::vector<DramBuffer> &pieces) {
  IntervalSet fixed;
  for (const Symbol &s : p.symbols) // f32 images whatever the interface type
    fixed.add(s.dramAddr,
              s.dramAddr + std::max<uint64_t>(s.numElements() * 4, 1));
  for (const ConstSegment &c : p.constants) {
    fixed.add(c.dramAddr, c.dramAddr + c.size());
    for (uint64_t r : c.replicas)
      fixed.add(r, r + c.size());
  }
  for (const ConstPacket &k : p.packets) {
    for (const PacketBlockRef &b : k.blocks)
      fixed.add(b.dramAddr, b.dramAddr + b.bytes);
    fixed.add(k.markerAddr, k.markerAddr + k.marker.size());
  }
  std::vector<char> out(pieces.size(), 0);
  for (size_t i = 0; i < pieces.size(); ++i) {
    auto g = fixed.gaps(pieces[i].addr, pieces[i].addr + pieces[i].bytes);
    out[i] = g.size() == 1 && g[0].lo == pieces[i].addr &&
             g[0].hi == pieces[i].addr + pieces[i].bytes;
  }
  return out;
}

bool accel::codegen::splitAtPieces(const DmaDesc &d,
                                   const std::vector<DramBuffer> &pieces,
                                   size_t maxParts, std::vector<DmaDesc> &out) {
  // Whether every DRAM side of `x` lies inside one piece (or in none).
  auto fits = [&](const DmaDesc &x) {
    for (int s = 0; s < 2; ++s) {
      if (!dramSide(x.dir, s == 0))
        continue;
      uint64_t lo, hi;
      dmaSide(x, s == 0, lo, hi);
      int64_t b = bufferOf(pieces, lo);
      if (b < 0 ? bufferOf(pieces, hi - 1) >= 0
                : hi > pieces[size_t(b)].addr + pieces[size_t(b)].bytes)
        return false;
    }
    return true;
  };
  // The piece of the first DRAM side's first byte (the run key).
  auto pieceOf = [&](const DmaDesc &x) {
    uint64_t lo, hi;
    dmaSide(x, readsDram(x.dir), lo, hi);
    return bufferOf(pieces, lo);
  };
  // Splits `x` along dimension `dim` and deeper; appends the parts.
  std::function<bool(const DmaDesc &, int)> split = [&](const DmaDesc &x,
                                                        int dim) {
    if (fits(x)) {
      out.push_back(x);
      return out.size() <= maxParts;
    }
    while (dim < 4 && x.shape[dim] == 1)
      ++dim;
    if (dim >= 4)
      return false; // one element across a piece end
    auto slice = [&](uint32_t from, uint32_t n) {
      DmaDesc y = x;
      y.shape[dim] = n;
      y.src = x.src +
              uint64_t(int64_t(from) * x.srcStride[dim] * int64_t(x.elemBytes));
      y.dst = x.dst +
              uint64_t(int64_t(from) * x.dstStride[dim] * int64_t(x.elemBytes));
      return y;
    };
    // Runs of consecutive slices that fit in the same piece become one part;
    // a slice across a piece end is split further.
    uint32_t runStart = 0, runLen = 0;
    int64_t runPiece = -2;
    auto flush = [&]() {
      if (runLen == 0)
        return true;
      out.push_back(slice(runStart, runLen));
      runLen = 0;
      return out.size() <= maxParts;
    };
    for (uint32_t i = 0; i < x.shape[dim]; ++i) {
      DmaDesc one = slice(i, 1);
      if (!fits(one)) {
        if (!flush() || !split(one, dim + 1))
          return false;
        continue;
      }
      int64_t p = pieceOf(one);
      if (runLen > 0 && p == runPiece) {
        // Still one box only if every DRAM side of the run fits.
        DmaDesc grown = slice(runStart, runLen + 1);
        if (fits(grown)) {
          ++runLen;
          continue;
        }
      }
      if (!flush())
        return false;
      runStart = i;
      runLen = 1;
      runPiece = p;
    }
    return flush();
  };
  out.clear();
  return split(d, 0);
}

namespace {

/// A written byte range and its writer.
struct WriteRange {
  uint64_t lo, hi;
  uint32_t cluster;
};

/// More runs than this in one write box: its bounding range stands for it.
constexpr size_t kMaxRunsPerWriteBox = 32;

/// The contiguous byte runs of a DMA's DRAM destination box, appended to
/// `out` for `cluster`. False (nothing appended) when a stride is negative
/// or the box has more than kMaxRunsPerWriteBox runs.
bool appendWriteRuns(const DmaDesc &d, uint32_t cluster,
                     std::vector<WriteRange> &out) {
  // The innermost dimensions whose strides continue each other form one
  // run of `len` elements; the outer ones enumerate the runs.
  int64_t len = 1;
  int outer = 3;
  for (; outer >= 0 && (d.shape[outer] == 1 || d.dstStride[outer] == len);
       --outer)
    len *= d.shape[outer];
  uint64_t count = 1;
  for (int i = 0; i <= outer; ++i) {
    if (d.dstStride[i] < 0)
      return false;
    count *= d.shape[i];
  }
  if (count > kMaxRunsPerWriteBox)
    return false;
  const uint64_t bytes = uint64_t(len) * d.elemBytes;
  for (uint64_t n = 0; n < count; ++n) {
    uint64_t rest = n, off = 0;
    for (int i = outer; i >= 0; --i) {
      off += (rest % d.shape[i]) * uint64_t(d.dstStride[i]);
      rest /= d.shape[i];
    }
    const uint64_t lo = d.dst + off * d.elemBytes;
    out.push_back({lo, lo + bytes, cluster});
  }
  return true;
}

/// Overlapping write ranges merged, with their writers (sorted).
struct WriterGroup {
  uint64_t lo, hi;
  std::vector<uint32_t> writers;
};

/// The groups of overlapping ranges, ascending.
std::vector<WriterGroup> writerGroups(std::vector<WriteRange> ranges) {
  std::sort(
      ranges.begin(), ranges.end(),
      [](const WriteRange &a, const WriteRange &b) { return a.lo < b.lo; });
  std::vector<WriterGroup> groups;
  for (const WriteRange &r : ranges) {
    if (groups.empty() || r.lo >= groups.back().hi)
      groups.push_back({r.lo, r.hi, {}});
    WriterGroup &g = groups.back();
    g.hi = std::max(g.hi, r.hi);
    if (std::find(g.writers.begin(), g.writers.end(), r.cluster) ==
        g.writers.end())
      g.writers.push_back(r.cluster);
  }
  for (WriterGroup &g : groups)
    std::sort(g.writers.begin(), g.writers.end());
  return groups;
}

/// Cut points where the set of writers changes from one group to the next.
std::vector<uint64_t> writerCuts(const std::vector<WriterGroup> &groups) {
  std::vector<uint64_t> cuts;
  for (size_t i = 1; i < groups.size(); ++i)
    if (groups[i].writers != groups[i - 1].writers && groups[i].lo % 4 == 0)
      cuts.push_back(groups[i].lo);
  return cuts;
}

/// The cuts of `cuts` strictly inside [start, end).
std::vector<uint64_t> cutsInside(const std::vector<uint64_t> &cuts,
                                 uint64_t start, uint64_t end) {
  std::vector<uint64_t> in;
  for (auto it = std::upper_bound(cuts.begin(), cuts.end(), start);
       it != cuts.end() && *it < end; ++it)
    in.push_back(*it);
  return in;
}

/// Whether cutting [start, end) at `cuts` leaves no part below `minBytes`.
bool partsAtLeast(const std::vector<uint64_t> &cuts, uint64_t start,
                  uint64_t end, uint64_t minBytes) {
  for (uint64_t c : cuts) {
    if (c - start < minBytes)
      return false;
    start = c;
  }
  return end - start >= minBytes;
}

} // namespace

std::vector<DramBuffer> accel::codegen::refineByWriters(
    const Program &p, const std::vector<DramBuffer> &pieces,
    const std::vector<char> &intermediate,
    std::vector<char> &refinedIntermediate, uint64_t minRunPieceBytes) {
  // Each write box as its bounding range; then, inside the groups of
  // overlapping ranges with several writers, as its runs: the boxes of a
  // feature map split by rows over the clusters interleave (every channel
  // plane holds a block of each cluster's rows), so their bounding ranges
  // all overlap while their runs do not.
  std::vector<WriteRange> bounds;
  std::vector<const DmaDesc *> writes;
  for (size_t cl = 0; cl < p.clusters.size(); ++cl)
    for (const Command &c : p.clusters[cl].commands)
      if (c.kind == CommandKind::Dma && c.dma.numElements() != 0 &&
          writesDram(c.dma.dir)) {
        uint64_t lo, hi;
        dmaSide(c.dma, false, lo, hi);
        bounds.push_back({lo, hi, uint32_t(cl)});
        writes.push_back(&c.dma);
      }
  const std::vector<WriterGroup> boundGroups = writerGroups(bounds);
  const std::vector<uint64_t> boundCuts = writerCuts(boundGroups);
  std::vector<uint64_t> runCuts = boundCuts;
  if (minRunPieceBytes) {
    auto shared = [&](uint64_t a) {
      auto it = std::upper_bound(
          boundGroups.begin(), boundGroups.end(), a,
          [](uint64_t x, const WriterGroup &g) { return x < g.lo; });
      return it != boundGroups.begin() && std::prev(it)->writers.size() > 1;
    };
    std::vector<WriteRange> runs;
    for (size_t i = 0; i < writes.size(); ++i)
      if (!shared(bounds[i].lo) ||
          !appendWriteRuns(*writes[i], bounds[i].cluster, runs))
        runs.push_back(bounds[i]);
    runCuts = writerCuts(writerGroups(std::move(runs)));
  }
  std::vector<DramBuffer> out;
  refinedIntermediate.clear();
  for (size_t i = 0; i < pieces.size(); ++i) {
    uint64_t start = pieces[i].addr, end = start + pieces[i].bytes;
    std::vector<uint64_t> cuts;
    char flag = intermediate[i] ? 1 : 0;
    if (intermediate[i]) {
      // The runs' cuts where no part gets too small to be worth the split
      // DMAs that reach it, else the bounding ranges' cuts.
      cuts = cutsInside(runCuts, start, end);
      if (!partsAtLeast(cuts, start, end, minRunPieceBytes))
        cuts = cutsInside(boundCuts, start, end);
      else if (cuts != cutsInside(boundCuts, start, end))
        flag = kCutBetweenRuns;
    }
    for (uint64_t c : cuts) {
      out.push_back({start, c - start});
      refinedIntermediate.push_back(flag);
      start = c;
    }
    out.push_back({start, end - start});
    refinedIntermediate.push_back(flag);
  }
  return out;
}

namespace {

/// Whether every byte a read of the piece touches was written before it: by
/// an earlier layer, or earlier in the same layer by the reading cluster.
bool readsAfterWrites(std::vector<PieceAccess> acc, size_t maxRanges) {
  std::sort(acc.begin(), acc.end(),
            [](const PieceAccess &a, const PieceAccess &b) {
              if (a.layer != b.layer)
                return a.layer < b.layer;
              if (a.cluster != b.cluster)
                return a.cluster < b.cluster;
              return a.cmd < b.cmd;
            });
  IntervalSet before; // written in earlier layers
  std::map<uint32_t, IntervalSet> thisLayer;
  uint32_t layer = acc.empty() ? 0 : acc.front().layer;
  for (const PieceAccess &a : acc) {
    if (a.layer != layer) {
      // The earlier layers' writes (every cluster's) are ordered before
      // this layer.
      for (auto &kv : thisLayer)
        before.addAll(kv.second);
      thisLayer.clear();
      layer = a.layer;
    }
    const DmaDesc &d = a.part;
    int64_t shape[4], stride[4];
    for (int i = 0; i < 4; ++i) {
      shape[i] = d.shape[i];
      stride[i] = a.write ? d.dstStride[i] : d.srcStride[i];
    }
    bool exact = true;
    std::vector<ByteRange> rs =
        boxByteRanges(a.write ? d.dst : d.src, 4, shape, stride, d.elemBytes,
                      maxRanges, exact);
    if (a.write) {
      if (exact)
        for (const ByteRange &r : rs)
          thisLayer[a.cluster].add(r.lo, r.hi);
      continue;
    }
    auto mine = thisLayer.find(a.cluster);
    for (const ByteRange &r : rs)
      for (const ByteRange &g : before.gaps(r.lo, r.hi))
        if (mine == thisLayer.end() || !mine->second.gaps(g.lo, g.hi).empty())
          return false;
  }
  return true;
}

uint32_t layerOf(const std::vector<std::vector<uint32_t>> &commandLayers,
                 size_t cl, size_t k, uint32_t numLayers) {
  return cl < commandLayers.size() && k < commandLayers[cl].size()
             ? std::min(commandLayers[cl][k], numLayers - 1)
             : numLayers - 1;
}

/// When an owner may reuse storage another cluster read: per (owner,
/// reader), the owner's RECVs of the reader's semaphore (the reader's index)
/// in stream order, each with the owner's layer and the reader's last layer
/// whose DMAs it covers. A SIGNAL right after a WAIT of every tag and the
/// PEs (the end-of-layer pair) covers its own layer, any other arrival
/// (SEND, SIGNAL) the layers before its own (the reader's earlier layers
/// ended with such a WAIT). When another cluster also uses that semaphore
/// towards the owner the arrivals cannot be told apart: no release.
class ReleaseMap {
public:
  ReleaseMap(const Program &p,
             const std::vector<std::vector<uint32_t>> &commandLayers,
             uint32_t numLayers, bool barrierSync)
      : n_(p.clusters.size()), numLayers_(numLayers),
        barrierSync_(barrierSync) {
    std::vector<std::vector<int64_t>> arrivals(n_ * n_);
    std::vector<char> foreign(n_ * n_, 0);
    for (size_t x = 0; x < n_; ++x) {
      const auto &cmds = p.clusters[x].commands;
      for (size_t k = 0; k < cmds.size(); ++k) {
        const Command &c = cmds[k];
        if (c.kind != CommandKind::Signal && c.kind != CommandKind::Send)
          continue;
        const int64_t layer = layerOf(commandLayers, x, k, numLayers);
        const bool endOfLayer = c.kind == CommandKind::Signal && k > 0 &&
                                cmds[k - 1].kind == CommandKind::Wait &&
                                cmds[k - 1].waitTags == 0xFF &&
                                cmds[k - 1].waitPe;
        for (uint32_t t : c.mesh.targets) {
          if (t >= n_ || c.mesh.sem >= n_)
            continue;
          if (c.mesh.sem != x)
            foreign[t * n_ + c.mesh.sem] = 1;
          else
            arrivals[t * n_ + x].push_back(endOfLayer ? layer : layer - 1);
        }
      }
    }
    recvs_.resize(n_ * n_);
    for (size_t o = 0; o < n_; ++o) {
      std::vector<uint64_t> taken(n_, 0);
      const auto &cmds = p.clusters[o].commands;
      for (size_t k = 0; k < cmds.size(); ++k) {
        const Command &c = cmds[k];
        if (c.kind != CommandKind::Recv || c.sem >= n_ ||
            foreign[o * n_ + c.sem])
          continue;
        const auto &arr = arrivals[o * n_ + c.sem];
        taken[c.sem] += c.count;
        if (taken[c.sem] == 0 || taken[c.sem] > arr.size())
          continue;
        // Arrivals of one sender come in its stream order; the latest of
        // those taken covers the most.
        int64_t covered = -1;
        for (uint64_t a = 0; a < taken[c.sem]; ++a)
          covered = std::max(covered, arr[a]);
        recvs_[o * n_ + c.sem].push_back(
            {layerOf(commandLayers, o, k, numLayers), covered});
      }
    }
  }

  /// The last layer in which `owner` must keep storage that `reader` read
  /// in layer `readLayer`.
  uint32_t after(uint32_t owner, uint32_t reader, uint32_t readLayer) const {
    // Barrier mode: every cluster waits for all its DMAs before the barrier
    // that ends each layer.
    if (barrierSync_)
      return readLayer;
    if (owner < n_ && reader < n_)
      for (const auto &[ownerLayer, covered] : recvs_[owner * n_ + reader])
        if (covered >= int64_t(readLayer))
          return std::max(ownerLayer, readLayer);
    return numLayers_ - 1;
  }

private:
  size_t n_;
  uint32_t numLayers_;
  bool barrierSync_;
  std::vector<std::vector<std::pair<uint32_t, int64_t>>> recvs_;
};

} // namespace

ResidencyPlan accel::codegen::planResidency(
    const Program &p, const HardwareDesc &hw,
    const std::vector<std::vector<uint32_t>> &commandLayers, uint32_t numLayers,
    const std::vector<DramBuffer> &coarse,
    const std::vector<char> &coarseIntermediate, const ResidencyOptions &opts) {
  numLayers = std::max<uint32_t>(numLayers, 1);
  ResidencyPlan plan;
  std::vector<char> intermediate;
  plan.pieces = refineByWriters(p, coarse, coarseIntermediate, intermediate,
                                opts.minRunPieceBytes);
  const std::vector<DramBuffer> &pieces = plan.pieces;
  const size_t np = pieces.size();
  plan.owner.assign(np, -1);
  plan.storageAddr.assign(np, 0);
  plan.dramTraffic.assign(np, 0);
  plan.reason.assign(np, StayReason::NotWritten);
  std::vector<char> other(np, 0);
  std::vector<std::vector<PieceAccess>> acc(np);
  std::vector<DmaDesc> parts;
  for (size_t cl = 0; cl < p.clusters.size(); ++cl) {
    const auto &cmds = p.clusters[cl].commands;
    for (size_t k = 0; k < cmds.size(); ++k) {
      const Command &c = cmds[k];
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0 ||
          (!readsDram(c.dma.dir) && !writesDram(c.dma.dir)))
        continue;
      const uint32_t layer = layerOf(commandLayers, cl, k, numLayers);
      if (!splitAtPieces(c.dma, pieces, opts.maxPartsPerDma, parts)) {
        // Every piece the DMA's DRAM sides reach stays in DRAM.
        for (int s = 0; s < 2; ++s) {
          if (!dramSide(c.dma.dir, s == 0))
            continue;
          uint64_t lo, hi;
          dmaSide(c.dma, s == 0, lo, hi);
          for (int64_t q = std::max<int64_t>(bufferOf(pieces, lo), 0);
               q < int64_t(np) && pieces[size_t(q)].addr < hi; ++q)
            if (pieces[size_t(q)].addr + pieces[size_t(q)].bytes > lo)
              other[size_t(q)] = 1;
        }
        continue;
      }
      for (const DmaDesc &d : parts) {
        int64_t sides[2] = {-1, -1};
        for (int s = 0; s < 2; ++s) {
          if (!dramSide(d.dir, s == 0))
            continue;
          int64_t b = bufferOf(pieces, s == 0 ? d.src : d.dst);
          if (b < 0)
            continue;
          sides[s] = b;
          plan.dramTraffic[size_t(b)] += d.numElements() * d.elemBytes;
          acc[size_t(b)].push_back({uint32_t(cl), layer, k, s == 1, d});
        }
        if (sides[0] >= 0 && sides[0] == sides[1])
          other[size_t(sides[0])] = 1; // a copy inside one piece
      }
    }
  }
  const ReleaseMap releases(p, commandLayers, numLayers, opts.barrierSync);
  std::vector<StorageRequest> requests;
  std::vector<size_t> requestPiece;
  for (size_t i = 0; i < np; ++i) {
    if (!intermediate[i]) {
      plan.reason[i] = StayReason::NotIntermediate;
      continue;
    }
    int64_t owner = -1;
    bool several = false;
    for (const PieceAccess &a : acc[i])
      if (a.write) {
        several |= owner >= 0 && owner != int64_t(a.cluster);
        owner = a.cluster;
      }
    if (owner < 0) {
      plan.reason[i] = StayReason::NotWritten;
      continue;
    }
    if (several) {
      plan.reason[i] = StayReason::SeveralWriters;
      continue;
    }
    bool remoteReader = false;
    for (const PieceAccess &a : acc[i])
      if (!a.write && int64_t(a.cluster) != owner) {
        remoteReader = true;
        if (a.part.dir == DmaDir::DramCopy || !hw.sharedClusterCache)
          other[i] = 1;
      }
    if (other[i]) {
      plan.reason[i] = StayReason::OtherAccess;
      continue;
    }
    if (!readsAfterWrites(acc[i], opts.maxRangesPerBox)) {
      plan.reason[i] = StayReason::ReadBeforeWrite;
      continue;
    }
    if (intermediate[i] == kCutBetweenRuns &&
        remoteReaders(acc[i], owner) > opts.maxRunPieceRemoteReaders) {
      plan.reason[i] = StayReason::MeshBound;
      continue;
    }
    if (opts.meshAware && remoteReadsCostMore(acc[i], owner, hw)) {
      plan.reason[i] = StayReason::MeshBound;
      continue;
    }
    StorageRequest r;
    r.cluster = uint32_t(owner);
    r.bytes = pieces[i].bytes;
    r.first = numLayers - 1;
    r.last = 0;
    for (const PieceAccess &a : acc[i]) {
      r.first = std::min(r.first, a.layer);
      r.last = std::max(r.last, a.layer);
    }
    // Another cluster's remote load of the region is ordered before the
    // owner's later writes of it only once the owner has synchronised with
    // that reader (the tracker saw different DRAM addresses and added no
    // WAR dependency): the region stays taken until then, or to the end.
    if (remoteReader)
      for (const PieceAccess &a : acc[i])
        if (!a.write && int64_t(a.cluster) != owner)
          r.last = std::max(
              r.last, releases.after(uint32_t(owner), a.cluster, a.layer));
    r.benefit = plan.dramTraffic[i];
    plan.reason[i] = StayReason::NoRoom;
    requests.push_back(r);
    requestPiece.push_back(i);
  }
  if (requests.empty())
    return plan;
  std::vector<std::vector<uint64_t>> floor =
      storageHighWater(p, commandLayers, numLayers);
  std::vector<uint64_t> addr =
      allocateStorage(requests, floor, hw.storageBytes, opts.align);
  for (size_t r = 0; r < requests.size(); ++r) {
    if (addr[r] == kNotGranted)
      continue;
    size_t i = requestPiece[r];
    plan.owner[i] = requests[r].cluster;
    plan.storageAddr[i] = addr[r];
    plan.reason[i] = StayReason::Resident;
  }
  return plan;
}

namespace {

/// Rewrites one DMA part whose DRAM sides each lie in one piece.
void rewritePart(DmaDesc &d, uint32_t cl, const ResidencyPlan &plan) {
  auto resident = [&](uint64_t a, uint64_t &storage) -> int64_t {
    int64_t b = bufferOf(plan.pieces, a);
    if (b < 0 || !plan.resident(size_t(b)))
      return -1;
    storage = plan.storageAddr[size_t(b)] + (a - plan.pieces[size_t(b)].addr);
    return plan.owner[size_t(b)];
  };
  uint64_t src = 0, dst = 0;
  int64_t so = readsDram(d.dir) ? resident(d.src, src) : -1;
  int64_t dow = writesDram(d.dir) ? resident(d.dst, dst) : -1;
  if (so < 0 && dow < 0)
    return;
  if (so >= 0)
    d.src = src;
  if (dow >= 0)
    d.dst = dst;
  switch (d.dir) {
  case DmaDir::Load:
    if (so == int64_t(cl)) {
      d.dir = DmaDir::LocalCopy;
    } else {
      d.dir = DmaDir::RemoteLoad;
      d.srcCluster = uint32_t(so);
    }
    break;
  case DmaDir::Store:
    d.dir = DmaDir::LocalCopy;
    break;
  case DmaDir::DramCopy:
    d.dir = so >= 0 && dow >= 0 ? DmaDir::LocalCopy
            : so >= 0           ? DmaDir::Store
                                : DmaDir::Load;
    break;
  default:
    break;
  }
}

} // namespace

void accel::codegen::applyResidency(Program &p, const ResidencyPlan &plan,
                                    const ResidencyOptions &opts) {
  const std::vector<DramBuffer> &pieces = plan.pieces;
  // Whether a DRAM side's bounding range meets a resident piece.
  auto meetsResident = [&](const DmaDesc &d, bool srcSide) {
    uint64_t lo, hi;
    dmaSide(d, srcSide, lo, hi);
    for (int64_t q = std::max<int64_t>(bufferOf(pieces, lo), 0);
         q < int64_t(pieces.size()) && pieces[size_t(q)].addr < hi; ++q)
      if (pieces[size_t(q)].addr + pieces[size_t(q)].bytes > lo &&
          plan.resident(size_t(q)))
        return true;
    return false;
  };
  std::vector<DmaDesc> parts;
  for (size_t cl = 0; cl < p.clusters.size(); ++cl) {
    std::vector<Command> out;
    out.reserve(p.clusters[cl].commands.size());
    for (Command &c : p.clusters[cl].commands) {
      const DmaDesc &d = c.dma;
      if (c.kind != CommandKind::Dma || d.numElements() == 0 ||
          !((readsDram(d.dir) && meetsResident(d, true)) ||
            (writesDram(d.dir) && meetsResident(d, false)))) {
        out.push_back(std::move(c));
        continue;
      }
      // planResidency split the same DMA within the same limit.
      if (!splitAtPieces(d, pieces, opts.maxPartsPerDma, parts))
        parts = {d};
      for (DmaDesc &part : parts) {
        Command x = c;
        x.dma = part;
        rewritePart(x.dma, uint32_t(cl), plan);
        out.push_back(std::move(x));
      }
    }
    p.clusters[cl].commands = std::move(out);
  }
}

std::vector<DramBuffer>
accel::codegen::remainingBuffers(const ResidencyPlan &plan,
                                 const std::vector<DramBuffer> &coarse) {
  std::vector<DramBuffer> out;
  for (size_t i = 0; i < plan.pieces.size(); ++i) {
    if (plan.resident(i))
      continue;
    const DramBuffer &b = plan.pieces[i];
    // Merge with the previous kept piece when both are of one coarse piece
    // and adjacent.
    if (!out.empty() && out.back().addr + out.back().bytes == b.addr &&
        bufferOf(coarse, out.back().addr) == bufferOf(coarse, b.addr)) {
      out.back().bytes += b.bytes;
      continue;
    }
    out.push_back(b);
  }
  return out;
}

ResidencySummary accel::codegen::summarize(const ResidencyPlan &plan) {
  ResidencySummary s;
  for (size_t i = 0; i < plan.pieces.size(); ++i) {
    StayReason r = plan.reason[i];
    if (r == StayReason::Resident) {
      s.residentBytes += plan.pieces[i].bytes;
      s.residentTraffic += plan.dramTraffic[i];
      ++s.residentPieces;
    } else if (r != StayReason::NotIntermediate &&
               r != StayReason::NotWritten) {
      s.spilledBytes += plan.pieces[i].bytes;
      s.spilledTraffic += plan.dramTraffic[i];
      ++s.spilledPieces;
    }
  }
  return s;
}
