//===- GemmKernel.cpp - Tiled, double-buffered GEMM layers ----------------===//
//
// The loop nest follows the tiling (docs/tiling.md, "Lowering"): outer
// partitions (M partitions of Mc rows, or N tiles) are dealt over the
// clusters; each cluster walks its inner partitions and, per partition, the
// K chunks. For every step the cluster DMAs the tiles it does not hold yet
// into one half of its storage unit (or, for a resident strip, into the
// strip region, once) while the PE array computes on the other half
// (ping-pong), then EXECUTEs one instruction buffer: LD psums (bias, first
// chunk), LD activations, per accumulation buffer LD weights + MAC, ST. The
// ST only writes back on the last chunk (EXECUTE `last`), which also shifts
// the accumulators out (`shift`); partial sums of the whole partition stay in
// the four accumulation buffers between chunks (split-K). A split-K tiling
// keeps one C and one init region after the two halves (GemmTiling::sharedC)
// instead of a copy in each half, so its partitions can fill the
// accumulators.
//
//===----------------------------------------------------------------------===//
#include "EpilogueSteps.h"
#include "GemmCommon.h"
#include "SparseWeightTiles.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/GemmStorage.h"
#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace accel;
using namespace accel::codegen;

namespace {

std::vector<int64_t> candidates(int64_t limit) {
  std::vector<int64_t> c;
  for (int64_t v = 1; v < limit; v *= 2)
    c.push_back(v);
  c.push_back(limit);
  return c;
}

} // namespace

GemmTiling accel::codegen::chooseGemmTiling(const HardwareDesc &hw, int64_t m,
                                            int64_t n, int64_t k,
                                            bool withInit) {
  const int64_t pes = hw.pesPerCluster;
  const int64_t halfFloats = int64_t(hw.storageBytes / 2 / 4);
  const int64_t ibFloats = int64_t(hw.inputBufferBytes / 4);
  const int64_t wqFloats = int64_t(hw.weightQueueBytes / 4);
  const int64_t accFloats = int64_t(hw.accBufferBytes / 4);
  const double chanBw =
      hw.channels.empty() ? 1.0 : hw.channels[0].bytesPerCycle;
  const double clustersPerChannel = std::max(
      1.0, double(hw.numClusters()) / std::max<size_t>(1, hw.channels.size()));
  // Cycles a step's loads hold the channel besides their bytes (the
  // latency itself overlaps the previous step: double buffering).
  const double dmaHeld =
      hw.channels.empty() ? 0 : double(hw.channels[0].occupancyCycles(0));

  GemmTiling best;
  double bestCost = std::numeric_limits<double>::infinity();
  int64_t bestVolume = 0;
  for (int64_t r : candidates(ceilDiv(m, pes))) {
    int64_t mc = r * pes;
    for (int64_t kc : candidates(k)) {
      if (r * kc > ibFloats)
        continue;
      for (int64_t nc : candidates(n)) {
        if (kc * nc > wqFloats || r * nc > accFloats ||
            tiling::gemmStorage(mc, kc, nc, withInit, false).half / 4 >
                halfFloats)
          continue;
        int64_t tiles = ceilDiv(m, mc) * ceilDiv(n, nc);
        int64_t stepsPerCluster =
            ceilDiv(tiles, hw.numClusters()) * ceilDiv(k, kc);
        double loadBytes = double(mc * kc + kc * nc) * 4;
        double compute = std::ceil(double(r * kc * nc) / hw.macLanes) +
                         hw.macPipelineLatency +
                         loadBytes / hw.storageBytesPerCycle;
        double dma = dmaHeld + loadBytes * clustersPerChannel / chanBw;
        double cost = double(stepsPerCluster) * std::max(compute, dma);
        int64_t volume = mc * kc * nc;
        if (cost < bestCost || (cost == bestCost && volume > bestVolume)) {
          bestCost = cost;
          bestVolume = volume;
          best = {r, kc, nc};
        }
      }
    }
  }
  assert(bestVolume > 0 && "hardware buffers cannot hold a 1x1x1 tile");
  return best;
}

//===----------------------------------------------------------------------===//
// Decision -> kernel tiling
//===----------------------------------------------------------------------===//

tiling::TilingHardware
accel::codegen::kernelTilingHardware(const HardwareDesc &hw, bool withInit,
                                     const tiling::DeriveOptions &opts) {
  tiling::TilingHardware t = tiling::deriveTilingHardware(hw, opts);
  uint64_t u = hw.storageBytes / 8;
  t.aBufferBytes = std::min<uint64_t>(t.aBufferBytes, u);
  t.bBufferBytes = std::min<uint64_t>(t.bBufferBytes, u);
  // Split-K partial sums live in the accumulators; the storage only needs
  // the shared C (and init) region next to the two A + B halves (S/2).
  t.accBufferBytes =
      std::min<uint64_t>(t.accBufferBytes, withInit ? 2 * u : 4 * u);
  return t;
}

namespace accel::codegen::detail {
/// Bytes of one ping-pong half.
int64_t halfBytes(const HardwareDesc &hw, const GemmTiling &t, bool init) {
  return tiling::gemmStorage(t.peRows * hw.pesPerCluster, t.kc, t.nc, init,
                             t.sharedC, t.rowInit)
      .half;
}
int64_t sharedCBytes(const HardwareDesc &hw, const GemmTiling &t, bool init) {
  return tiling::gemmStorage(t.peRows * hw.pesPerCluster, t.kc, t.nc, init,
                             t.sharedC, t.rowInit)
      .shared;
}
int64_t fixedTileBytes(const HardwareDesc &hw, const GemmTiling &t, bool init) {
  return 2 * halfBytes(hw, t, init) + sharedCBytes(hw, t, init);
}
Regions halfRegions(const HardwareDesc &hw, const GemmTiling &t, int64_t half,
                    int h) {
  int64_t mc = t.peRows * hw.pesPerCluster;
  Regions r;
  r.a = uint32_t(h * half);
  r.b = r.a + uint32_t(mc * t.kc * 4);
  r.c = t.sharedC ? uint32_t(2 * half) : r.b + uint32_t(t.kc * t.nc * 4);
  r.init = r.c + uint32_t(mc * t.nc * 4);
  r.ones = r.init + uint32_t(mc * 4); // GemmStorage: mc values, a 1.0
  return r;
}
/// Columns one EXECUTE can accumulate: four accumulation buffers of
/// accFloats / peRows columns each.
int64_t accCols(const HardwareDesc &hw, int64_t peRows) {
  return int64_t(hw.accBufferBytes / 4) / std::max<int64_t>(1, peRows);
}
bool InitRegions::needsLoad(uint32_t addr, const DramBox &box, bool readOnly) {
  bool broadcast = readOnly;
  for (int d = 0; d < box.rank; ++d)
    broadcast |= box.stride[d] == 0 && box.shape[d] > 1;
  auto same = [&](const DramBox &b) {
    return b.base == box.base && b.rank == box.rank &&
           b.rowDims == box.rowDims && b.shape == box.shape &&
           b.stride == box.stride;
  };
  auto it = std::find_if(held_.begin(), held_.end(),
                         [&](const Held &h) { return h.addr == addr; });
  if (it != held_.end() && broadcast && same(it->box))
    return false;
  if (it == held_.end())
    held_.push_back({addr, box});
  else
    it->box = box;
  return true;
}
} // namespace accel::codegen::detail
using namespace accel::codegen::detail;

bool accel::codegen::gemmTilingFromDecision(const HardwareDesc &hw,
                                            const tiling::TileDecision &d,
                                            const tiling::GemmProblem &p,
                                            bool withInit, GemmTiling &out) {
  if (!d.feasible)
    return false;
  const int64_t pes = hw.pesPerCluster;
  const int64_t cFloats = int64_t(hw.storageBytes / 8 / 4) / (withInit ? 2 : 1);
  const int64_t block = std::max<int64_t>(1, hw.blockSize);
  GemmTiling t;
  t.outerM = d.outerRowMajor;
  t.keepStrips = true;
  t.sharedC = d.partitionK < p.k;
  t.kc = std::max<int64_t>(1, d.partitionK);
  int64_t pm = std::max<int64_t>(1, d.partitionM);
  t.nc = std::max<int64_t>(1, d.partitionN);
  t.peRows = ceilDiv(pm, pes);
  auto fits = [&](const GemmTiling &x) {
    int64_t mc = x.peRows * pes;
    return x.nc <= 4 * accCols(hw, x.peRows) &&
           (x.sharedC || mc * x.nc <= cFloats) &&
           x.peRows * x.kc <= int64_t(hw.inputBufferBytes / 4) &&
           x.kc * std::min(x.nc, accCols(hw, x.peRows)) <=
               int64_t(hw.weightQueueBytes / 4) &&
           fixedTileBytes(hw, x, withInit) <= int64_t(hw.storageBytes);
  };
  // Narrow the inner dimension (its operand is streamed once per outer
  // partition whatever the tile, so the load counts do not change).
  auto shrink = [&](int64_t v) {
    return v > block ? (v - 1) / block * block : std::max<int64_t>(1, v / 2);
  };
  while (!fits(t)) {
    bool narrowN = t.outerM ? t.nc > 1 : t.peRows <= 1;
    if (narrowN && t.nc > 1)
      t.nc = shrink(t.nc);
    else if (t.peRows > 1)
      t.peRows = ceilDiv(shrink(t.peRows * pes), pes);
    else
      return false;
  }
  out = t;
  return true;
}

tiling::TileDecision
accel::codegen::realisedDecision(const HardwareDesc &hw,
                                 const tiling::TileDecision &d,
                                 const tiling::GemmProblem &p, bool withInit) {
  GemmTiling t;
  if (!gemmTilingFromDecision(hw, d, p, withInit, t))
    return d;
  int64_t pm = std::min<int64_t>(p.m, t.peRows * int64_t(hw.pesPerCluster));
  if (pm == d.partitionM && t.nc == d.partitionN && t.kc == d.partitionK)
    return d;
  tiling::TileDecision r = tiling::decisionFromMapping(
      p, kernelTilingHardware(hw, withInit), {t.outerM, pm, t.nc, t.kc});
  return r.feasible ? r : d;
}

tiling::RealiseFn accel::codegen::kernelRealiser(const HardwareDesc &hw,
                                                 const tiling::GemmProblem &p,
                                                 bool withInit) {
  return [&hw, p, withInit](const tiling::TileDecision &d) {
    return realisedDecision(hw, d, p, withInit);
  };
}

tiling::TileDecision
accel::codegen::refineForKernel(const HardwareDesc &hw,
                                const tiling::GemmProblem &p,
                                const tiling::TileDecision &d, bool withInit) {
  return tiling::refineForMachine(p, kernelTilingHardware(hw, withInit), hw, d,
                                  withInit, kernelRealiser(hw, p, withInit));
}

tiling::TileDecision
accel::codegen::gemmDecision(const HardwareDesc &hw,
                             const tiling::GemmProblem &p, bool withInit,
                             const tiling::Mapping *forced) {
  tiling::TilingHardware th = kernelTilingHardware(hw, withInit);
  if (forced) {
    tiling::TileDecision d = tiling::decisionFromMapping(p, th, *forced);
    if (d.feasible)
      return d;
  }
  return tiling::selectTiling(p, th);
}

GemmTiling accel::codegen::gemmTilingFor(const HardwareDesc &hw,
                                         const tiling::GemmProblem &p,
                                         int64_t chunkK, bool withInit,
                                         const tiling::Mapping *forced) {
  tiling::TileDecision d = gemmDecision(hw, p, withInit, forced);
  GemmTiling t;
  if (!gemmTilingFromDecision(hw, d, p, withInit, t))
    return chooseGemmTiling(hw, p.m, p.n, chunkK, withInit);
  t.kc = std::min(t.kc, chunkK);
  return t;
}

//===----------------------------------------------------------------------===//
// Layer emission
//===----------------------------------------------------------------------===//

namespace {
struct Step {
  const GemmTiles *problem;
  size_t outerKey; ///< (problem, outer partition) identity
  int64_t m0, mc;
  size_t n, k;
  bool loadA, loadB;  ///< DMA the tile (false: resident from earlier)
  int64_t aAddr = -1; ///< strip-region address, -1 = ping-pong half
  int64_t bAddr = -1;
  bool first() const { return k == 0; }
  bool last() const { return k + 1 == problem->kChunks.size(); }
  bool writesStrip() const {
    return (loadA && aAddr >= 0) || (loadB && bAddr >= 0);
  }
};

constexpr uint8_t kIbufInit = 0, kIbufMain = 1, kIbufPost = 2;
constexpr uint8_t kResidualTag = 4;
uint8_t loadTag(int half) { return uint8_t(half); }
uint8_t storeTag(int half) { return uint8_t(2 + half); }

} // namespace

namespace accel::codegen::detail {
/// The instruction sequence: [LD psums x G], LD acts, [SPU scale],
/// (LD weights, MAC) x G, ST x G. Records are filled per step.
std::vector<Instruction> gemmSequence(const GemmTiling &t,
                                      const GemmEpilogue &epi, bool withInit,
                                      int groups, bool sparse, bool rowInit,
                                      InputBufferUse ib) {
  std::vector<Instruction> seq;
  auto add = [&](Opcode op, uint8_t sub, OperandRecord rec, int acc) {
    Instruction i;
    i.fields.op = op;
    i.fields.sub = sub;
    i.fields.accId = uint8_t(acc);
    i.operands = rec;
    seq.push_back(i);
    return &seq.back();
  };
  OperandRecord rec;
  rec.peRows = uint32_t(t.peRows);
  const bool biasMac = withInit && rowInit && ib.biasSlot >= 0;
  if (biasMac) {
    // The values as a one-column tile (PE p its peRows rows), then per
    // group acc += values x ones (depth 1).
    OperandRecord r = rec;
    r.rowStride = 1;
    add(Opcode::LD, uint8_t(LoadStream::Activations), r, 0)->fields.slot =
        uint8_t(ib.biasSlot);
    for (int g = 0; g < groups; ++g) {
      OperandRecord w; // one 1.0 broadcast along the row
      w.colStride = 0;
      add(Opcode::LD, uint8_t(LoadStream::Weights), w, 0);
      Instruction *mac = add(Opcode::MAC, 0, rec, g);
      mac->fields.slot = uint8_t(ib.biasSlot);
    }
  } else if (withInit) {
    for (int g = 0; g < groups; ++g) {
      OperandRecord r = rec;
      r.rowStride = rowInit ? 1 : int32_t(t.nc);
      r.colStride = rowInit ? 0 : 1;
      add(Opcode::LD, uint8_t(LoadStream::PartialSums), r, 0)->fields.slot =
          uint8_t(g);
    }
  }
  if (ib.loadActs) {
    OperandRecord r = rec;
    r.rowStride = int32_t(t.kc);
    add(Opcode::LD, uint8_t(LoadStream::Activations), r, 0)->fields.slot =
        ib.actsSlot;
  }
  if (ib.loadActs && epi.alpha != 1.0f) {
    OperandRecord r = rec;
    r.func = SfuFunc::Scale;
    r.imm = epi.alpha;
    Instruction *spu = add(Opcode::SPU, uint8_t(SpuType::Unary), r, 0);
    spu->fields.slot = ib.actsSlot;
    spu->fields.outSlot = ib.actsSlot;
  }
  for (int g = 0; g < groups; ++g) {
    OperandRecord r;
    r.rowStride = int32_t(t.nc);
    add(Opcode::LD,
        uint8_t(sparse ? LoadStream::SparseWeights : LoadStream::Weights), r,
        0);
    Instruction *mac = add(Opcode::MAC, 0, rec, g);
    mac->fields.slot = ib.actsSlot;
    mac->fields.sfuActive = epi.func != SfuFunc::None && epi.sfuChained;
    mac->fields.loadBalance = epi.loadBalance;
  }
  for (int g = 0; g < groups; ++g) {
    OperandRecord r = rec;
    r.rowStride = int32_t(t.nc);
    r.func = epi.func;
    r.imm = epi.funcImm;
    add(Opcode::ST, uint8_t(StoreSource::AccBuffer), r, g);
  }
  return seq;
}

/// Records of one step.
std::vector<OperandRecord> stepRecords(const std::vector<Instruction> &seq,
                                       const Regions &l, int64_t mc, int64_t kc,
                                       int64_t nc, int64_t groupCols,
                                       const std::vector<SparseGroup> *sparse,
                                       bool biasMac) {
  std::vector<OperandRecord> recs;
  int gLd = 0, gMac = 0, gSt = 0, gInit = 0;
  auto cols = [&](int g) {
    // A group past the tile's edge computes one dummy column inside the
    // C region that the store does not read (the validator wants >= 1).
    return uint32_t(
        std::max<int64_t>(1, std::min(groupCols, nc - g * groupCols)));
  };
  // The depth-1 bias MAC first: the values (LD acts), then per group the
  // row of ones (LD weights of the 1.0) and the MAC.
  size_t first = 0;
  if (biasMac) {
    const int groups =
        int(std::count_if(seq.begin(), seq.end(), [](const Instruction &i) {
          return i.fields.op == Opcode::ST;
        }));
    OperandRecord v = seq[0].operands;
    v.addr = l.init, v.rows = uint32_t(mc), v.cols = 1;
    recs.push_back(v);
    for (int g = 0; g < groups; ++g) {
      OperandRecord w = seq[size_t(1 + 2 * g)].operands;
      w.addr = l.ones, w.rows = 1, w.cols = cols(g);
      recs.push_back(w);
      OperandRecord m = seq[size_t(2 + 2 * g)].operands;
      m.rows = uint32_t(mc), m.cols = cols(g), m.depth = 1;
      recs.push_back(m);
    }
    first = size_t(1 + 2 * groups);
  }
  for (size_t i = first; i < seq.size(); ++i) {
    const Instruction &ins = seq[i];
    OperandRecord r = ins.operands;
    const InstrFields &f = ins.fields;
    switch (f.op) {
    case Opcode::LD:
      if (f.sub == uint8_t(LoadStream::PartialSums)) {
        int g = gInit++;
        // A row-broadcast init (column stride 0) is the same for every
        // group: one value per row.
        r.addr = l.init + uint32_t(r.colStride == 0 ? 0 : g * groupCols * 4);
        r.cols = cols(g);
        r.rows = uint32_t(mc);
      } else if (f.sub == uint8_t(LoadStream::Activations)) {
        r.addr = l.a, r.rows = uint32_t(mc), r.cols = uint32_t(kc);
      } else if (f.sub == uint8_t(LoadStream::SparseWeights)) {
        // rows = pairs of the group's list, depth = the dense K. Without
        // lists (CONFIG) one pair; EXECUTEs patch the real counts.
        int g = gLd++;
        SparseGroup sg = sparse ? sparse->at(size_t(g)) : SparseGroup{};
        r.addr = l.b + sg.offset;
        r.cols = cols(g);
        r.rows = sg.pairs;
        r.depth = uint32_t(kc);
      } else {
        int g = gLd++;
        r.addr = l.b + uint32_t(g * groupCols * 4);
        r.cols = cols(g);
        r.rows = uint32_t(kc);
      }
      break;
    case Opcode::SPU:
      r.rows = uint32_t(mc), r.cols = uint32_t(kc);
      break;
    case Opcode::MAC: {
      int g = gMac++;
      r.cols = cols(g);
      r.rows = uint32_t(mc);
      r.depth = uint32_t(kc);
      break;
    }
    case Opcode::ST: {
      int g = gSt++;
      r.addr = l.c + uint32_t(g * groupCols * 4);
      r.cols = cols(g);
      r.rows = uint32_t(mc);
      break;
    }
    }
    recs.push_back(r);
  }
  return recs;
}
} // namespace accel::codegen::detail

bool accel::codegen::gemmPostFits(const HardwareDesc &hw, const GemmTiling &t,
                                  bool withInit, const GemmEpilogue &epi) {
  if (epi.post.empty())
    return true;
  const int64_t budget =
      int64_t(hw.storageBytes) - fixedTileBytes(hw, t, withInit);
  return detail::postFits(hw, epi.post, t.peRows, t.nc) &&
         budget >= detail::residualTileBytes(hw, t, epi) &&
         hw.instructionBuffers > kIbufPost;
}

void accel::codegen::emitGemmLayer(StreamBuilder &sb,
                                   const std::vector<GemmTiles> &problems,
                                   const GemmTiling &t, const GemmEpilogue &epi,
                                   GemmDeal deal) {
  const HardwareDesc &hw = sb.hw();
  const int64_t mcMax = t.peRows * hw.pesPerCluster;
  const uint32_t nCl = sb.numClusters();
  bool anyInit = false;
  for (const GemmTiles &p : problems)
    anyInit |= bool(p.initBox);

  // Storage, from address 0 up: [half 0 | half 1 | (sharedC) C | init |
  // residual tile of a fused epilogue | strip A | strip B]: only the bytes
  // the layer uses are taken (docs/passes.md, "Compact kernel storage").
  const int64_t half = halfBytes(hw, t, anyInit);
  const int64_t resBytes = detail::residualTileBytes(hw, t, epi);
  const int64_t fixedBytes = fixedTileBytes(hw, t, anyInit);
  const uint32_t resAddr = uint32_t(fixedBytes);
  const int64_t stripBase = fixedBytes + resBytes;
  const int64_t stripBudget = int64_t(hw.storageBytes) - stripBase;
  assert(stripBudget >= 0 && "GEMM tiles do not fit the storage unit");
  assert(gemmPostFits(hw, t, anyInit, epi) && "epilogue steps do not fit");
  const int64_t groupCols = std::min(t.nc, accCols(hw, t.peRows));
  const int groups = int(std::min<int64_t>(4, ceilDiv(t.nc, groupCols)));
  assert(groups * groupCols >= t.nc && "N tile exceeds the accumulators");

  // Outer partitions of every problem; dealt over the clusters (or, when
  // there are fewer than clusters, their (outer, inner) pairs).
  struct Outer {
    const GemmTiles *p;
    size_t key;
    int64_t idx; // m partition index or N tile index
  };
  std::vector<Outer> outers;
  size_t innerCount = 0;
  for (const GemmTiles &p : problems) {
    int64_t nm = ceilDiv(p.m, mcMax), nn = int64_t(p.nTiles.size());
    int64_t no = t.outerM ? nm : nn;
    innerCount = std::max<size_t>(innerCount, size_t(t.outerM ? nn : nm));
    for (int64_t o = 0; o < no; ++o)
      outers.push_back({&p, outers.size(), o});
  }
  const bool dealPairs = outers.size() < nCl;

  std::vector<std::vector<Step>> perCluster(nCl);
  size_t pairIndex = 0;
  for (const Outer &o : outers) {
    const GemmTiles &p = *o.p;
    int64_t nm = ceilDiv(p.m, mcMax), nn = int64_t(p.nTiles.size());
    int64_t ni = t.outerM ? nn : nm;
    size_t nk = p.kChunks.size();
    // Strip sizes (chunk kk at kk * tile size).
    int64_t aStrip = t.keepStrips ? int64_t(nk) * mcMax * t.kc * 4 : 0;
    int64_t bStrip = t.keepStrips ? int64_t(nk) * t.kc * t.nc * 4 : 0;
    // Outer operand resident across the inner loop; the inner operand when
    // the inner loop has a single partition (and the problem has several
    // outer partitions).
    bool keepOuter =
        t.keepStrips && ni > 1 && (t.outerM ? aStrip : bStrip) <= stripBudget;
    int64_t left = stripBudget - (keepOuter ? (t.outerM ? aStrip : bStrip) : 0);
    int64_t no = t.outerM ? nm : nn;
    bool keepInner = t.keepStrips && ni == 1 && no > 1 && !dealPairs &&
                     (t.outerM ? bStrip : aStrip) <= left;
    bool keepA = t.outerM ? keepOuter : keepInner;
    bool keepB = t.outerM ? keepInner : keepOuter;
    for (int64_t i = 0; i < ni; ++i) {
      uint32_t cl =
          uint32_t(dealPairs                  ? pairIndex++ % nCl
                   : deal == GemmDeal::Blocks ? o.key * nCl / outers.size()
                                              : o.key % nCl);
      int64_t mi = t.outerM ? o.idx : i;
      size_t n = size_t(t.outerM ? i : o.idx);
      int64_t m0 = mi * mcMax;
      // First use of a resident strip on this cluster.
      bool firstUseA = true, firstUseB = true;
      for (const Step &prev : perCluster[cl])
        if (prev.problem == &p) {
          if (keepA && prev.m0 == m0)
            firstUseA = false;
          if (keepB && prev.n == n)
            firstUseB = false;
        }
      for (size_t k = 0; k < nk; ++k) {
        Step st{&p,
                o.key,
                m0,
                std::min(mcMax, p.m - m0),
                n,
                k,
                !keepA || firstUseA,
                !keepB || firstUseB};
        if (keepA)
          st.aAddr = stripBase + int64_t(k) * mcMax * t.kc * 4;
        if (keepB)
          st.bAddr =
              stripBase + (keepA ? aStrip : 0) + int64_t(k) * t.kc * t.nc * 4;
        perCluster[cl].push_back(st);
      }
    }
  }
  (void)innerCount;

  // Constant, sparse enough weight-queue tiles: LD sparse_weights.
  SparseLayerTiles sparseTiles;
  bool sparse = false;
  if (epi.sparse) {
    std::string why;
    sparse = encodeSparseTiles(hw, problems, t, groupCols, groups, *epi.sparse,
                               sparseTiles, why) &&
             sparseTiles.total > 0 &&
             double(sparseTiles.zeros) >=
                 epi.sparse->threshold * double(sparseTiles.total);
    if (sparse)
      placeSparseTiles(sparseTiles, *epi.sparse);
  }
  auto problemIndex = [&](const Step &st) {
    return size_t(st.problem - problems.data());
  };

  std::vector<Instruction> seqInit = gemmSequence(t, epi, true, groups, sparse);
  std::vector<Instruction> seqMain =
      gemmSequence(t, epi, false, groups, sparse);
  // The tiles of ping-pong half h.
  auto halfRegions = [&](int h) { return detail::halfRegions(hw, t, half, h); };
  // CONFIG carries full-tile operands (half 0); EXECUTEs patch the edges.
  for (auto *sq : {&seqInit, &seqMain}) {
    std::vector<OperandRecord> full =
        stepRecords(*sq, halfRegions(0), mcMax, t.kc, t.nc, groupCols);
    for (size_t i = 0; i < sq->size(); ++i)
      (*sq)[i].operands = full[i];
  }
  // With one shared C region every C store uses the same tag.
  auto cTag = [&](int h) { return storeTag(t.sharedC ? 0 : h); };
  auto regions = [&](const Step &st, int h) {
    Regions r = halfRegions(h);
    if (st.aAddr >= 0)
      r.a = uint32_t(st.aAddr);
    if (st.bAddr >= 0)
      r.b = uint32_t(st.bAddr);
    return r;
  };

  for (uint32_t cl = 0; cl < nCl; ++cl) {
    const std::vector<Step> &steps = perCluster[cl];
    if (steps.empty())
      continue;
    if (anyInit)
      sb.config(cl, kIbufInit, seqInit);
    sb.config(cl, kIbufMain, seqMain);
    std::vector<Instruction> seqPost;
    if (!epi.post.empty()) {
      seqPost = detail::postSequence(hw, epi.post, t.peRows, t.nc);
      std::vector<OperandRecord> full = detail::postRecords(
          seqPost, halfRegions(0).c, resAddr, mcMax, t.nc, t.nc);
      for (size_t i = 0; i < seqPost.size(); ++i)
        seqPost[i].operands = full[i];
      sb.config(cl, kIbufPost, seqPost);
    }

    InitRegions held;
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
    auto issueLoads = [&](size_t s) {
      const Step &st = steps[s];
      int h = int(s % 2);
      Regions l = regions(st, h);
      if (st.loadA && st.problem->aPieces)
        loadPieces(loadTag(h), st.problem->aPieces(st.m0, st.mc, st.k, t.kc),
                   l.a);
      else if (st.loadA)
        load(loadTag(h), st.problem->aBox(st.m0, st.mc, st.k), l.a, t.kc);
      if (st.loadB && sparse)
        load(loadTag(h),
             sparseTileBox(sparseTiles.at(problemIndex(st), st.k, st.n)), l.b,
             1);
      else if (st.loadB && st.problem->bPieces)
        loadPieces(loadTag(h), st.problem->bPieces(st.k, st.n, t.nc), l.b);
      else if (st.loadB)
        load(loadTag(h), st.problem->bBox(st.k, st.n), l.b, t.nc);
      if (st.first() && st.problem->initBox) {
        DramBox init = st.problem->initBox(st.m0, st.mc, st.n);
        if (held.needsLoad(l.init, init))
          load(loadTag(h), init, l.init, t.nc);
      }
    };

    issueLoads(0);
    for (size_t s = 0; s < steps.size(); ++s) {
      const Step &st = steps[s];
      int h = int(s % 2);
      // A strip region is rewritten for a new outer partition only once the
      // PE array has finished with the previous one; so is the shared init
      // region while this step reads it.
      auto readsInit = [](const Step &x) {
        return x.first() && bool(x.problem->initBox);
      };
      bool deferNext = false;
      if (s + 1 < steps.size()) {
        const Step &next = steps[s + 1];
        deferNext = (next.writesStrip() && next.outerKey != st.outerKey) ||
                    (t.sharedC && readsInit(next) && readsInit(st));
      }
      if (s + 1 < steps.size() && !deferNext) {
        sb.wait(cl, 0, /*pe=*/true); // EXECUTE s-1 used the other half
        issueLoads(s + 1);
      }
      uint8_t mask = uint8_t(1u << loadTag(h));
      if (st.last())
        mask |= uint8_t(1u << cTag(h)); // C region free again
      sb.wait(cl, mask, false);
      Regions l = regions(st, h);
      int64_t kc = st.problem->kChunks[st.k], nc = st.problem->nTiles[st.n];
      bool init = st.first() && bool(st.problem->initBox);
      const auto &seq = init ? seqInit : seqMain;
      const std::vector<SparseGroup> *lists =
          sparse ? &sparseTiles.at(problemIndex(st), st.k, st.n).groups
                 : nullptr;
      sb.execute(cl, init ? kIbufInit : kIbufMain,
                 stepRecords(seq, l, st.mc, kc, nc, groupCols, lists),
                 /*shift=*/st.last(), /*last=*/st.last());
      if (st.last() && !seqPost.empty()) {
        // The fused epilogue on the stored tile (EpilogueSteps.cpp); the
        // residual tile's load overlaps the MACs of the last step.
        DramBox cBox = st.problem->cBox(st.m0, st.mc, st.n);
        if (resBytes) {
          detail::loadResidual(sb, cl, kResidualTag, cBox, epi, resAddr, t.nc);
          sb.wait(cl, uint8_t(1u << kResidualTag), false);
        }
        sb.execute(cl, kIbufPost,
                   detail::postRecords(seqPost, l.c, resAddr, st.mc, nc, t.nc),
                   /*shift=*/false, /*last=*/true);
      }
      if (st.last()) {
        sb.wait(cl, 0, /*pe=*/true);
        sb.dmaStore(cl, cTag(h), l.c, t.nc,
                    st.problem->cBox(st.m0, st.mc, st.n));
      }
      if (deferNext) {
        sb.wait(cl, 0, /*pe=*/true);
        issueLoads(s + 1);
      }
    }
  }
  sb.endLayer();
}
