//===- Residency.cpp - Intermediates kept in cluster storage --------------===//
//
// Planning works on the linear plan after the lowering: every DMA's DRAM
// side falls in one piece (cutSegments), so a piece is read and written by
// whole boxes and can move into a storage unit with the same strides. The
// pieces are cut further at their writers (ResidencyRefine.cpp) and the
// DMAs at piece and unit ends (ResidencySplit.cpp); this file judges the
// units, allocates storage and rewrites the DMAs.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Residency.h"
#include "ResidencyBoxes.h"
#include "StreamParts.h"
#include "accel/Codegen/SyncTracker.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

using namespace accel;
using namespace accel::codegen;
using accel::codegen::detail::boxBounds;
using accel::codegen::detail::dmaSide;

namespace {

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

namespace {

/// First fit of the requests in `order` (see allocateStorage).
std::vector<uint64_t> firstFit(const std::vector<StorageRequest> &requests,
                               const std::vector<size_t> &order,
                               const std::vector<std::vector<uint64_t>> &floor,
                               uint64_t capacity, uint64_t align) {
  auto up = [&](uint64_t a) { return (a + align - 1) / align * align; };
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

} // namespace

std::vector<uint64_t>
accel::codegen::allocateStorage(const std::vector<StorageRequest> &requests,
                                const std::vector<std::vector<uint64_t>> &floor,
                                uint64_t capacity, uint64_t align) {
  align = std::max<uint64_t>(align, 1);
  auto held = [&](const StorageRequest &r) {
    return __int128(r.bytes) * (r.last - r.first + 1);
  };
  std::vector<size_t> byDensity(requests.size());
  for (size_t i = 0; i < byDensity.size(); ++i)
    byDensity[i] = i;
  std::vector<size_t> byBenefit = byDensity;
  std::stable_sort(byDensity.begin(), byDensity.end(), [&](size_t a, size_t b) {
    const StorageRequest &x = requests[a], &y = requests[b];
    return __int128(x.benefit) * held(y) > __int128(y.benefit) * held(x);
  });
  std::stable_sort(byBenefit.begin(), byBenefit.end(), [&](size_t a, size_t b) {
    return requests[a].benefit > requests[b].benefit;
  });
  // Greedy by benefit per byte-layer, and by benefit alone (a large piece
  // held long, read by other clusters, can save more than the small ones
  // that would crowd it out): the order whose grants save more.
  std::vector<uint64_t> dense =
      firstFit(requests, byDensity, floor, capacity, align);
  std::vector<uint64_t> big =
      firstFit(requests, byBenefit, floor, capacity, align);
  auto saved = [&](const std::vector<uint64_t> &addr) {
    uint64_t sum = 0;
    for (size_t i = 0; i < addr.size(); ++i)
      sum += addr[i] == kNotGranted ? 0 : requests[i].benefit;
    return sum;
  };
  return saved(big) > saved(dense) ? big : dense;
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
        note(cl, uint64_t(c.mesh->src) + c.mesh->bytes);
        for (uint32_t t : c.mesh->targets)
          note(t, uint64_t(c.mesh->dst) + c.mesh->bytes);
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
        for (uint32_t t : c.mesh->targets) {
          if (t >= n_ || c.mesh->sem >= n_)
            continue;
          if (c.mesh->sem != x)
            foreign[t * n_ + c.mesh->sem] = 1;
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

namespace {

/// What the planner learned about one unit from the DMAs that touch it.
struct UnitState {
  std::vector<PieceAccess> acc;
  uint64_t traffic = 0; ///< DMA bytes through DRAM on the linear plan
  bool other = false;   ///< an access that rules residency out
  StayReason reason = StayReason::NotWritten;
  bool meshBound = false; ///< MeshBound: its runs may be judged one by one
  StorageRequest request;
  bool requested = false;
};

/// The accesses of every unit: each DMA split into parts that each lie in
/// one unit (splitAtUnits); a DMA that cannot be split rules out every
/// unit its DRAM sides reach.
std::vector<UnitState>
unitAccesses(const Program &p,
             const std::vector<std::vector<uint32_t>> &commandLayers,
             uint32_t numLayers, const ResidencyPlan &plan,
             const ResidencyOptions &opts) {
  const std::vector<DramBuffer> &pieces = plan.pieces;
  std::vector<UnitState> st(plan.units.size());
  std::vector<DmaDesc> parts;
  for (size_t cl = 0; cl < p.clusters.size(); ++cl) {
    const auto &cmds = p.clusters[cl].commands;
    for (size_t k = 0; k < cmds.size(); ++k) {
      const Command &c = cmds[k];
      if (c.kind != CommandKind::Dma || c.dma.numElements() == 0 ||
          (!readsDram(c.dma.dir) && !writesDram(c.dma.dir)))
        continue;
      const uint32_t layer = layerOf(commandLayers, cl, k, numLayers);
      if (!splitAtUnits(c.dma, pieces, plan.unitOf, plan.units,
                        opts.maxPartsPerDma, parts)) {
        for (int s = 0; s < 2; ++s) {
          if (!dramSide(c.dma.dir, s == 0))
            continue;
          uint64_t lo, hi;
          dmaSide(c.dma, s == 0, lo, hi);
          for (int64_t q = std::max<int64_t>(bufferOf(pieces, lo), 0);
               q < int64_t(pieces.size()) && pieces[size_t(q)].addr < hi; ++q)
            if (pieces[size_t(q)].addr + pieces[size_t(q)].bytes > lo)
              st[size_t(plan.unitOf[size_t(q)])].other = true;
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
          const int64_t u = plan.unitOf[size_t(b)];
          sides[s] = u;
          st[size_t(u)].traffic += d.numElements() * d.elemBytes;
          st[size_t(u)].acc.push_back({uint32_t(cl), layer, k, s == 1, d});
        }
        if (sides[0] >= 0 && sides[0] == sides[1])
          st[size_t(sides[0])].other = true; // a copy inside one unit
      }
    }
  }
  return st;
}

/// The rules of docs/passes.md ("On-chip residency") for one unit; a unit
/// that may stay on chip gets its storage request.
void judgeUnit(UnitState &u, const PieceUnit &unit, char intermediate,
               const HardwareDesc &hw, const ReleaseMap &releases,
               uint32_t numLayers, const ResidencyOptions &opts) {
  if (!intermediate) {
    u.reason = StayReason::NotIntermediate;
    return;
  }
  int64_t owner = -1;
  bool several = false;
  for (const PieceAccess &a : u.acc)
    if (a.write) {
      several |= owner >= 0 && owner != int64_t(a.cluster);
      owner = a.cluster;
    }
  if (owner < 0) {
    u.reason = StayReason::NotWritten;
    return;
  }
  if (several) {
    u.reason = StayReason::SeveralWriters;
    return;
  }
  bool remoteReader = false;
  for (const PieceAccess &a : u.acc)
    if (!a.write && int64_t(a.cluster) != owner) {
      remoteReader = true;
      if (a.part.dir == DmaDir::DramCopy || !hw.sharedClusterCache)
        u.other = true;
    }
  if (u.other) {
    u.reason = StayReason::OtherAccess;
    return;
  }
  if (!readsAfterWrites(u.acc, opts.maxRangesPerBox)) {
    u.reason = StayReason::ReadBeforeWrite;
    return;
  }
  if (intermediate == kCutBetweenRuns &&
      remoteReaders(u.acc, owner) > opts.maxRunPieceRemoteReaders) {
    u.reason = StayReason::MeshBound;
    u.meshBound = true;
    return;
  }
  if (opts.meshAware && remoteReadsCostMore(u.acc, owner, hw)) {
    u.reason = StayReason::MeshBound;
    u.meshBound = true;
    return;
  }
  StorageRequest &r = u.request;
  r.cluster = uint32_t(owner);
  r.bytes = unit.bytes();
  r.first = numLayers - 1;
  r.last = 0;
  for (const PieceAccess &a : u.acc) {
    r.first = std::min(r.first, a.layer);
    r.last = std::max(r.last, a.layer);
  }
  // Another cluster's remote load of the region is ordered before the
  // owner's later writes of it only once the owner has synchronised with
  // that reader (the tracker saw different DRAM addresses and added no
  // WAR dependency): the region stays taken until then, or to the end.
  if (remoteReader)
    for (const PieceAccess &a : u.acc)
      if (!a.write && int64_t(a.cluster) != owner)
        r.last = std::max(r.last,
                          releases.after(uint32_t(owner), a.cluster, a.layer));
  r.benefit = u.traffic;
  u.reason = StayReason::NoRoom;
  u.requested = true;
}

/// Units of several runs that are MeshBound (more remote readers than a
/// part cut between runs may have, or remote reads that cost more than
/// DRAM): a row-split map that a channel-split layer reads has every
/// cluster read every unit, while each of its runs has one reader. Each
/// run becomes a unit of its own when it is at least `minRunPieceBytes`
/// (it is then judged as before the units). True when any unit was split.
bool splitMeshBoundUnits(ResidencyPlan &plan, const std::vector<UnitState> &st,
                         uint64_t minRunPieceBytes) {
  std::vector<char> split(plan.units.size(), 0);
  bool any = false;
  for (size_t u = 0; u < plan.units.size(); ++u)
    if (st[u].meshBound && plan.units[u].count > 1 &&
        plan.units[u].runBytes >= minRunPieceBytes)
      split[u] = any = true;
  if (!any)
    return false;
  std::vector<PieceUnit> units;
  std::vector<int64_t> renumber(plan.units.size(), -1);
  for (size_t i = 0; i < plan.pieces.size(); ++i) {
    const size_t u = size_t(plan.unitOf[i]);
    if (split[u]) {
      plan.unitOf[i] = int64_t(units.size());
      units.push_back(PieceUnit::single(plan.pieces[i]));
      continue;
    }
    if (renumber[u] < 0) {
      renumber[u] = int64_t(units.size());
      units.push_back(plan.units[u]);
    }
    plan.unitOf[i] = renumber[u];
  }
  plan.units = std::move(units);
  return true;
}

} // namespace

ResidencyPlan accel::codegen::planResidency(
    const Program &p, const HardwareDesc &hw,
    const std::vector<std::vector<uint32_t>> &commandLayers, uint32_t numLayers,
    const std::vector<DramBuffer> &coarse,
    const std::vector<char> &coarseIntermediate, const ResidencyOptions &opts) {
  numLayers = std::max<uint32_t>(numLayers, 1);
  ResidencyPlan plan;
  std::vector<char> intermediate;
  plan.pieces =
      refineByWriters(p, coarse, coarseIntermediate, intermediate,
                      opts.minRunPieceBytes, &plan.unitOf, &plan.units);
  const ReleaseMap releases(p, commandLayers, numLayers, opts.barrierSync);
  // Every piece of a unit has the unit's flag; its first piece stands for it.
  auto judgeAll = [&]() {
    std::vector<UnitState> st =
        unitAccesses(p, commandLayers, numLayers, plan, opts);
    std::vector<int64_t> firstPiece(plan.units.size(), -1);
    for (size_t i = 0; i < plan.pieces.size(); ++i)
      if (firstPiece[size_t(plan.unitOf[i])] < 0)
        firstPiece[size_t(plan.unitOf[i])] = int64_t(i);
    for (size_t u = 0; u < st.size(); ++u)
      judgeUnit(st[u], plan.units[u], intermediate[size_t(firstPiece[u])], hw,
                releases, numLayers, opts);
    return st;
  };
  std::vector<UnitState> st = judgeAll();
  if (splitMeshBoundUnits(plan, st, opts.minRunPieceBytes))
    st = judgeAll();

  std::vector<StorageRequest> requests;
  std::vector<size_t> requestUnit;
  for (size_t u = 0; u < st.size(); ++u)
    if (st[u].requested) {
      requests.push_back(st[u].request);
      requestUnit.push_back(u);
    }
  std::vector<int64_t> unitOwner(st.size(), -1);
  std::vector<uint64_t> unitAddr(st.size(), 0);
  if (!requests.empty()) {
    std::vector<std::vector<uint64_t>> floor =
        storageHighWater(p, commandLayers, numLayers);
    std::vector<uint64_t> addr =
        allocateStorage(requests, floor, hw.storageBytes, opts.align);
    for (size_t r = 0; r < requests.size(); ++r) {
      if (addr[r] == kNotGranted)
        continue;
      const size_t u = requestUnit[r];
      unitOwner[u] = requests[r].cluster;
      unitAddr[u] = addr[r];
      st[u].reason = StayReason::Resident;
    }
  }
  // Per piece: run k of its unit at the unit's address + k runs; the
  // unit's traffic counted on its first run.
  const size_t np = plan.pieces.size();
  plan.owner.assign(np, -1);
  plan.storageAddr.assign(np, 0);
  plan.dramTraffic.assign(np, 0);
  plan.reason.assign(np, StayReason::NotWritten);
  for (size_t i = 0; i < np; ++i) {
    const size_t u = size_t(plan.unitOf[i]);
    const PieceUnit &unit = plan.units[u];
    const uint64_t k = (plan.pieces[i].addr - unit.addr) / unit.period;
    plan.reason[i] = st[u].reason;
    plan.owner[i] = unitOwner[u];
    plan.storageAddr[i] = unitAddr[u] + k * unit.runBytes;
    plan.dramTraffic[i] = k == 0 ? st[u].traffic : 0;
  }
  return plan;
}

namespace {

/// Rewrites one DMA part whose DRAM sides each lie in one unit
/// (splitAtUnits).
void rewritePart(DmaDesc &d, uint32_t cl, const ResidencyPlan &plan) {
  // The storage address of DRAM byte `a` when it is resident; the side's
  // strides that step from run to run of its unit (multiples of the
  // period) become steps of one run in storage (`stride`, in elements).
  auto resident = [&](uint64_t a, int64_t *stride,
                      uint64_t &storage) -> int64_t {
    int64_t b = bufferOf(plan.pieces, a);
    if (b < 0 || !plan.resident(size_t(b)))
      return -1;
    storage = plan.storageAddr[size_t(b)] + (a - plan.pieces[size_t(b)].addr);
    const PieceUnit &u = plan.units[size_t(plan.unitOf[size_t(b)])];
    const int64_t eb = int64_t(d.elemBytes);
    for (int i = 0; i < 4; ++i)
      if (u.stepsRuns(d.shape[i], stride[i] * eb))
        stride[i] =
            stride[i] * eb / int64_t(u.period) * int64_t(u.runBytes) / eb;
    return plan.owner[size_t(b)];
  };
  uint64_t src = 0, dst = 0;
  int64_t so = readsDram(d.dir) ? resident(d.src, d.srcStride, src) : -1;
  int64_t dow = writesDram(d.dir) ? resident(d.dst, d.dstStride, dst) : -1;
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
  for (size_t cl = 0; cl < p.clusters.size(); ++cl)
    detail::replaceByParts(
        p.clusters[cl].commands,
        [&](const Command &c, std::vector<DmaDesc> &parts) {
          const DmaDesc &d = c.dma;
          if (c.kind != CommandKind::Dma || d.numElements() == 0 ||
              !((readsDram(d.dir) && meetsResident(d, true)) ||
                (writesDram(d.dir) && meetsResident(d, false))))
            return false;
          // planResidency split the same DMA within the same limit.
          if (!splitAtUnits(d, pieces, plan.unitOf, plan.units,
                            opts.maxPartsPerDma, parts))
            parts = {d};
          for (DmaDesc &part : parts)
            rewritePart(part, uint32_t(cl), plan);
          return true;
        });
}

std::vector<DramBuffer>
accel::codegen::remainingBuffers(const ResidencyPlan &plan,
                                 const std::vector<DramBuffer> &coarse) {
  // Each piece left in DRAM as the span of its unit (a box that steps from
  // run to run of the unit must stay inside one buffer; the resident runs
  // of other units in between are dead bytes then), spans that meet within
  // one coarse piece merged.
  std::vector<DramBuffer> spans;
  for (size_t i = 0; i < plan.pieces.size(); ++i) {
    if (plan.resident(i))
      continue;
    DramBuffer b = plan.pieces[i];
    if (!plan.unitOf.empty()) {
      const PieceUnit &u = plan.units[size_t(plan.unitOf[i])];
      if (u.count > 1)
        b = {u.addr, u.spanBytes()};
    }
    spans.push_back(b);
  }
  std::sort(
      spans.begin(), spans.end(),
      [](const DramBuffer &a, const DramBuffer &b) { return a.addr < b.addr; });
  std::vector<DramBuffer> out;
  for (const DramBuffer &b : spans) {
    if (!out.empty() && out.back().addr + out.back().bytes >= b.addr &&
        bufferOf(coarse, out.back().addr) == bufferOf(coarse, b.addr)) {
      out.back().bytes =
          std::max(out.back().addr + out.back().bytes, b.addr + b.bytes) -
          out.back().addr;
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
