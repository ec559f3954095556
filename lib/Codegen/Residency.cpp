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
#include <map>

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

bool srcInDram(DmaDir d) { return d == DmaDir::Load || d == DmaDir::DramCopy; }
bool dstInDram(DmaDir d) { return d == DmaDir::Store || d == DmaDir::DramCopy; }

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

/// One DMA side that falls in a piece.
struct PieceAccess {
  uint32_t cluster = 0, layer = 0;
  size_t cmd = 0;
  bool write = false;
  DmaDir dir = DmaDir::Load;
};

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
        if (!srcInDram(d.dir)) {
          dmaSide(d, true, lo, hi);
          note(d.dir == DmaDir::RemoteLoad ? d.srcCluster : cl, hi);
        }
        if (!dstInDram(d.dir)) {
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
  for (const Symbol &s : p.symbols)
    fixed.add(s.dramAddr,
              s.dramAddr +
                  std::max<uint64_t>(s.numElements() * dtypeBytes(s.dtype), 1));
  for (const ConstSegment &c : p.constants) {
    fixed.add(c.dramAddr, c.dramAddr + c.bytes.size());
    for (uint64_t r : c.replicas)
      fixed.add(r, r + c.bytes.size());
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

namespace {

/// Whether every byte a read of `piece` touches was written before it: by
/// an earlier layer, or earlier in the same layer by the reading cluster.
bool readsAfterWrites(const Program &p, std::vector<PieceAccess> acc,
                      size_t maxRanges) {
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
  auto ranges = [&](const PieceAccess &a, bool &exact) {
    const DmaDesc &d = p.clusters[a.cluster].commands[a.cmd].dma;
    int64_t shape[4], stride[4];
    for (int i = 0; i < 4; ++i) {
      shape[i] = d.shape[i];
      stride[i] = a.write ? d.dstStride[i] : d.srcStride[i];
    }
    return boxByteRanges(a.write ? d.dst : d.src, 4, shape, stride, d.elemBytes,
                         maxRanges, exact);
  };
  for (const PieceAccess &a : acc) {
    if (a.layer != layer) {
      // The previous layers' writes (every cluster's) are ordered before
      // this layer.
      for (auto &kv : thisLayer)
        before.addAll(kv.second);
      thisLayer.clear();
      layer = a.layer;
    }
    bool exact = true;
    std::vector<ByteRange> rs = ranges(a, exact);
    if (a.write) {
      if (exact)
        for (const ByteRange &r : rs)
          thisLayer[a.cluster].add(r.lo, r.hi);
      continue;
    }
    for (const ByteRange &r : rs)
      for (const ByteRange &g : before.gaps(r.lo, r.hi)) {
        auto it = thisLayer.find(a.cluster);
        if (it == thisLayer.end() || !it->second.gaps(g.lo, g.hi).empty())
          return false;
      }
  }
  return true;
}

} // namespace

ResidencyPlan accel::codegen::planResidency(
    const Program &p, const HardwareDesc &hw,
    const std::vector<std::vector<uint32_t>> &commandLayers, uint32_t numLayers,
    const std::vector<DramBuffer> &pieces,
    const std::vector<char> &intermediate, const ResidencyOptions &opts) {
  const size_t np = pieces.size();
  numLayers = std::max<uint32_t>(numLayers, 1);
  ResidencyPlan plan;
  plan.owner.assign(np, -1);
  plan.storageAddr.assign(np, 0);
  plan.dramTraffic.assign(np, 0);
  plan.reason.assign(np, StayReason::NotWritten);
  std::vector<char> other(np, 0);
  std::vector<std::vector<PieceAccess>> acc(np);
  for (size_t cl = 0; cl < p.clusters.size(); ++cl) {
    const auto &cmds = p.clusters[cl].commands;
    for (size_t k = 0; k < cmds.size(); ++k) {
      const Command &c = cmds[k];
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0)
        continue;
      const DmaDesc &d = c.dma;
      uint32_t layer = cl < commandLayers.size() && k < commandLayers[cl].size()
                           ? std::min(commandLayers[cl][k], numLayers - 1)
                           : numLayers - 1;
      int64_t sides[2] = {-1, -1};
      for (int s = 0; s < 2; ++s) {
        bool srcSide = s == 0;
        if (srcSide ? !srcInDram(d.dir) : !dstInDram(d.dir))
          continue;
        uint64_t lo, hi;
        dmaSide(d, srcSide, lo, hi);
        int64_t b = bufferOf(pieces, lo);
        if (b < 0)
          continue;
        sides[s] = b;
        if (hi > pieces[size_t(b)].addr + pieces[size_t(b)].bytes)
          for (int64_t q = b; q < int64_t(np) && pieces[size_t(q)].addr < hi;
               ++q)
            other[size_t(q)] = 1;
        plan.dramTraffic[size_t(b)] += d.numElements() * d.elemBytes;
        acc[size_t(b)].push_back({uint32_t(cl), layer, k, !srcSide, d.dir});
      }
      if (sides[0] >= 0 && sides[0] == sides[1])
        other[size_t(sides[0])] = 1; // a copy inside one piece
    }
  }
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
        if (a.dir == DmaDir::DramCopy || !hw.sharedClusterCache)
          other[i] = 1;
      }
    if (other[i]) {
      plan.reason[i] = StayReason::OtherAccess;
      continue;
    }
    if (!readsAfterWrites(p, acc[i], opts.maxRangesPerBox)) {
      plan.reason[i] = StayReason::ReadBeforeWrite;
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
    // Another cluster's remote load of the region is not ordered before the
    // owner's later writes of it (their DRAM addresses differed): the region
    // stays taken until the end of the program.
    if (remoteReader)
      r.last = numLayers - 1;
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

void accel::codegen::applyResidency(Program &p,
                                    const std::vector<DramBuffer> &pieces,
                                    const ResidencyPlan &plan) {
  // The resident piece holding DRAM address `a` (-1: none) and its storage
  // address.
  auto resident = [&](uint64_t a, uint64_t &storage) -> int64_t {
    int64_t b = bufferOf(pieces, a);
    if (b < 0 || !plan.resident(size_t(b)))
      return -1;
    storage = plan.storageAddr[size_t(b)] + (a - pieces[size_t(b)].addr);
    return plan.owner[size_t(b)];
  };
  for (size_t cl = 0; cl < p.clusters.size(); ++cl)
    for (Command &c : p.clusters[cl].commands) {
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0)
        continue;
      DmaDesc &d = c.dma;
      uint64_t src = 0, dst = 0;
      int64_t so = srcInDram(d.dir) ? resident(d.src, src) : -1;
      int64_t dow = dstInDram(d.dir) ? resident(d.dst, dst) : -1;
      if (so < 0 && dow < 0)
        continue;
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
}

ResidencySummary
accel::codegen::summarize(const ResidencyPlan &plan,
                          const std::vector<DramBuffer> &pieces) {
  ResidencySummary s;
  for (size_t i = 0; i < pieces.size(); ++i) {
    StayReason r = plan.reason[i];
    if (r == StayReason::Resident) {
      s.residentBytes += pieces[i].bytes;
      s.residentTraffic += plan.dramTraffic[i];
      ++s.residentPieces;
    } else if (r != StayReason::NotIntermediate &&
               r != StayReason::NotWritten) {
      s.spilledBytes += pieces[i].bytes;
      s.spilledTraffic += plan.dramTraffic[i];
      ++s.spilledPieces;
    }
  }
  return s;
}
