//===- MappedGemm.cpp - GEMM layer with a dataflow and an array partition -===//
//
// The kernel behind `accel.mapping` (docs/mapping.md). The caller has cut the
// layer into per-cluster slices (array partition); every cluster runs its
// slices with one of three loop nests:
//
//  - stationary C (output stationary): for outer, for inner, for k. The
//    accumulator tile stays in the PEs while K streams; shift + store on the
//    last chunk. The outer operand's strip (all K chunks) stays in a storage
//    slot across the inner loop (the inner operand's when the inner loop has
//    one partition); of a convolution's filter strip that does not fit, the
//    chunks that do.
//  - stationary A: for m, for k, for n (n fastest). The A tile (m x k) is
//    loaded into a storage slot once and reused by every N tile; the partial
//    sums of each (m, n) tile are stored after every chunk but the last into
//    a DRAM scratch private to the cluster and reloaded (LD psums) on the
//    next one (long-lived partial sums); the last chunk stores the result.
//  - stationary B: for n, for k, for m (m fastest), symmetric.
//
// Resident operands alternate between two storage slots per group (a group
// is the steps that reuse one resident tile; one slot if there is a single
// group), so the next group's loads overlap the current group's compute;
// everything else goes through the two ping-pong halves (load of step s+1 while
// step s computes).
//
//===----------------------------------------------------------------------===//
#include "EpilogueSteps.h"
#include "GemmCommon.h"
#include "SparseWeightTiles.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Codegen/ResidualView.h"
#include "accel/Tiling/GemmStorage.h"
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

using namespace accel;
using namespace accel::codegen;
using namespace accel::codegen::detail;

namespace {

enum class Init { None, Bias, Reload };

struct MStep {
  const GemmTiles *p = nullptr;
  size_t pi = 0; ///< problem index (partial-sum scratch)
  int64_t m0 = 0, mc = 0;
  size_t n = 0, k = 0;
  int aSlot = -1, bSlot = -1; ///< resident slot, -1 = ping-pong half
  int64_t aOff = 0, bOff = 0; ///< byte offset inside the slot
  bool loadA = true, loadB = true;
  Init init = Init::None;
  bool store = false; ///< shift + last + ST + DMA store after this step
  bool final = false; ///< the store writes the finished result
  /// A shared filter strip (SharedStrip): the A tile is at home in this
  /// cluster's storage at `aHomeAddr` (>= 0; loaded before the steps), or
  /// is read from the home region of cluster `aOwner` (>= 0) into the
  /// half with a remote_load.
  int64_t aHomeAddr = -1;
  int aOwner = -1;
};

/// A convolution filter strip shared by the clusters of a data split
/// (docs/mapping.md, "Filter strips shared over the mesh"). K chunk k is
/// at home on member k / perHome (k < homed), in a region at the top of its
/// storage unit loaded once before the steps; another member keeps it
/// resident in its own strip when that has room, else reads it from the
/// owner with a remote_load where it would have streamed it from DRAM.
struct SharedStrip {
  std::vector<uint32_t> members; ///< the clusters sharing it, ascending
  /// Chunks of the strip: K chunks, times the M partitions when there are
  /// several (a streamed filter: one N tile per cluster). Chunk c is K
  /// chunk c % kChunks of M partition c / kChunks.
  int64_t chunks = 0;
  int64_t kChunks = 0;
  int64_t mcMax = 0;     ///< rows of an M partition
  bool streamed = false; ///< one N tile: the filter is streamed once
  int64_t perHome = 0;   ///< chunks at home on each member
  /// Chunks [0, homed) have a home; the others are not shared (kept in a
  /// member's own strip when it has room, else streamed from DRAM).
  int64_t homed = 0;
  int64_t tileBytes = 0; ///< one chunk's A tile in storage
  uint32_t base = 0;     ///< the home region's storage address
  bool on() const { return !members.empty(); }
  int64_t chunkOf(int64_t mi, int64_t k) const { return mi * kChunks + k; }
  /// Chunk c's A box of problem `p`.
  DramBox box(const GemmTiles &p, int64_t c) const {
    const int64_t m0 = c / kChunks * mcMax;
    return p.aBox(m0, std::min(mcMax, p.m - m0), size_t(c % kChunks));
  }
  int64_t homeBytes() const { return perHome * tileBytes; }
  uint32_t owner(int64_t k) const { return members[size_t(k / perHome)]; }
  uint32_t addr(int64_t k) const {
    return base + uint32_t((k % perHome) * tileBytes);
  }
  /// Member `cl`'s home chunks [first, last).
  std::pair<int64_t, int64_t> home(uint32_t cl) const {
    int64_t i = int64_t(std::lower_bound(members.begin(), members.end(), cl) -
                        members.begin());
    return {std::min(homed, i * perHome), std::min(homed, (i + 1) * perHome)};
  }
  bool member(uint32_t cl) const {
    return std::binary_search(members.begin(), members.end(), cl);
  }
  /// The members but `cl` (the SIGNAL targets).
  std::vector<uint32_t> others(uint32_t cl) const {
    std::vector<uint32_t> o;
    for (uint32_t m : members)
      if (m != cl)
        o.push_back(m);
    return o;
  }
};

/// Tracks a resident operand: groups of steps reuse one tile set; groups
/// alternate between slot 0 and 1 (one slot when there is a single group).
struct Residency {
  bool on = false;
  int slots = 2;
  int64_t slotBytes = 0;
  std::tuple<const void *, int64_t, int64_t> group{nullptr, -1, -1};
  int ordinal = -1;
  std::map<int64_t, bool> loaded; ///< chunks of the current group
  /// Slot for (group, chunk); sets `load` when the chunk is new.
  int use(std::tuple<const void *, int64_t, int64_t> g, int64_t chunk,
          bool &load) {
    if (g != group) {
      group = g;
      ++ordinal;
      loaded.clear();
    }
    load = !loaded[chunk];
    loaded[chunk] = true;
    return ordinal % slots;
  }
};

/// Whether two DRAM boxes are the same elements in the same order.
bool sameBox(const DramBox &a, const DramBox &b) {
  return a.base == b.base && a.rank == b.rank && a.shape == b.shape &&
         a.stride == b.stride && a.rowDims == b.rowDims;
}

/// Whether every problem reads the same A tiles from one M partition: a
/// batched matmul's broadcast constant (a bilinear Resize's interpolation
/// matrix, the same for every channel plane). One resident A strip then
/// serves them all, loaded once, instead of a load per problem.
bool sharedATiles(const std::vector<GemmTiles> &problems, int64_t mcMax) {
  if (problems.size() < 2)
    return false;
  const GemmTiles &first = problems.front();
  if (first.m > mcMax || !first.aBox)
    return false;
  for (const GemmTiles &p : problems) {
    if (p.m != first.m || p.kChunks != first.kChunks || !p.aBox || p.aPieces)
      return false;
    for (size_t k = 0; k < p.kChunks.size(); ++k)
      if (!sameBox(p.aBox(0, p.m, k), first.aBox(0, first.m, k)))
        return false;
  }
  return true;
}

/// The steps of one cluster.
std::vector<MStep>
clusterSteps(const HardwareDesc &hw, const std::vector<GemmTiles> &problems,
             const GemmTiling &t, StationaryOperand st, int64_t stripBudget,
             bool partialA, int64_t &slotBytes, bool &residentA,
             bool bandOrder = false, const SharedStrip *share = nullptr,
             uint32_t self = 0) {
  const int64_t mcMax = t.peRows * hw.pesPerCluster;
  std::vector<MStep> steps;
  // Resident operand and slot size (the largest over the problems).
  Residency res;
  residentA = st == StationaryOperand::A;
  int64_t maxK = 0, maxNm = 0, maxNn = 0;
  for (const GemmTiles &p : problems) {
    maxK = std::max<int64_t>(maxK, int64_t(p.kChunks.size()));
    maxNm = std::max<int64_t>(maxNm, ceilDiv(p.m, mcMax));
    maxNn = std::max<int64_t>(maxNn, int64_t(p.nTiles.size()));
  }
  const int64_t aTile = mcMax * t.kc * 4, bTile = t.kc * t.nc * 4;
  bool stripPerChunk = false; // slot holds all K chunks of a group
  const bool sharedA =
      st == StationaryOperand::C && !share && sharedATiles(problems, mcMax);
  if (st == StationaryOperand::A) {
    res.slotBytes = aTile;
  } else if (st == StationaryOperand::B) {
    res.slotBytes = bTile;
  } else {
    stripPerChunk = true;
    int64_t inner = t.outerM ? maxNn : maxNm;
    // Outer operand across the inner loop, else the inner operand across
    // the outer loop; an A strip every problem shares across the problems.
    residentA = (inner > 1) == t.outerM || sharedA;
    bool useful = inner > 1 || (t.outerM ? maxNm : maxNn) > 1 || sharedA;
    res.slotBytes = useful ? maxK * (residentA ? aTile : bTile) : 0;
  }
  // A shared strip: the home chunks live in the home region, the strip
  // slot holds (some of) the others, numbered without the home ones.
  const bool shared = share && stripPerChunk && residentA;
  // A shared filter that streams (one N tile: each chunk is used once per
  // M partition): chunks at home here are read in place, the other homed
  // ones from their owners, the rest from DRAM.
  const bool streamShared = share && stripPerChunk && !residentA;
  const auto [homeFirst, homeLast] = shared || streamShared
                                         ? share->home(self)
                                         : std::pair<int64_t, int64_t>{0, 0};
  auto localPos = [&](int64_t k) {
    return k < homeFirst ? k : k - (homeLast - homeFirst);
  };
  if (shared && res.slotBytes > 0)
    res.slotBytes = (maxK - (homeLast - homeFirst)) * aTile;
  // Groups of the resident operand; one slot suffices for a single group.
  int64_t nGroups = 0;
  for (const GemmTiles &p : problems) {
    int64_t nm = ceilDiv(p.m, mcMax), nn = int64_t(p.nTiles.size()),
            nk = int64_t(p.kChunks.size());
    if (st == StationaryOperand::A)
      nGroups += nm * nk;
    else if (st == StationaryOperand::B)
      nGroups += nn * nk;
    else
      nGroups += (t.outerM ? maxNn : maxNm) > 1 ? (t.outerM ? nm : nn) : 1;
  }
  if (sharedA)
    nGroups = 1; // one A strip for every problem
  res.slots = nGroups > 1 ? 2 : 1;
  // A filter strip larger than the budget keeps its first chunks resident
  // and streams the rest through the halves (docs/mapping.md, "Partial
  // filter strips").
  int64_t residentChunks = maxK;
  if (stripPerChunk && residentA && partialA && res.slotBytes > 0 &&
      res.slots * res.slotBytes > stripBudget) {
    residentChunks = std::max<int64_t>(0, stripBudget / (res.slots * aTile));
    res.slotBytes = residentChunks * aTile;
  }
  res.on = res.slotBytes > 0 && res.slots * res.slotBytes <= stripBudget;
  slotBytes = res.on ? res.slotBytes : 0;

  for (const GemmTiles &p : problems) {
    const int64_t nm = ceilDiv(p.m, mcMax), nn = int64_t(p.nTiles.size()),
                  nk = int64_t(p.kChunks.size());
    auto add = [&](int64_t mi, int64_t ni, int64_t pos) {
      // The pos-th chunk of the K loop (GemmTiles::bandOrder with bands).
      const int64_t k = bandOrder && !p.bandOrder.empty()
                            ? int64_t(p.bandOrder[size_t(pos)])
                            : pos;
      MStep s;
      s.p = &p;
      s.pi = size_t(&p - problems.data());
      s.m0 = mi * mcMax;
      s.mc = std::min(mcMax, p.m - s.m0);
      s.n = size_t(ni);
      s.k = size_t(k);
      bool last = pos + 1 == nk;
      if (st == StationaryOperand::C) {
        s.init = pos == 0 && p.initBox ? Init::Bias : Init::None;
        s.store = s.final = last;
      } else {
        s.init =
            pos == 0 ? (p.initBox ? Init::Bias : Init::None) : Init::Reload;
        s.store = true;
        s.final = last;
      }
      if (shared && k >= homeFirst && k < homeLast) {
        s.aHomeAddr = share->addr(k);
        s.loadA = false;
      } else if (shared && k < share->homed &&
                 !(res.on && localPos(k) < residentChunks)) {
        s.aOwner = int(share->owner(k));
      } else if (res.on && (!stripPerChunk ||
                            (shared ? localPos(k) : k) < residentChunks)) {
        int64_t chunk = shared ? localPos(k) : stripPerChunk ? k : 0;
        int64_t tile = residentA ? aTile : bTile;
        std::tuple<const void *, int64_t, int64_t> g;
        if (st == StationaryOperand::A)
          g = {&p, mi, k};
        else if (st == StationaryOperand::B)
          g = {&p, ni, k};
        else
          g = {sharedA ? nullptr : &p, residentA ? mi : -1,
               residentA ? -1 : ni};
        bool load;
        int slot = res.use(g, chunk, load);
        if (residentA) {
          s.aSlot = slot, s.aOff = chunk * tile, s.loadA = load;
        } else {
          s.bSlot = slot, s.bOff = chunk * tile, s.loadB = load;
        }
      }
      if (streamShared) {
        const int64_t c = share->chunkOf(mi, k);
        if (c >= homeFirst && c < homeLast) {
          s.aHomeAddr = share->addr(c);
          s.loadA = false;
        } else if (c < share->homed) {
          s.aOwner = int(share->owner(c));
        }
      }
      steps.push_back(s);
    };
    switch (st) {
    case StationaryOperand::A:
      for (int64_t mi = 0; mi < nm; ++mi)
        for (int64_t k = 0; k < nk; ++k)
          for (int64_t ni = 0; ni < nn; ++ni)
            add(mi, ni, k);
      break;
    case StationaryOperand::B:
      for (int64_t ni = 0; ni < nn; ++ni)
        for (int64_t k = 0; k < nk; ++k)
          for (int64_t mi = 0; mi < nm; ++mi)
            add(mi, ni, k);
      break;
    case StationaryOperand::C:
      if (t.outerM) {
        for (int64_t mi = 0; mi < nm; ++mi)
          for (int64_t ni = 0; ni < nn; ++ni)
            for (int64_t k = 0; k < nk; ++k)
              add(mi, ni, k);
      } else {
        for (int64_t ni = 0; ni < nn; ++ni)
          for (int64_t mi = 0; mi < nm; ++mi)
            for (int64_t k = 0; k < nk; ++k)
              add(mi, ni, k);
      }
      break;
    }
  }
  return steps;
}

uint8_t loadTag(int half) { return uint8_t(half); }
uint8_t storeTag(int half) { return uint8_t(2 + half); }
constexpr uint8_t kResidualTag = 4;
/// Loads of the band slot of run r (slot r % 2).
uint8_t bandTag(size_t run) { return uint8_t(5 + run % 2); }

/// The input bands of one cluster (GemmTiles::bBand): every (problem, K
/// chunk, N tile) band, the slot size, and the runs of consecutive steps
/// that copy their B tile from one band (a band is loaded once per run).
struct BandPlan {
  int64_t slotBytes = 0; ///< 0 = off
  /// Two slots (run r in slot r % 2, the next band prefetched) or one (each
  /// band loaded once the copies of the previous one completed).
  int slots = 2;
  /// [problem][k * nn + n]
  std::vector<std::vector<std::shared_ptr<const ImageBand>>> all;
  std::vector<size_t> nn; ///< N tiles per problem
  std::vector<int> runOf; ///< per step, -1 = no B load
  std::vector<size_t> runFirst, runLast;
  std::vector<const ImageBand *> runBand;
  bool on() const { return slotBytes > 0; }
  const ImageBand &band(size_t pi, size_t k, size_t n) const {
    return *all[pi][k * nn[pi] + n];
  }
  /// Cuts the runs of `steps`; false when no step loads a B tile.
  bool runs(const std::vector<MStep> &steps) {
    runOf.assign(steps.size(), -1);
    std::pair<size_t, int64_t> key{SIZE_MAX, -1};
    for (size_t i = 0; i < steps.size(); ++i) {
      const MStep &s = steps[i];
      if (!s.loadB)
        continue;
      const ImageBand &b = band(s.pi, s.k, s.n);
      if (std::make_pair(s.pi, b.id) != key) {
        key = {s.pi, b.id};
        runFirst.push_back(i);
        runLast.push_back(i);
        runBand.push_back(&b);
      }
      runOf[i] = int(runBand.size() - 1);
      runLast.back() = i;
    }
    return !runBand.empty();
  }
};

int64_t boxElems(const DramBox &b) {
  int64_t e = 1;
  for (int d = 0; d < b.rank; ++d)
    e *= b.shape[d];
  return e;
}

/// Channel time of the A and B loads of `steps` (one latency per DMA plus
/// the bytes at the channel's rate; tiles count as one DMA): with `bands`,
/// the B tiles come from the bands of its runs.
double stepChannelTime(const std::vector<MStep> &steps, const BandPlan *bands,
                       const MemoryChannel &ch) {
  const double bw = std::max(1e-9, double(ch.bytesPerCycle));
  const double lat = double(ch.latencyCycles);
  double t = 0;
  for (const MStep &s : steps) {
    if (s.loadA && s.aOwner < 0) // a shared strip's remote loads: the mesh
      t += lat + double(boxElems(s.p->aBox(s.m0, s.mc, s.k)) * 4) / bw;
    if (s.loadB && !bands)
      t += lat + double(boxElems(s.p->bBox(s.k, s.n)) * 4) / bw;
  }
  // With one band slot every band load also stalls the steps (counted
  // twice, as the cost model adds it to the compute path).
  if (bands)
    for (const ImageBand *b : bands->runBand)
      t += double(bands->slots == 1 ? 2 : 1) *
           (lat * double(b->load.size()) + double(b->elems * 4) / bw);
  return t;
}

/// MAC cycles of `steps` on one cluster (its busiest PE, at full lanes).
double stepMacTime(const std::vector<MStep> &steps, const HardwareDesc &hw) {
  double t = 0;
  for (const MStep &s : steps)
    t += double(ceilDiv(s.mc, int64_t(hw.pesPerCluster)) * s.p->kChunks[s.k] *
                s.p->nTiles[s.n]) /
         double(std::max<uint32_t>(1, hw.macLanes));
  return t;
}

/// The bands of `problems` (band groups of at most `groupElems` elements,
/// 0 = a band per N tile) when every problem has them and two slots of
/// the largest fit `budget` storage bytes (leaving the halves' strip budget
/// for a resident operand), else off.
BandPlan planBands(const std::vector<GemmTiles> &problems, int64_t budget,
                   int64_t groupElems) {
  BandPlan plan;
  int64_t largest = 0;
  for (const GemmTiles &p : problems)
    if (!p.bBand)
      return plan;
  for (const GemmTiles &p : problems) {
    std::vector<std::shared_ptr<const ImageBand>> v;
    for (size_t k = 0; k < p.kChunks.size(); ++k)
      for (size_t n = 0; n < p.nTiles.size(); ++n) {
        v.push_back(p.bBand(k, n, groupElems));
        largest = std::max(largest, v.back()->elems * 4);
      }
    plan.all.push_back(std::move(v));
    plan.nn.push_back(p.nTiles.size());
  }
  const int64_t slot = roundUp(std::max<int64_t>(largest, 1), 64);
  plan.slots = 2 * slot <= budget ? 2 : slot <= budget ? 1 : 0;
  if (plan.slots == 0)
    return BandPlan{};
  plan.slotBytes = slot;
  return plan;
}

/// Storage a fused residual's tile takes beside the tiles: none when it
/// goes through the free half in parts.
int64_t residualRegionBytes(const HardwareDesc &hw, const GemmTiling &t,
                            const GemmEpilogue &epi, bool parts) {
  return parts ? 0 : detail::residualTileBytes(hw, t, epi);
}

/// The input-buffer slot for the A tiles: 0, or past the fused epilogue's
/// tiles (it loads a part of `postPeRows` rows per PE of the C tile into
/// slot 0 and of the residual tile after it), so that a held A tile
/// outlives the epilogue; -1 when the A tile does not fit there.
int inputBufferActsSlot(const HardwareDesc &hw, const GemmTiling &t,
                        const GemmEpilogue &epi, int64_t postPeRows) {
  const int64_t slotBytes = int64_t(hw.inputSlotBytes());
  const int64_t cTile = postPeRows * t.nc * 4;
  int64_t used = 0;
  if (!epi.post.empty())
    used = detail::hasResidual(epi.post)
               ? detail::residualSlot(hw, postPeRows, t.nc) * slotBytes + cTile
               : cTile;
  const int64_t slot = slotBytes > 0 ? ceilDiv(used, slotBytes) : 16;
  if (slot >= 16 ||
      slot * slotBytes + t.peRows * t.kc * 4 > int64_t(hw.inputBufferBytes))
    return -1;
  return int(slot);
}

/// Per step: whether the PE input buffers still hold its A tile, i.e. the
/// step before used the same tile (LD acts writes only the A slot, and the
/// fused epilogue stays below it). Stationary C with the outer M loop and
/// a single K chunk, and stationary A, run every N tile of an A tile in a
/// row.
std::vector<bool> heldActs(const std::vector<MStep> &steps, int actsSlot) {
  std::vector<bool> held(steps.size(), false);
  if (actsSlot < 0)
    return held;
  for (size_t i = 1; i < steps.size(); ++i) {
    const MStep &a = steps[i - 1], &b = steps[i];
    held[i] = a.p == b.p && a.m0 == b.m0 && a.mc == b.mc && a.k == b.k;
  }
  return held;
}

int64_t sum(const std::vector<int64_t> &v) {
  int64_t s = 0;
  for (int64_t x : v)
    s += x;
  return s;
}
} // namespace

GemmTiling accel::codegen::fitMappedTiling(const HardwareDesc &hw, GemmTiling t,
                                           bool init, bool sharedC) {
  auto shrink = [](int64_t v) { return std::max<int64_t>(1, v / 2); };
  t.sharedC = t.sharedC && sharedC;
  while (fixedTileBytes(hw, t, init) > int64_t(hw.storageBytes)) {
    if (t.nc > 1 && t.nc >= t.kc)
      t.nc = shrink(t.nc);
    else if (t.kc > 1)
      t.kc = shrink(t.kc);
    else if (t.peRows > 1)
      t.peRows = shrink(t.peRows);
    else
      break;
  }
  return t;
}

int64_t accel::codegen::mappedPsumScratchElems(const ClusterGemmWork &w,
                                               StationaryOperand st) {
  if (st == StationaryOperand::C)
    return 0;
  int64_t e = 0;
  for (const GemmTiles &p : w.problems)
    if (p.kChunks.size() > 1)
      e += p.m * sum(p.nTiles);
  return e;
}

namespace {
/// Whether the layer's C tiles have an init region (bias, or partial sums
/// reloaded by stationary A / B).
bool anyInitOf(const std::vector<GemmTiles> &problems, StationaryOperand st) {
  bool anyInit = false;
  for (const GemmTiles &p : problems)
    anyInit |=
        bool(p.initBox) || (st != StationaryOperand::C && p.kChunks.size() > 1);
  return anyInit;
}
} // namespace

bool accel::codegen::mappedPostFits(const HardwareDesc &hw,
                                    const std::vector<ClusterGemmWork> &work,
                                    StationaryOperand st,
                                    const GemmEpilogue &epi) {
  if (epi.post.empty())
    return true;
  for (const ClusterGemmWork &w : work) {
    if (w.problems.empty())
      continue;
    const GemmTiling &t = w.tiling;
    bool anyInit = anyInitOf(w.problems, st), splitK = false;
    for (const GemmTiles &p : w.problems)
      splitK |= p.kChunks.size() > 1;
    // (init, function on) variants of the main sequence, plus the post one.
    unsigned variants = (st == StationaryOperand::C || !splitK) ? 2 : 4;
    // The residual tile needs a region of its own unless it can go through
    // the free half in parts (residualInParts).
    int64_t budget =
        int64_t(hw.storageBytes) - fixedTileBytes(hw, t, anyInit) -
        residualRegionBytes(hw, t, epi,
                            detail::residualPartPeRows(hw, t, epi, st) > 0);
    if (variants + 1 > hw.instructionBuffers || budget < 0 ||
        detail::postPeRows(hw, epi.post, t.peRows, t.nc) == 0)
      return false;
  }
  return true;
}

namespace {

/// The memory channel `w` is placed on (a default one on a machine without
/// channels).
MemoryChannel channelOf(const HardwareDesc &hw, const ClusterGemmWork &w) {
  return hw.channels.empty() ? MemoryChannel{} : hw.channels.at(w.channel);
}

/// The band slots and resident strips of one cluster planned in `budget`
/// bytes of strip storage, and whether a staging region for a repeated
/// residual is taken from it.
struct StripPlan {
  BandPlan bands;
  std::vector<MStep> steps;
  int64_t slotBytes = 0;
  int64_t stagingBytes = 0;
};

double planChannelTime(const StripPlan &x, const MemoryChannel &ch) {
  return stepChannelTime(x.steps, x.bands.on() ? &x.bands : nullptr, ch);
}

/// Input bands (docs/mapping.md, "Convolution input bands"): two band
/// slots at the bottom of the strip budget. Not with stationary A (loops m,
/// k, n: every step needs another band) nor with sparse B lists. `sh`: the
/// layer's shared strip when cluster `cl` is a member.
StripPlan planClusterStrips(const HardwareDesc &hw, const ClusterGemmWork &w,
                            StationaryOperand st, const GemmEpilogue &epi,
                            bool sparse, int64_t stripBudget,
                            const SharedStrip *sh, uint32_t cl) {
  const std::vector<GemmTiles> &problems = w.problems;
  const GemmTiling &t = w.tiling;
  const MemoryChannel ch = channelOf(hw, w);
  auto planStripsWith = [&](int64_t budget, int64_t groupElems) {
    StripPlan sp;
    BandPlan &bands = sp.bands;
    std::vector<MStep> &steps = sp.steps;
    int64_t &slotBytes = sp.slotBytes;
    bool residentA = false;
    if (st != StationaryOperand::A && !sparse)
      bands = planBands(problems, budget, groupElems);
    steps = clusterSteps(
        hw, problems, t, st, budget - bands.slots * bands.slotBytes,
        w.partialFilterStrip, slotBytes, residentA, bands.on(), sh, cl);
    if (bands.on()) {
      // Bands when the step loads with them (their slots taken from the
      // resident operand's budget) move less channel time than without.
      int64_t plainSlot = 0;
      bool plainA = false;
      std::vector<MStep> plain =
          clusterSteps(hw, problems, t, st, budget, w.partialFilterStrip,
                       plainSlot, plainA, /*bandOrder=*/false, sh, cl);
      // Bands only save cycles where the cluster's loads are not hidden
      // behind its MACs: its share of the channel (with the other busy
      // clusters on it) at least half its MAC time (bandsMinChannelShare).
      const double plainTime = stepChannelTime(plain, nullptr, ch);
      const double macTime = stepMacTime(plain, hw);
      if (!bands.runs(steps) ||
          stepChannelTime(steps, &bands, ch) >= plainTime ||
          plainTime * double(w.channelSharers) <
              w.bandsMinChannelShare * macTime) {
        bands = BandPlan{};
        steps = std::move(plain);
        slotBytes = plainSlot;
      }
    }
    return sp;
  };
  // Band groups (docs/mapping.md, "Band groups"): a band per N tile, or
  // consecutive N tiles under one band whose slot takes at most an eighth,
  // a quarter or half of the budget (budget / div elements of 4 bytes); the
  // least channel time wins, ties the smaller bands.
  auto planStrips = [&](int64_t budget) {
    StripPlan best = planStripsWith(budget, 0);
    if (!w.bandGroups || problems.empty() || !problems.front().bBand ||
        st == StationaryOperand::A || sparse)
      return best;
    double bestTime = planChannelTime(best, ch);
    // A group holds two bands' boxes at least: sizes below twice the
    // largest band of one N tile group nothing.
    int64_t largest = 0;
    for (const GemmTiles &p : problems)
      for (size_t k = 0; k < p.kChunks.size(); ++k)
        for (size_t n = 0; n < p.nTiles.size(); ++n)
          largest = std::max(largest, p.bBand(k, n, 0)->elems);
    for (int64_t div : {32, 16, 8}) {
      if (budget / div < 2 * largest)
        continue;
      StripPlan sp = planStripsWith(budget, budget / div);
      const double time = planChannelTime(sp, ch);
      if (sp.bands.on() && time < bestTime)
        best = std::move(sp), bestTime = time;
    }
    return best;
  };
  StripPlan plan = planStrips(stripBudget);
  // A residual read through a repeating view (a nearest upsampling) is
  // loaded compact into a staging region above the residual tile and
  // expanded on chip (loadResidual), when the strips planned in the
  // storage left move no more channel time than without it: staging
  // must not cost the layer weight or band reloads.
  const int64_t wanted = detail::residualStagingBytes(hw, t, epi);
  if (wanted > 0 && wanted <= stripBudget) {
    StripPlan staged = planStrips(stripBudget - wanted);
    if (planChannelTime(staged, ch) <= planChannelTime(plan, ch)) {
      plan = std::move(staged);
      plan.stagingBytes = wanted;
    }
  }
  return plan;
}

/// Semaphores of a shared strip's two rounds: "my home chunks are loaded"
/// and "I read no home region any more". Above the dependency tracker's
/// (the producer's index) and the reduction trees' (numClusters + it).
uint32_t shareReadySem(const StreamBuilder &sb) { return 2 * sb.numClusters(); }
uint32_t shareDoneSem(const StreamBuilder &sb) {
  return 2 * sb.numClusters() + 1;
}
constexpr uint8_t kShareTag = 7;

/// Cycles the steps wait for the input bands: with one band slot each band
/// load stalls them (planClusterStrips), with two it overlaps them.
double bandStall(const StripPlan &x, const MemoryChannel &ch) {
  if (!x.bands.on() || x.bands.slots != 1)
    return 0;
  const double bw = std::max(1e-9, double(ch.bytesPerCycle));
  double t = 0;
  for (const ImageBand *b : x.bands.runBand)
    t += double(ch.latencyCycles) * double(b->load.size()) +
         double(b->elems * 4) / bw;
  return t;
}

/// How much longer than alone a layer with a streamed filter may be
/// estimated, as a share of its MAC time, for the DRAM bytes sharing saves
/// (sharedChannelTime; docs/mapping.md, "A streamed filter").
constexpr double kStreamedShareWait = 0.01;

/// The channel time the members of `sh` spend with it (the home chunks'
/// one load included), or a negative number when it does not pay on one
/// of them: its channel time at least its time alone, or its time, max(MAC
/// time, channel time x the clusters on its channel, remote bytes at one
/// mesh link's rate) plus the stall of a single band slot, longer than
/// alone. The home region narrows a member's strips and bands, which may
/// cost it loads or its second band slot. A streamed filter's steps also
/// wait for the home chunks, and may be estimated kStreamedShareWait of the
/// MAC time longer than alone. `alone[i]`: member i's plan without the
/// shared strip.
double sharedChannelTime(const HardwareDesc &hw,
                         const std::vector<ClusterGemmWork> &work,
                         StationaryOperand st, const GemmEpilogue &epi,
                         bool sparse, const SharedStrip &sh,
                         int64_t stripBudget,
                         const std::vector<StripPlan> &alone) {
  double total = 0;
  for (size_t i = 0; i < sh.members.size(); ++i) {
    const uint32_t cl = sh.members[i];
    const ClusterGemmWork &w = work[cl];
    const MemoryChannel ch = channelOf(hw, w);
    const StripPlan shared = planClusterStrips(
        hw, w, st, epi, sparse, stripBudget - sh.homeBytes(), &sh, cl);
    const auto [first, last] = sh.home(cl);
    const double chanAlone = planChannelTime(alone[i], ch);
    const double chanShared = planChannelTime(shared, ch) +
                              double((last - first) * sh.tileBytes) /
                                  std::max(1e-9, double(ch.bytesPerCycle));
    double mesh = 0;
    for (const MStep &s : shared.steps)
      if (s.loadA && s.aOwner >= 0)
        mesh += double(boxElems(s.p->aBox(s.m0, s.mc, s.k)) * 4) /
                std::max(1e-9, hw.linkBytesPerCycle);
    const double mac = stepMacTime(alone[i].steps, hw);
    const double sharers = double(w.channelSharers);
    // A streamed filter's steps all wait for every member's home chunks
    // (the first round); priced, with a little slack: a layer bound by its
    // MACs gains no time from the bytes it saves.
    const double homeWait =
        sh.streamed ? double(ch.latencyCycles) +
                          double((last - first) * sh.tileBytes) * sharers /
                              std::max(1e-9, double(ch.bytesPerCycle))
                    : 0.0;
    const double slack = sh.streamed ? kStreamedShareWait * mac : 0.0;
    if (chanShared >= chanAlone || std::max({mac, chanShared * sharers, mesh}) +
                                           bandStall(shared, ch) + homeWait >
                                       std::max(mac, chanAlone * sharers) +
                                           bandStall(alone[i], ch) + slack)
      return -1;
    total += chanShared;
  }
  return total;
}

/// The shared strip of a layer, or none (SharedStrip::on() false): every
/// cluster with work asks for it (shareFilterStrip, partialFilterStrip), a
/// shared cluster cache, stationary C, at least two such clusters, each
/// with one problem of one M partition and at least two N tiles, or of one
/// N tile (a streamed filter, then at least a storage unit large), the same
/// tiling and the same A box for every K chunk, no A pieces, and the strip
/// larger than the storage the tiles leave; of the home sizes smaller than
/// that storage, the one that pays with the least channel time
/// (sharedChannelTime).
SharedStrip planSharedStrip(const StreamBuilder &sb,
                            const std::vector<ClusterGemmWork> &work,
                            StationaryOperand st, const GemmEpilogue &epi,
                            bool sparse, bool residualParts) {
  const HardwareDesc &hw = sb.hw();
  SharedStrip none;
  if (!hw.sharedClusterCache || st != StationaryOperand::C || sparse ||
      shareDoneSem(sb) >= kNumSemaphores)
    return none;
  SharedStrip sh;
  const ClusterGemmWork *first = nullptr;
  for (uint32_t cl = 0; cl < work.size(); ++cl) {
    const ClusterGemmWork &w = work[cl];
    if (w.problems.empty())
      continue;
    if (!w.shareFilterStrip || !w.partialFilterStrip || w.problems.size() != 1)
      return none;
    const GemmTiles &p = w.problems[0];
    const GemmTiling &t = w.tiling;
    // One M partition across at least two N tiles (a strip kept across
    // them), or one N tile (a filter streamed once, over its partitions).
    const bool onePartition = p.m <= t.peRows * hw.pesPerCluster;
    if (p.aPieces || p.nTiles.empty() || (p.nTiles.size() > 1 && !onePartition))
      return none;
    if (first) {
      const GemmTiling &t0 = first->tiling;
      const GemmTiles &p0 = first->problems[0];
      if (t.peRows != t0.peRows || t.kc != t0.kc || t.nc != t0.nc ||
          t.outerM != t0.outerM || t.sharedC != t0.sharedC ||
          t.rowInit != t0.rowInit || p.m != p0.m || p.kChunks != p0.kChunks)
        return none;
      for (size_t k = 0; k < p.kChunks.size(); ++k)
        if (!sameBox(p.aBox(0, p.m, k), p0.aBox(0, p0.m, k)))
          return none;
    }
    first = first ? first : &w;
    sh.members.push_back(cl);
  }
  if (sh.members.size() < 2)
    return none;
  const GemmTiling &t = first->tiling;
  const bool init = anyInitOf(first->problems, st);
  const int64_t stripBudget = int64_t(hw.storageBytes) -
                              fixedTileBytes(hw, t, init) -
                              residualRegionBytes(hw, t, epi, residualParts);
  sh.mcMax = t.peRows * hw.pesPerCluster;
  sh.streamed = first->problems[0].nTiles.size() == 1;
  sh.kChunks = int64_t(first->problems[0].kChunks.size());
  sh.chunks = sh.kChunks * ceilDiv(first->problems[0].m, sh.mcMax);
  sh.tileBytes = sh.mcMax * t.kc * 4;
  if (sh.chunks * sh.tileBytes <= stripBudget)
    return none;
  // A streamed filter (one N tile) is shared only when it is larger than a
  // storage unit: a smaller one saves little DRAM against the home region,
  // which takes the top of the storage the residency planner keeps
  // intermediates in (MobileNetV3-Large's 1 x 1 projections on
  // bandwidth-starved.json lost their resident inputs: +0.83 % cycles).
  if (sh.streamed && sh.chunks * sh.tileBytes < int64_t(hw.storageBytes))
    return none;
  // Every home size from a member's full share down: the one that pays
  // with the least channel time (a smaller home region may keep a second
  // band slot; the chunks past the homes then stream from DRAM).
  const int64_t members = int64_t(sh.members.size());
  std::vector<StripPlan> alone;
  for (uint32_t cl : sh.members)
    alone.push_back(planClusterStrips(hw, work[cl], st, epi, sparse,
                                      stripBudget, nullptr, cl));
  SharedStrip best = none;
  double bestTime = 0;
  for (int64_t h = ceilDiv(sh.chunks, members); h >= 1; --h) {
    SharedStrip c = sh;
    c.perHome = h;
    c.homed = std::min(sh.chunks, h * members);
    if (c.homeBytes() >= stripBudget)
      continue;
    c.base = uint32_t(int64_t(hw.storageBytes) - c.homeBytes());
    const double time =
        sharedChannelTime(hw, work, st, epi, sparse, c, stripBudget, alone);
    if (time >= 0 && (!best.on() || time < bestTime)) {
      best = c;
      bestTime = time;
    }
  }
  return best;
}

/// What a cluster's strips cost with the fused residual in a region or in
/// parts (residualInParts): their channel time, and the cluster's time,
/// max(MACs, channel time x the clusters on its channel), plus in parts
/// the waits of its final steps' residual loads, a latency per part and the
/// residual's bytes at the channel's rate.
struct ResidualModeCost {
  double channel = 0, time = 0;
};
ResidualModeCost residualModeCost(const HardwareDesc &hw,
                                  const ClusterGemmWork &w, uint32_t cl,
                                  StationaryOperand st, const GemmEpilogue &epi,
                                  bool sparse, const SharedStrip &share,
                                  int64_t budget, int64_t partRows) {
  const MemoryChannel ch = channelOf(hw, w);
  const bool member = share.on() && share.member(cl);
  const StripPlan plan = planClusterStrips(hw, w, st, epi, sparse, budget,
                                           member ? &share : nullptr, cl);
  const double repeats =
      double(std::max<int64_t>(1, repeatFactor(epi.residualView)));
  double waits = 0;
  if (partRows > 0)
    for (const MStep &s : plan.steps)
      if (s.store && s.final)
        waits += double(ceilDiv(s.mc, partRows) * ch.latencyCycles) +
                 double(s.mc * s.p->nTiles[s.n] * 4) / repeats /
                     std::max(1e-9, ch.bytesPerCycle);
  ResidualModeCost c;
  c.channel = planChannelTime(plan, ch);
  c.time = std::max(stepMacTime(plan.steps, hw),
                    c.channel * std::max(1u, w.channelSharers)) +
           waits;
  return c;
}

/// Whether a layer's fused residual goes through the ping-pong half its
/// final step has just read, a part of rows at a time, instead of a region
/// of its own (docs/mapping.md, "The fused epilogue in row parts, and the
/// residual tile in parts"). The region lets the residual load overlap the
/// final step; in parts each load waits for the PEs. Taken when every
/// cluster can (stationary C, a part of one row per PE fits a half's A and
/// B tiles and the input buffer) and either some cluster's tiles and region
/// do not fit its storage, or, as for the slice tiles (docs/mapping.md,
/// "Then the bytes"), the strips planned with the region's bytes (and the
/// shared strip they allow) move clearly less, at most 4/5 of the channel
/// time summed over the clusters, while the slowest cluster's estimated
/// time (residualModeCost) grows by at most 2 %.
bool residualInParts(const StreamBuilder &sb,
                     const std::vector<ClusterGemmWork> &work,
                     StationaryOperand st, const GemmEpilogue &epi,
                     bool sparse) {
  const HardwareDesc &hw = sb.hw();
  if (!detail::hasResidual(epi.post))
    return false;
  ResidualModeCost total[2];
  for (int parts = 0; parts < 2; ++parts) {
    const SharedStrip share =
        planSharedStrip(sb, work, st, epi, sparse, parts != 0);
    for (uint32_t cl = 0; cl < work.size(); ++cl) {
      const ClusterGemmWork &w = work[cl];
      if (w.problems.empty())
        continue;
      const GemmTiling &t = w.tiling;
      const int64_t partRows =
          std::min(detail::residualPartPeRows(hw, t, epi, st),
                   detail::postPeRows(hw, epi.post, t.peRows, t.nc)) *
          int64_t(hw.pesPerCluster);
      if (partRows == 0)
        return false;
      const int64_t budget =
          int64_t(hw.storageBytes) -
          fixedTileBytes(hw, t, anyInitOf(w.problems, st)) -
          residualRegionBytes(hw, t, epi, parts != 0) -
          (share.on() && share.member(cl) ? share.homeBytes() : 0);
      if (budget < 0) {
        if (!parts)
          return true; // the region does not fit beside the tiles
        continue;
      }
      const ResidualModeCost c = residualModeCost(
          hw, w, cl, st, epi, sparse, share, budget, parts ? partRows : 0);
      total[parts].channel += c.channel;
      total[parts].time = std::max(total[parts].time, c.time);
    }
  }
  return total[1].channel <= 0.8 * total[0].channel &&
         total[1].time <= 1.02 * total[0].time;
}

/// Loads `cl`'s home chunks of the shared strip, then tells the other
/// members and waits until theirs are loaded too.
void loadHomeChunks(StreamBuilder &sb, uint32_t cl, const SharedStrip &sh,
                    const GemmTiles &p, const GemmTiling &t,
                    const std::function<void(uint8_t, const DramBox &, uint32_t,
                                             int64_t)> &load) {
  const auto [first, last] = sh.home(cl);
  for (int64_t k = first; k < last; ++k)
    load(kShareTag, sh.box(p, k), sh.addr(k), t.kc);
  sb.wait(cl, uint8_t(1u << kShareTag), false);
  sb.meshSignal(cl, sh.others(cl), shareReadySem(sb));
  sb.meshRecv(cl, shareReadySem(sb), uint32_t(sh.members.size() - 1));
}

/// After `cl`'s last step: its remote loads are done (each step waited
/// for its tiles); it tells the other members, then waits until no one
/// reads its home region any more, which the next layer may overwrite.
void releaseHomeChunks(StreamBuilder &sb, uint32_t cl, const SharedStrip &sh) {
  sb.meshSignal(cl, sh.others(cl), shareDoneSem(sb));
  sb.meshRecv(cl, shareDoneSem(sb), uint32_t(sh.members.size() - 1));
}

} // namespace

bool accel::codegen::emitMappedGemmLayer(
    StreamBuilder &sb, const std::vector<ClusterGemmWork> &work,
    StationaryOperand st, const GemmEpilogue &epi, std::string &err) {
  const HardwareDesc &hw = sb.hw();
  if (work.size() > sb.numClusters()) {
    err = "more cluster slices than clusters";
    return false;
  }
  // Sparse weight lists: decided for the whole layer (every cluster's B
  // tiles constant and fitting, the zero fraction over all of them).
  std::vector<SparseLayerTiles> sparseTiles(work.size());
  bool sparse = false;
  if (epi.sparse) {
    sparse = true;
    int64_t zeros = 0, total = 0;
    std::string why;
    for (uint32_t cl = 0; sparse && cl < work.size(); ++cl) {
      const GemmTiling &t = work[cl].tiling;
      if (work[cl].problems.empty())
        continue;
      int64_t gc = std::min(t.nc, accCols(hw, t.peRows));
      int g = int(std::min<int64_t>(4, ceilDiv(t.nc, gc)));
      sparse = encodeSparseTiles(hw, work[cl].problems, t, gc, g, *epi.sparse,
                                 sparseTiles[cl], why);
      zeros += sparseTiles[cl].zeros;
      total += sparseTiles[cl].total;
    }
    sparse = sparse && total > 0 &&
             double(zeros) >= epi.sparse->threshold * double(total);
    if (sparse)
      for (SparseLayerTiles &l : sparseTiles)
        placeSparseTiles(l, *epi.sparse);
  }
  const bool residualParts = residualInParts(sb, work, st, epi, sparse);
  const SharedStrip share =
      planSharedStrip(sb, work, st, epi, sparse, residualParts);
  for (uint32_t cl = 0; cl < work.size(); ++cl) {
    const std::vector<GemmTiles> &problems = work[cl].problems;
    if (problems.empty())
      continue;
    const bool member = share.on() && share.member(cl);
    const bool anyInit = anyInitOf(problems, st);
    const GemmTiling t = work[cl].tiling;
    // Biases as one value per row (GemmTiling::rowInit, GemmTiles::initRows):
    // only stationary C initialises from the bias alone (A / B reload
    // partial sums too).
    const bool rowInit = t.rowInit && anyInit;
    if (rowInit &&
        (st != StationaryOperand::C ||
         std::any_of(problems.begin(), problems.end(), [](const GemmTiles &p) {
           return p.initBox && !p.initRows;
         }))) {
      err = "internal error: a one-value-per-row init region for an init "
            "that is not a per-row bias";
      return false;
    }
    const int64_t mcMax = t.peRows * hw.pesPerCluster;
    // Storage, from address 0 up: [half 0 | half 1 | (sharedC) C | init |
    // residual tile of a fused epilogue (unless it goes through the free
    // half in parts) | its staging region (below) | band slots | resident
    // slots]. Only the bytes the layer uses are taken, so that on-chip
    // residency finds the rest of the storage unit free (docs/passes.md,
    // "Compact kernel storage").
    const int64_t half = halfBytes(hw, t, anyInit);
    const int64_t resBytes = residualRegionBytes(hw, t, epi, residualParts);
    // The fused epilogue runs on each final C tile in parts of postPeRows
    // rows per PE: what a PE's input buffer holds of the C tile and its
    // residual and, through the free half, what the half holds.
    int64_t postPeRows = detail::postPeRows(hw, epi.post, t.peRows, t.nc);
    if (residualParts)
      postPeRows =
          std::min(postPeRows, detail::residualPartPeRows(hw, t, epi, st));
    const int64_t fixedBytes = fixedTileBytes(hw, t, anyInit);
    const uint32_t resAddr = uint32_t(fixedBytes);
    int64_t stripBase = fixedBytes + resBytes;
    // A shared strip's home region sits at the top of the storage.
    const int64_t stripBudget =
        int64_t(hw.storageBytes) - stripBase - (member ? share.homeBytes() : 0);
    if (t.sharedC && st != StationaryOperand::C) {
      err = "internal error: a shared C region needs stationary C";
      return false;
    }
    if (stripBudget < 0) {
      err = "GEMM tiles do not fit the storage unit (fitMappedTiling)";
      return false;
    }
    const int64_t groupCols = std::min(t.nc, accCols(hw, t.peRows));
    const int groups = int(std::min<int64_t>(4, ceilDiv(t.nc, groupCols)));
    if (groups * groupCols < t.nc) {
      err = "the N tile exceeds the accumulation buffers";
      return false;
    }
    const StripPlan plan =
        planClusterStrips(hw, work[cl], st, epi, sparse, stripBudget,
                          member ? &share : nullptr, cl);
    const int64_t stagingBytes = plan.stagingBytes;
    const BandPlan &bands = plan.bands;
    const std::vector<MStep> &steps = plan.steps;
    const int64_t slotBytes = plan.slotBytes;
    const uint32_t stagingAddr = uint32_t(stripBase);
    stripBase += stagingBytes;
    const uint32_t bandBase = uint32_t(stripBase); // slot r % slots
    const int64_t slotBase = stripBase + bands.slots * bands.slotBytes;
    for (const MStep &s : steps)
      if (s.p->kChunks[s.k] > t.kc || s.p->nTiles[s.n] > t.nc) {
        err = "a slice's K chunk or N tile exceeds the cluster tiling";
        return false;
      }

    // Partial sums of problem i: a dense [m, sum(nTiles)] block of the
    // cluster's scratch.
    std::vector<int64_t> psumOff(problems.size() + 1, 0);
    std::vector<std::vector<int64_t>> nOff(problems.size());
    for (size_t i = 0; i < problems.size(); ++i) {
      const GemmTiles &p = problems[i];
      int64_t total = sum(p.nTiles);
      bool used = st != StationaryOperand::C && p.kChunks.size() > 1;
      psumOff[i + 1] = psumOff[i] + (used ? p.m * total : 0);
      nOff[i].assign(1, 0);
      for (int64_t w : p.nTiles)
        nOff[i].push_back(nOff[i].back() + w);
    }
    if (psumOff.back() > 0 && work[cl].psumScratch == 0) {
      err = "internal error: no partial-sum scratch for a stationary A / B "
            "layer";
      return false;
    }
    auto psumBox = [&](const MStep &s) {
      int64_t total = nOff[s.pi].back();
      DramBox b;
      b.base = work[cl].psumScratch +
               uint64_t((psumOff[s.pi] + s.m0 * total + nOff[s.pi][s.n]) * 4);
      b.dim(s.mc, total).dim(s.p->nTiles[s.n], 1);
      return b;
    };

    // A tiles kept in the PE input buffers between steps that use the same
    // one (heldActs), when the variants this adds fit the instruction
    // buffers.
    int actsSlot = inputBufferActsSlot(hw, t, epi, postPeRows);
    std::vector<bool> actsHeld = heldActs(steps, actsSlot);
    // Instruction buffers: one per (init, fused function on, LD acts)
    // variant used.
    GemmEpilogue plain = epi;
    plain.func = SfuFunc::None;
    std::map<std::tuple<bool, bool, bool>, uint8_t> ibufOf;
    auto key = [&](size_t i) {
      const MStep &s = steps[i];
      bool funcOn =
          epi.func != SfuFunc::None && (st == StationaryOperand::C || s.final);
      return std::make_tuple(s.init != Init::None, funcOn, !actsHeld[i]);
    };
    auto countVariants = [&] {
      ibufOf.clear();
      for (size_t i = 0; i < steps.size(); ++i)
        ibufOf.emplace(key(i), 0);
      return ibufOf.size() + (epi.post.empty() ? 0 : 1);
    };
    if (countVariants() > hw.instructionBuffers)
      actsHeld.assign(steps.size(), false);
    if (std::none_of(actsHeld.begin(), actsHeld.end(),
                     [](bool h) { return h; }))
      actsSlot = 0; // every step loads: the usual slot
    countVariants();
    // A per-row bias is added by a depth-1 MAC (gemmSequence) when its
    // values fit the input buffers past the A tile and the program has a
    // DRAM 1.0 for the row of ones; else LD psums broadcasts it.
    // It trades the broadcast's PE cycles for one more DMA per init region:
    // only where the cluster's MACs outlast its share of the channel.
    auto macsOutlastLoads = [&] {
      const MemoryChannel chan = channelOf(hw, work[cl]);
      return stepMacTime(steps, hw) >
             double(work[cl].channelSharers) *
                 stepChannelTime(steps, bands.on() ? &bands : nullptr, chan);
    };
    const int biasSlot =
        rowInit && work[cl].ones && macsOutlastLoads()
            ? tiling::biasMacSlot(int64_t(hw.inputBufferBytes), t.peRows, t.kc,
                                  std::max(0, actsSlot))
            : -1;
    std::map<uint8_t, bool> biasMacOf;
    if (ibufOf.size() > hw.instructionBuffers) {
      err = "the mapped GEMM needs " + std::to_string(ibufOf.size()) +
            " instruction buffers, the hardware has " +
            std::to_string(hw.instructionBuffers);
      return false;
    }
    // The tiles of ping-pong half h (C and init shared with t.sharedC).
    auto halfRegions = [&](int h) {
      return detail::halfRegions(hw, t, half, h);
    };
    auto cTag = [&](int h) { return storeTag(t.sharedC ? 0 : h); };
    std::map<uint8_t, std::vector<Instruction>> seqs;
    uint8_t next = 0;
    for (auto &[k, id] : ibufOf) {
      id = next++;
      const auto [init, funcOn, loadActs] = k;
      std::vector<Instruction> seq = gemmSequence(
          t, funcOn ? epi : plain, init, groups, sparse, rowInit && init,
          InputBufferUse{uint8_t(std::max(0, actsSlot)), loadActs, biasSlot});
      biasMacOf[id] = init && biasSlot >= 0;
      std::vector<OperandRecord> full =
          stepRecords(seq, halfRegions(0), mcMax, t.kc, t.nc, groupCols,
                      nullptr, biasMacOf[id]);
      for (size_t i = 0; i < seq.size(); ++i)
        seq[i].operands = full[i];
      sb.config(cl, id, seq);
      seqs[id] = std::move(seq);
    }
    // The fused epilogue's steps on each final C tile (EpilogueSteps.cpp).
    const uint8_t postIbuf = next;
    std::vector<Instruction> seqPost;
    if (!epi.post.empty()) {
      if (postIbuf >= hw.instructionBuffers || postPeRows == 0) {
        err = "internal error: the fused epilogue does not fit "
              "(mappedPostFits)";
        return false;
      }
      seqPost = detail::postSequence(hw, epi.post, postPeRows, t.nc);
      std::vector<OperandRecord> full =
          detail::postRecords(seqPost, halfRegions(0).c, resAddr,
                              postPeRows * hw.pesPerCluster, t.nc, t.nc);
      for (size_t i = 0; i < seqPost.size(); ++i)
        seqPost[i].operands = full[i];
      sb.config(cl, postIbuf, seqPost);
    }

    auto regions = [&](const MStep &s, int h) {
      Regions r = halfRegions(h);
      if (s.aSlot >= 0)
        r.a = uint32_t(slotBase + s.aSlot * slotBytes + s.aOff);
      if (s.bSlot >= 0)
        r.b = uint32_t(slotBase + s.bSlot * slotBytes + s.bOff);
      if (s.aHomeAddr >= 0)
        r.a = uint32_t(s.aHomeAddr);
      return r;
    };
    InitRegions held;
    std::set<uint32_t> onesFilled; // init regions holding their 1.0
    // Every storage write of the steps goes through these two, so that the
    // regions' held zero pieces are known.
    HeldZeros zeros;
    auto load = [&](uint8_t tag, const DramBox &box, uint32_t addr,
                    int64_t rowStride) {
      zeros.wroteBox(addr, box, rowStride);
      sb.dmaLoad(cl, tag, box, addr, rowStride);
    };
    auto loadPieces = [&](uint8_t tag, const std::vector<TilePiece> &pieces,
                          uint32_t addr) {
      sb.dmaLoadPieces(cl, tag, zeros.toLoad(addr, pieces), addr);
    };
    auto bandAddr = [&](size_t r) {
      return bandBase + uint32_t((r % size_t(bands.slots)) * bands.slotBytes);
    };
    auto loadBand = [&](size_t r) {
      loadPieces(bandTag(r), bands.runBand[r]->load, bandAddr(r));
    };
    // The B tile of step i from its band: the band of run r was prefetched
    // when run r - 1 started (run 0 now); once it has arrived, run r + 1's
    // band goes into the other slot, after the copies of run r - 1 (which
    // read that slot) have completed.
    auto copyFromBand = [&](size_t i, uint32_t dst) {
      const MStep &s = steps[i];
      const size_t r = size_t(bands.runOf[i]);
      if (i == bands.runFirst[r] && bands.slots == 1) {
        // One slot: the previous band's copies first, then this band.
        if (r > 0)
          sb.wait(cl, uint8_t(1u << loadTag(int(bands.runLast[r - 1] % 2))),
                  false);
        loadBand(r);
        sb.wait(cl, uint8_t(1u << bandTag(r)), false);
      } else if (i == bands.runFirst[r]) {
        if (r == 0)
          loadBand(0);
        sb.wait(cl, uint8_t(1u << bandTag(r)), false);
        if (r + 1 < bands.runBand.size()) {
          if (r > 0)
            sb.wait(cl, uint8_t(1u << loadTag(int(bands.runLast[r - 1] % 2))),
                    false);
          loadBand(r + 1);
        }
      }
      const ImageBand &b = bands.band(s.pi, s.k, s.n);
      sb.dmaLocalCopy(cl, loadTag(int(i % 2)),
                      bandAddr(r) + uint32_t(b.tile.base * 4), b.tile, dst,
                      t.nc);
      zeros.wroteBox(dst, b.tile, t.nc);
    };
    auto issueLoads = [&](size_t i) {
      const MStep &s = steps[i];
      int h = int(i % 2);
      Regions l = regions(s, h);
      if (s.loadA && s.aOwner >= 0) {
        const DramBox box = s.p->aBox(s.m0, s.mc, s.k);
        sb.dmaRemoteLoad(
            cl, loadTag(h), uint32_t(s.aOwner),
            share.addr(share.chunkOf(s.m0 / share.mcMax, int64_t(s.k))), box,
            l.a, t.kc);
        zeros.wroteBox(l.a, box, t.kc);
      } else if (s.loadA && s.p->aPieces)
        loadPieces(loadTag(h), s.p->aPieces(s.m0, s.mc, s.k, t.kc), l.a);
      else if (s.loadA)
        load(loadTag(h), s.p->aBox(s.m0, s.mc, s.k), l.a, t.kc);
      if (s.loadB && bands.on())
        copyFromBand(i, l.b);
      else if (s.loadB && sparse)
        load(loadTag(h), sparseTileBox(sparseTiles[cl].at(s.pi, s.k, s.n)), l.b,
             1);
      else if (s.loadB && s.p->bPieces)
        loadPieces(loadTag(h), s.p->bPieces(s.k, s.n, t.nc), l.b);
      else if (s.loadB)
        load(loadTag(h), s.p->bBox(s.k, s.n), l.b, t.nc);
      if (s.init == Init::Bias && rowInit) {
        const DramBox rows = s.p->initRows(s.m0, s.mc);
        if (held.needsLoad(l.init, rows, /*readOnly=*/true))
          load(loadTag(h), rows, l.init, 1);
        if (biasSlot >= 0 && onesFilled.insert(l.ones).second) {
          DramBox one; // the DRAM 1.0, once per init region
          one.base = work[cl].ones;
          one.dim(1, 1);
          load(loadTag(h), one, l.ones, 1);
        }
      } else if (s.init != Init::None) {
        const DramBox init =
            s.init == Init::Bias ? s.p->initBox(s.m0, s.mc, s.n) : psumBox(s);
        if (held.needsLoad(l.init, init))
          load(loadTag(h), init, l.init, t.nc);
      }
    };

    if (member)
      loadHomeChunks(sb, cl, share, problems[0], t, load);
    issueLoads(0);
    for (size_t i = 0; i < steps.size(); ++i) {
      const MStep &s = steps[i];
      int h = int(i % 2);
      // A reload of the tile this step stores must follow its store; the
      // shared init region is rewritten only after this step has read it.
      bool deferNext =
          i + 1 < steps.size() &&
          ((steps[i + 1].init == Init::Reload && steps[i + 1].p == s.p &&
            steps[i + 1].m0 == s.m0 && steps[i + 1].n == s.n) ||
           (t.sharedC && steps[i + 1].init != Init::None &&
            s.init != Init::None));
      if (i + 1 < steps.size() && !deferNext) {
        sb.wait(cl, 0, /*pe=*/true); // EXECUTE i-1 used the other half
        issueLoads(i + 1);
      }
      uint8_t mask = uint8_t(1u << loadTag(h));
      if (s.store)
        mask |= uint8_t(1u << cTag(h)); // C region free again
      sb.wait(cl, mask, false);
      Regions l = regions(s, h);
      int64_t kc = s.p->kChunks[s.k], nc = s.p->nTiles[s.n];
      uint8_t id = ibufOf.at(key(i));
      const std::vector<SparseGroup> *lists =
          sparse ? &sparseTiles[cl].at(s.pi, s.k, s.n).groups : nullptr;
      sb.execute(cl, id,
                 stepRecords(seqs[id], l, s.mc, kc, nc, groupCols, lists,
                             biasMacOf[id]),
                 /*shift=*/s.store, /*last=*/s.store);
      if (s.store && s.final && !seqPost.empty()) {
        // The steps on the C tile a part of rows at a time. Through the
        // free half (residualParts), each part waits for the PEs (EXECUTE i
        // was the last to read the half, then the previous part's steps)
        // and loads its residual rows there; with a region, the whole
        // residual tile loads while EXECUTE i runs.
        const int64_t partRows = postPeRows * int64_t(hw.pesPerCluster);
        const uint32_t partAddr = halfRegions(h).a;
        // Rows [r0, r0 + rows) of the tile's residual into storage `at`.
        auto loadResidualRows = [&](int64_t r0, int64_t rows, uint32_t at) {
          detail::loadResidual(sb, cl, kResidualTag,
                               s.p->cBox(s.m0 + r0, rows, s.n), epi, at, t.nc,
                               stagingAddr, stagingBytes);
          sb.wait(cl, uint8_t(1u << kResidualTag), false);
        };
        if (resBytes)
          loadResidualRows(0, s.mc, resAddr);
        for (int64_t r0 = 0; r0 < s.mc; r0 += partRows) {
          const int64_t rows = std::min(partRows, s.mc - r0);
          const uint32_t rowOff = uint32_t(r0 * t.nc * 4);
          uint32_t residual = resAddr + rowOff;
          if (residualParts) {
            residual = partAddr;
            sb.wait(cl, 0, /*pe=*/true);
            zeros.wrote(partAddr, partAddr + uint64_t(rows * t.nc * 4));
            loadResidualRows(r0, rows, partAddr);
          }
          sb.execute(cl, postIbuf,
                     detail::postRecords(seqPost, l.c + rowOff, residual, rows,
                                         nc, t.nc),
                     /*shift=*/false, /*last=*/true);
        }
      }
      if (s.store) {
        sb.wait(cl, 0, /*pe=*/true);
        sb.dmaStore(cl, cTag(h), l.c, t.nc,
                    s.final ? s.p->cBox(s.m0, s.mc, s.n) : psumBox(s));
      }
      if (deferNext) {
        sb.wait(cl, 0, /*pe=*/true);
        issueLoads(i + 1);
      }
    }
    if (member)
      releaseHomeChunks(sb, cl, share);
  }
  sb.endLayer();
  return true;
}

bool accel::codegen::emitPartialSumCombine(
    StreamBuilder &sb, uint64_t partials, int64_t elems, int64_t kRows,
    int64_t kCols, uint64_t out, SfuFunc func,
    const std::function<uint64_t(int64_t)> &allocate, std::string &err) {
  const int64_t bytes = elems * 4;
  auto partAddr = [&](int64_t kr, int64_t kc) {
    return partials + uint64_t((kr * kCols + kc) * bytes);
  };
  auto addLayer = [&](int64_t rows, View a, View b, View dst, bool lastLayer) {
    ElementwiseLayer ew;
    ew.shape = {rows, elems};
    ew.inputs = {a, b};
    ew.output = dst;
    ew.steps.push_back({SpuType::Binary, SfuFunc::Add, 0.0f, 0, 1, 0});
    if (lastLayer && func != SfuFunc::None)
      ew.steps.push_back({SpuType::Unary, func, 0.0f, 0, 0, 0});
    return emitElementwiseLayer(sb, ew, err);
  };
  // Across the clusters of each grid row (all rows at once): row sums S.
  // Row r's partials are at partAddr(r, c), rows kCols * bytes apart.
  View rowSums{partAddr(0, 0), {kCols * elems, 1}};
  for (int64_t c = 1; c < kCols; ++c) {
    bool lastLayer = kRows == 1 && c + 1 == kCols;
    View dst = lastLayer ? View{out, {elems, 1}}
                         : View{allocate(kRows * elems), {elems, 1}};
    if (!addLayer(kRows, rowSums, View{partAddr(0, c), {kCols * elems, 1}}, dst,
                  lastLayer))
      return false;
    rowSums = dst;
  }
  // Then across the rows.
  View total{rowSums.base, {elems, 1}};
  for (int64_t r = 1; r < kRows; ++r) {
    bool lastLayer = r + 1 == kRows;
    View dst =
        lastLayer ? View{out, {elems, 1}} : View{allocate(elems), {elems, 1}};
    View row{rowSums.base + uint64_t(r * rowSums.strides[0] * 4), {elems, 1}};
    if (!addLayer(1, total, row, dst, lastLayer))
      return false;
    total = dst;
  }
  return true;
}
