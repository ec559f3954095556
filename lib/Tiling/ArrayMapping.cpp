//===- ArrayMapping.cpp - Dataflow / array-partition cost model -----------===//
//
// Prices a (dataflow, array partition) pair the way the mapped GEMM kernel
// (lib/Codegen/MappedGemm.cpp) realises it on the simulator's rules
// (docs/mapping.md, "Cost model"): every cluster computes its slice with the
// per-cluster tile sizes; its DMAs (MemoryChannel::occupancyCycles: bytes /
// channel bandwidth + the latency window's share) queue on its memory channel
// together with those of the other clusters of that channel; EXECUTE time from
// the instruction costs; a K split adds the partial-sum combine layers.
//
//===----------------------------------------------------------------------===//
#include "accel/Tiling/ArrayMapping.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Tiling/GemmStorage.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

using namespace accel;
using namespace accel::tiling;

namespace {
int64_t cdivI(int64_t a, int64_t b) { return (a + b - 1) / b; }
double cdiv(double bytes, double bw) { return std::ceil(bytes / bw); }
} // namespace

const char *accel::tiling::dataflowName(Dataflow d) {
  switch (d) {
  case Dataflow::InputStationary:
    return "input_stationary";
  case Dataflow::OutputStationary:
    return "output_stationary";
  case Dataflow::WeightStationary:
    return "weight_stationary";
  }
  return "?";
}

bool accel::tiling::parseDataflow(const std::string &s, Dataflow &out) {
  for (Dataflow d : {Dataflow::InputStationary, Dataflow::OutputStationary,
                     Dataflow::WeightStationary})
    if (s == dataflowName(d)) {
      out = d;
      return true;
    }
  return false;
}

const char *accel::tiling::splitDimName(SplitDim d) {
  switch (d) {
  case SplitDim::M:
    return "M";
  case SplitDim::N:
    return "N";
  case SplitDim::K:
    return "K";
  case SplitDim::None:
    return "none";
  case SplitDim::B:
    return "B";
  }
  return "?";
}

bool accel::tiling::parseSplitDim(const std::string &s, SplitDim &out) {
  for (SplitDim d :
       {SplitDim::M, SplitDim::N, SplitDim::K, SplitDim::None, SplitDim::B})
    if (s == splitDimName(d)) {
      out = d;
      return true;
    }
  return false;
}

std::vector<ArrayPartition> accel::tiling::allPartitions() {
  std::vector<ArrayPartition> v;
  for (SplitDim r : {SplitDim::M, SplitDim::N, SplitDim::K})
    for (SplitDim c : {SplitDim::M, SplitDim::N, SplitDim::K})
      v.push_back(ArrayPartition{{r, c}});
  return v;
}

std::vector<ArrayPartition> accel::tiling::candidatePartitions() {
  std::vector<ArrayPartition> v = allPartitions();
  for (SplitDim r : {SplitDim::M, SplitDim::N, SplitDim::K, SplitDim::None})
    for (SplitDim c : {SplitDim::M, SplitDim::N, SplitDim::K, SplitDim::None})
      if (r == SplitDim::None || c == SplitDim::None)
        v.push_back(ArrayPartition{{r, c}});
  return v;
}

std::vector<ArrayPartition> accel::tiling::batchPartitions() {
  std::vector<ArrayPartition> v;
  for (SplitDim o : {SplitDim::B, SplitDim::M, SplitDim::N, SplitDim::None})
    v.push_back(ArrayPartition{{SplitDim::B, o}});
  for (SplitDim o : {SplitDim::M, SplitDim::N, SplitDim::None})
    v.push_back(ArrayPartition{{o, SplitDim::B}});
  return v;
}

bool accel::tiling::splitsBatch(const ArrayPartition &p) {
  return p.dims[0] == SplitDim::B || p.dims[1] == SplitDim::B;
}

std::string accel::tiling::partitionName(const ArrayPartition &p) {
  return std::string("[") + splitDimName(p.dims[0]) + "," +
         splitDimName(p.dims[1]) + "]";
}

std::string accel::tiling::choiceName(const MappingChoice &c) {
  return std::string(dataflowName(c.dataflow)) + " " + partitionName(c.array);
}

Range1 accel::tiling::splitRange(int64_t extent, int64_t parts, int64_t i) {
  Range1 r;
  if (parts <= 0 || i < 0 || i >= parts || extent <= 0)
    return r;
  int64_t base = extent / parts, extra = extent % parts;
  r.begin = i * base + std::min(i, extra);
  r.size = base + (i < extra ? 1 : 0);
  return r;
}

SplitFactors accel::tiling::splitFactors(const ArrayPartition &p,
                                         int64_t gridRows, int64_t gridCols) {
  SplitFactors f;
  auto scale = [&](SplitDim d, int64_t by) {
    if (d != SplitDim::None)
      (d == SplitDim::M   ? f.m
       : d == SplitDim::N ? f.n
       : d == SplitDim::B ? f.b
                          : f.k) *= by;
  };
  scale(p.dims[0], gridRows);
  scale(p.dims[1], gridCols);
  f.kRows = p.dims[0] == SplitDim::K ? gridRows : 1;
  f.kCols = p.dims[1] == SplitDim::K ? gridCols : 1;
  return f;
}

PartIndex accel::tiling::partIndex(const ArrayPartition &p, int64_t gridRows,
                                   int64_t gridCols, int64_t r, int64_t c) {
  (void)gridRows;
  PartIndex idx;
  int64_t unused = 0;
  auto ref = [&](SplitDim d) -> int64_t & {
    return d == SplitDim::M   ? idx.m
           : d == SplitDim::N ? idx.n
           : d == SplitDim::K ? idx.k
           : d == SplitDim::B ? idx.b
                              : unused;
  };
  if (p.dims[0] == p.dims[1] && p.dims[0] != SplitDim::None) {
    ref(p.dims[0]) = r * gridCols + c;
  } else {
    ref(p.dims[0]) = r;
    ref(p.dims[1]) = c;
  }
  SplitFactors f = splitFactors(p, gridRows, gridCols);
  idx.kRow = f.kRows > 1 ? r : 0;
  idx.kCol = f.kCols > 1 ? c : 0;
  return idx;
}

ClusterSlice accel::tiling::clusterSlice(const ArrayPartition &p,
                                         int64_t gridRows, int64_t gridCols,
                                         int64_t r, int64_t c, int64_t m,
                                         int64_t n, int64_t k, int64_t count) {
  SplitFactors f = splitFactors(p, gridRows, gridCols);
  ClusterSlice s;
  // A dimension that does not split leaves all but its first clusters idle.
  if ((p.dims[0] == SplitDim::None && r > 0) ||
      (p.dims[1] == SplitDim::None && c > 0))
    return s;
  s.part = partIndex(p, gridRows, gridCols, r, c);
  s.m = splitRange(m, f.m, s.part.m);
  s.n = splitRange(n, f.n, s.part.n);
  s.k = splitRange(k, f.k, s.part.k);
  s.b = splitRange(std::max<int64_t>(1, count), f.b, s.part.b);
  return s;
}

bool accel::tiling::validRanges(const ArrayPartition &p, int64_t gridRows,
                                int64_t gridCols, int64_t m, int64_t n,
                                int64_t k, const std::vector<int64_t> &ranges) {
  const SplitDim d = p.dims[0];
  if (d != p.dims[1] || d == SplitDim::None || d == SplitDim::B ||
      int64_t(ranges.size()) != gridRows * gridCols + 1)
    return false;
  const int64_t extent = d == SplitDim::M ? m : d == SplitDim::N ? n : k;
  if (ranges.front() != 0 || ranges.back() != extent)
    return false;
  return std::is_sorted(ranges.begin(), ranges.end());
}

std::vector<ClusterSlice> accel::tiling::clusterSlices(
    const ArrayPartition &p, int64_t gridRows, int64_t gridCols, int64_t m,
    int64_t n, int64_t k, const std::vector<int64_t> &ranges, int64_t count) {
  const bool explicitRanges =
      validRanges(p, gridRows, gridCols, m, n, k, ranges);
  std::vector<ClusterSlice> v;
  for (int64_t r = 0; r < gridRows; ++r)
    for (int64_t c = 0; c < gridCols; ++c) {
      ClusterSlice s =
          clusterSlice(p, gridRows, gridCols, r, c, m, n, k, count);
      if (explicitRanges) {
        const size_t i = v.size();
        Range1 range{ranges[i], ranges[i + 1] - ranges[i]};
        (p.dims[0] == SplitDim::M   ? s.m
         : p.dims[0] == SplitDim::N ? s.n
                                    : s.k) = range;
      }
      v.push_back(s);
    }
  return v;
}

//===----------------------------------------------------------------------===//
// Cost model
//===----------------------------------------------------------------------===//

namespace {
/// Extents of the tiles of [0, extent) in pieces of `tile`: (size, count).
std::vector<std::pair<int64_t, int64_t>> tileSizes(int64_t extent,
                                                   int64_t tile) {
  std::vector<std::pair<int64_t, int64_t>> v;
  if (extent <= 0)
    return v;
  int64_t full = extent / tile, rem = extent % tile;
  if (full)
    v.push_back({tile, full});
  if (rem)
    v.push_back({rem, 1});
  return v;
}

enum class Stationary { A, B, C };

struct ClusterCost {
  double compute = 0, channel = 0, head = 0, tail = 0, lastExec = 0;
  /// local_copy time of the input bands' tiles (serial per cluster).
  double copies = 0;
  /// The part of `channel` that stores the output; M tiles of the slice.
  double store = 0;
  int64_t mTiles = 0;
  uint64_t bytes = 0;
  int64_t ibufs = 0;
};

Stationary stationaryOf(Dataflow d, bool activationIsA) {
  if (d == Dataflow::InputStationary)
    return activationIsA ? Stationary::A : Stationary::B;
  if (d == Dataflow::WeightStationary)
    return activationIsA ? Stationary::B : Stationary::A;
  return Stationary::C;
}

/// One cluster's slice (ms x ns x ks, `count` instances) with tiles `t`;
/// `bands`: a convolution's image tiles from input bands where they fit
/// and move less (clusterCost chooses).
ClusterCost clusterCostWith(const MappingProblem &p, const HardwareDesc &hw,
                            uint32_t channel, Stationary st, int64_t ms,
                            int64_t ns, int64_t ks, bool init, bool func,
                            const SliceTiles &t, bool bands) {
  ClusterCost cc;
  const int64_t pes = std::max<uint32_t>(1, hw.pesPerCluster);
  const int64_t count = std::max<int64_t>(1, p.gemm.count);
  int64_t peRows = cdivI(std::min(std::max<int64_t>(1, t.tileM), ms), pes);
  int64_t nc = std::min(std::max<int64_t>(1, t.tileN), ns);
  int64_t kc = std::min(std::max<int64_t>(1, t.tileK), ks);
  // Shrunk like codegen::fitMappedTiling when the halves need an init
  // region (bias, or reloaded partial sums) and do not fit. Output
  // stationary tiles with several K chunks keep one shared C (and init)
  // region beside the halves (as LowerMapped decides).
  const bool initRegion = init || st != Stationary::C;
  const bool shared = p.sharedC && st == Stationary::C && ks > kc;
  // The tiles are fitted with a whole init tile; a per-row init region
  // (rowInit) only leaves the strips more room (the lowering's rule,
  // Lowering::sliceTiling).
  const bool rowInit = p.rowInit && st == Stationary::C;
  while (gemmStorage(peRows * pes, kc, nc, initRegion, shared).total() >
         int64_t(hw.storageBytes)) {
    if (nc > 1 && nc >= kc)
      nc = std::max<int64_t>(1, nc / 2);
    else if (kc > 1)
      kc = std::max<int64_t>(1, kc / 2);
    else if (peRows > 1)
      peRows = std::max<int64_t>(1, peRows / 2);
    else
      break;
  }
  const int64_t mc = peRows * pes;
  const int64_t nm = cdivI(ms, mc), nn = cdivI(ns, nc), nk = cdivI(ks, kc);
  const MemoryChannel ch =
      hw.channels.empty() ? MemoryChannel{} : hw.channels[channel];
  auto dma = [&](double bytes, double times) {
    cc.bytes += uint64_t(bytes * times);
    return times * double(ch.occupancyCycles(bytes));
  };
  // Storage: two slots of a resident operand beside two ping-pong halves
  // (same rule as the kernel).
  const bool reload = st != Stationary::C && nk > 1;
  int64_t stripBudget =
      int64_t(hw.storageBytes) -
      gemmStorage(mc, kc, nc, init || reload, shared, rowInit).total();
  // Band slots (conv-bands) below the halves: two (the next band loads
  // while the current one serves), one (each band load waited for), or
  // none fit (the kernel's rule, codegen::emitMappedGemmLayer).
  int bandSlots = 0;
  if (bands && p.conv.Cg > 0 && st != Stationary::A) {
    BandedLoads bl = bandedImageLoads(
        p.conv, nc, kc,
        hw.channels.empty() ? 0 : hw.channels[channel].latencyCycles,
        hw.channels.empty() ? 1 : hw.channels[channel].bytesPerCycle);
    const int64_t slot = (bl.bandBytes + 63) / 64 * 64;
    bandSlots = !bl.on                    ? 0
                : 2 * slot <= stripBudget ? 2
                : slot <= stripBudget     ? 1
                                          : 0;
    stripBudget -= bandSlots * slot;
  }
  const int64_t accCols =
      std::max<int64_t>(1, int64_t(hw.accBufferBytes / 4) / peRows);

  // EXECUTE cost of an (m x n x k) step.
  auto exec = [&](int64_t m, int64_t n, int64_t k, bool withInit, bool last) {
    double e = cdiv(double(m * k) * 4, hw.actLoadBytesPerCycle);
    int64_t rmax = std::min(peRows, m);
    int64_t gc = std::min(nc, accCols);
    for (int64_t c0 = 0; c0 < n; c0 += gc) {
      int64_t cols = std::min(gc, n - c0);
      e += cdiv(double(k * cols) * 4, hw.weightLoadBytesPerCycle);
      e += cdiv(double(rmax * k * cols), hw.macLanes) + hw.macPipelineLatency;
      // The init as LD psums of the tile. A per-row bias is added by a
      // depth-1 MAC instead (codegen gemmSequence: about a quarter of
      // this for a 168 x 97 tile), which the model does not price: priced,
      // the slice tiles it picks ran MobileNetV3-Large 629.8 -> 634.5 k
      // cycles (docs/mapping.md, "Bias as one value per row").
      if (withInit)
        e += cdiv(double(m * cols) * 4, hw.actLoadBytesPerCycle);
      if (last)
        e += cdiv(double(m * cols) * 4, hw.storageBytesPerCycle);
    }
    return e;
  };

  double chan = 0;
  double comp = 0;
  double copies = 0;
  for (auto [m, cm] : tileSizes(ms, mc))
    for (auto [n, cn] : tileSizes(ns, nc))
      for (auto [k, ck] : tileSizes(ks, kc)) {
        double steps = double(count * cm * cn * ck);
        // Per-step loads. A tile m x k, B tile k x n, C tile m x n.
        double aTimes = steps, bTimes = steps;
        double perK = double(ck) / double(nk); // share of this k size
        switch (st) {
        case Stationary::A: // loops m, k, n: one A tile per (m, k)
          if ((count * nm * nk > 1 ? 2 : 1) * mc * kc * 4 <= stripBudget)
            aTimes = double(count * cm * ck);
          break;
        case Stationary::B: // loops n, k, m: one B tile per (n, k)
          if ((count * nn * nk > 1 ? 2 : 1) * kc * nc * 4 <= stripBudget)
            bTimes = double(count * cn * ck);
          break;
        case Stationary::C: {
          // Outer operand strip resident when the inner loop has several
          // partitions; else the inner operand's strip.
          bool outerM = p.outerM;
          int64_t inner = outerM ? nn : nm;
          int64_t aStrip = nk * mc * kc * 4, bStrip = nk * kc * nc * 4;
          // Two slots, one when there is a single group (the inner strip
          // of one instance).
          int64_t innerSlots = count > 1 ? 2 : 1;
          if (inner > 1) {
            int64_t outerSlots = count * (outerM ? nm : nn) > 1 ? 2 : 1;
            if (outerM && outerSlots * aStrip <= stripBudget)
              aTimes = double(count * cm * ck);
            if (!outerM && outerSlots * bStrip <= stripBudget)
              bTimes = double(count * cn * ck);
          } else {
            if (outerM && nm > 1 && innerSlots * bStrip <= stripBudget)
              bTimes = double(count * cn * ck);
            if (!outerM && nn > 1 && innerSlots * aStrip <= stripBudget)
              aTimes = double(count * cm * ck);
          }
          break;
        }
        }
        chan += dma(double(m * k) * 4, aTimes);
        // Input bands (conv-bands): every B tile is a local copy from a
        // band; the bands' DMAs replace the tiles' (the kernel's rule).
        BandedLoads bl;
        if (bandSlots > 0)
          bl = bandedImageLoads(p.conv, n, k, ch.latencyCycles,
                                ch.bytesPerCycle);
        if (bl.on) {
          const double bandTime = bl.dmas * ch.latencyCycles +
                                  bl.bytes / std::max(1e-9, ch.bytesPerCycle);
          cc.bytes += uint64_t(bl.bytes * bTimes);
          chan += bTimes * bandTime;
          copies += bTimes * cdiv(double(k * n) * 4, hw.storageBytesPerCycle);
          // One slot: every band load stalls the steps until it arrives.
          if (bandSlots == 1)
            comp += bTimes * bandTime;
        } else {
          chan += dma(double(k * n) * 4, bTimes);
        }
        double cTiles = double(count * cm * cn);
        if (st == Stationary::C) {
          // One store per output tile, the init on the first chunk.
          double s = dma(double(m * n) * 4, cTiles * perK);
          cc.store += s;
          chan += s;
          // A per-row bias loads its m values (rowInit), else the m x n
          // broadcast box.
          if (init)
            chan += dma(double(rowInit ? m : m * n) * 4, cTiles * perK);
          double plain = exec(m, n, k, false, false);
          comp += steps * plain;
          if (init)
            comp += cTiles * perK * (exec(m, n, k, true, false) - plain);
          comp += cTiles * perK * (exec(m, n, k, false, true) - plain);
        } else {
          // Every step stores; all but the first chunk reload.
          double s = dma(double(m * n) * 4, steps);
          cc.store += s;
          chan += s;
          double reloads = steps - cTiles * perK;
          chan += dma(double(m * n) * 4, reloads + (init ? cTiles * perK : 0));
          comp += (reloads + (init ? cTiles * perK : 0)) *
                      exec(m, n, k, true, true) +
                  (steps - reloads - (init ? cTiles * perK : 0)) *
                      exec(m, n, k, false, true);
        }
        cc.lastExec = exec(m, n, k, false, true);
      }
  cc.compute = comp;
  cc.channel = chan;
  cc.copies = copies;
  cc.mTiles = nm;
  // Instruction-buffer variants (codegen::emitMappedGemmLayer): one per
  // (initialises, fused function on) pair its steps use.
  std::set<std::pair<bool, bool>> variants;
  for (int64_t k = 0; k < nk; ++k) {
    bool last = k + 1 == nk;
    if (st == Stationary::C)
      variants.insert({k == 0 && init, func});
    else
      variants.insert({k == 0 ? init : true, func && last});
  }
  cc.ibufs = int64_t(variants.size());
  // First loads (exposed) and the last store.
  cc.head = double(ch.completionCycles(double(mc * kc + kc * nc) * 4));
  cc.tail = double(ch.completionCycles(double(mc * nc) * 4));
  return cc;
}

} // namespace

BandedLoads
accel::tiling::bandedImageLoads(const MappingProblem::ConvWindowShape &c,
                                int64_t n, int64_t k, double latency,
                                double bytesPerCycle) {
  BandedLoads b;
  // A 1 x 1 kernel has nothing to share between kernel positions.
  if (c.Cg <= 0 || n <= 0 || k <= 0 || c.KH * c.KW == 1)
    return b;
  // The pixel box of an N tile (LowerMapped's convNTiles): a piece of one
  // output row, or whole rows.
  const int64_t ohc = n < c.OW ? 1 : n / c.OW, owc = n < c.OW ? n : c.OW;
  const int64_t rows = (ohc - 1) * c.sh + (c.KH - 1) * c.dh + 1;
  const int64_t cols = (owc - 1) * c.sw + (c.KW - 1) * c.dw + 1;
  // Chunks of one position and a channel range (k < 2 Cg), or of whole
  // positions (all channels): the chunks one band serves.
  const int64_t chans = k < 2 * c.Cg ? std::min(k, c.Cg) : c.Cg;
  const int64_t positions = k < 2 * c.Cg ? 1 : std::max<int64_t>(1, k / c.Cg);
  const double perBand = std::max(1.0, double(c.KH * c.KW) / double(positions));
  b.bandBytes = chans * rows * cols * 4;
  b.bytes = double(b.bandBytes) / perBand;
  b.dmas = 1.0 / perBand;
  const double bw = std::max(1e-9, bytesPerCycle);
  // The tile the kernel loads instead (whole rows when n >= OW).
  const double tile = double(k * ohc * owc * 4);
  b.on = b.dmas * latency + b.bytes / bw < latency + tile / bw;
  return b;
}

namespace {
/// The cluster's time on its own: its compute path or its share of the
/// channel (`sharers` clusters with the same traffic queue on it).
double clusterTime(const ClusterCost &c, unsigned sharers) {
  return std::max({c.head + c.compute + c.tail, c.head + c.copies + c.tail,
                   double(std::max(1u, sharers)) * c.channel + c.lastExec});
}

/// clusterCostWith with input bands when that is faster for the cluster
/// (`usedBands` says which), else without.
ClusterCost clusterCost(const MappingProblem &p, const HardwareDesc &hw,
                        uint32_t channel, Stationary st, int64_t ms, int64_t ns,
                        int64_t ks, bool init, bool func, const SliceTiles &t,
                        unsigned sharers, bool *usedBands = nullptr) {
  ClusterCost plain = clusterCostWith(p, hw, channel, st, ms, ns, ks, init,
                                      func, t, /*bands=*/false);
  if (usedBands)
    *usedBands = false;
  if (p.conv.Cg <= 0 || st == Stationary::A)
    return plain;
  ClusterCost banded = clusterCostWith(p, hw, channel, st, ms, ns, ks, init,
                                       func, t, /*bands=*/true);
  // Faster, or as fast with clearly less channel time (the model's
  // channel time is a lower bound: DMA-bound layers meet queueing it does
  // not see).
  const double tb = clusterTime(banded, sharers),
               tp = clusterTime(plain, sharers);
  if (!(tb < tp || (tb <= tp && banded.channel < 0.8 * plain.channel)))
    return plain;
  if (usedBands)
    *usedBands = true;
  return banded;
}

/// The PE buffers hold a step of these tiles (the kernel's limits,
/// codegen::gemmTilingFromDecision): four accumulator groups of
/// accBufferBytes / 4 / peRows columns, peRows x kc activations in the
/// input buffer, kc x (one group's columns) weights in the weight queue.
bool fitsPeBuffers(const HardwareDesc &hw, int64_t peRows, int64_t nc,
                   int64_t kc) {
  int64_t accCols =
      std::max<int64_t>(1, int64_t(hw.accBufferBytes / 4) / peRows);
  return nc <= 4 * accCols && peRows * kc <= int64_t(hw.inputBufferBytes / 4) &&
         kc * std::min(nc, accCols) <= int64_t(hw.weightQueueBytes / 4);
}

/// Cycles of one elementwise add layer over `elems` elements (two inputs,
/// one output, tiles dealt over all clusters).
double addLayerCycles(const HardwareDesc &hw, double elems) {
  const double nCl = std::max<uint32_t>(1, hw.numClusters());
  const double nch = std::max<size_t>(1, hw.channels.size());
  const MemoryChannel ch =
      hw.channels.empty() ? MemoryChannel{} : hw.channels[0];
  // Tile: three operands in one storage half.
  double tileElems = std::max(1.0, double(hw.storageBytes) / 2 / 4 / 3);
  double tiles = std::ceil(elems / tileElems);
  double perChannelTiles = std::ceil(tiles / nch);
  double bytesPerTile = std::min(elems, tileElems) * 4;
  double chan = perChannelTiles * 3 * double(ch.occupancyCycles(bytesPerTile));
  double sfu = std::ceil(tiles / nCl) *
               std::ceil(std::min(elems, tileElems) /
                         (double(hw.sfuLanes) * hw.pesPerCluster));
  return std::max(chan, sfu) + hw.barrierLatency + ch.latencyCycles;
}
} // namespace

bool accel::tiling::convBandsPay(const MappingProblem &p,
                                 const HardwareDesc &hw, Dataflow dataflow,
                                 int64_t ms, int64_t ns, int64_t ks, bool init,
                                 unsigned sharers, uint32_t channel,
                                 const SliceTiles &t) {
  bool used = false;
  clusterCost(p, hw, channel, stationaryOf(dataflow, p.activationIsA), ms, ns,
              ks, init, false, t, sharers, &used);
  return used;
}

SliceTiles accel::tiling::chooseSliceTiles(const MappingProblem &p,
                                           const HardwareDesc &hw,
                                           Dataflow dataflow, int64_t ms,
                                           int64_t ns, int64_t ks, bool init,
                                           unsigned sharers, uint32_t channel) {
  const int64_t pes = std::max<uint32_t>(1, hw.pesPerCluster);
  const SliceTiles layer{p.tileM, p.tileN, p.tileK};
  if (ms <= 0 || ns <= 0 || ks <= 0)
    return layer;
  const Stationary st = stationaryOf(dataflow, p.activationIsA);
  struct Priced {
    SliceTiles t;
    double cycles = 0;
    uint64_t bytes = 0;
  };
  auto price = [&](const SliceTiles &t) {
    ClusterCost c =
        clusterCost(p, hw, channel, st, ms, ns, ks, init, false, t, sharers);
    return Priced{t, clusterTime(c, sharers), c.bytes};
  };
  // Rows in whole PE blocks, at most the slice (rounded up to the PEs).
  const int64_t mMax = cdivI(ms, pes) * pes;
  const Priced layerPrice = price(layer);
  std::vector<Priced> all{layerPrice};
  // The search for cycles: the layer's tiles with M and N up to 4x and K
  // halved; kept unless the gain is clear (the model is not exact).
  Priced faster = layerPrice;
  auto consider = [&](int64_t fm, int64_t fn, int64_t dk) {
    SliceTiles t;
    t.tileM =
        std::min(mMax, cdivI(std::max<int64_t>(1, p.tileM) * fm, pes) * pes);
    t.tileN = std::min(ns, std::max<int64_t>(1, p.tileN) * fn);
    t.tileK = std::max<int64_t>(1, std::min(ks, p.tileK) / dk);
    if (!fitsPeBuffers(hw, cdivI(t.tileM, pes), t.tileN, t.tileK) ||
        std::any_of(all.begin(), all.end(),
                    [&](const Priced &q) { return q.t == t; }))
      return;
    all.push_back(price(t));
  };
  for (int64_t fm : {1, 2, 4})
    for (int64_t fn : {1, 2, 4})
      for (int64_t dk : {1, 2})
        consider(fm, fn, dk);
  for (const Priced &q : all)
    if (q.cycles < faster.cycles)
      faster = q;
  const Priced chosen =
      faster.cycles < 0.97 * layerPrice.cycles ? faster : layerPrice;
  if (p.activationIsA) // a matmul / gemm
    return chosen.t;
  // Then, for a convolution, for DRAM bytes: wider N tiles (up to 32x) and
  // shorter K chunks (down to 1/16) too; the tiles with the fewest bytes
  // that the model prices at most 2 % slower than the choice, when they
  // move clearly fewer (4/5). The model's cycles are within a few per cent of
  // the simulator's; its bytes are exact, and DRAM bytes are time on a busier
  // channel and energy (docs/mapping.md, "Tile sizes inside a slice").
  for (int64_t fm : {1, 2, 4})
    for (int64_t fn : {1, 2, 4, 8, 16, 32})
      for (int64_t dk : {1, 2, 4, 8, 16})
        consider(fm, fn, dk);
  const Priced *lighter = &chosen;
  for (const Priced &q : all)
    if (q.cycles <= 1.02 * chosen.cycles && q.bytes < lighter->bytes)
      lighter = &q;
  return double(lighter->bytes) < 0.8 * double(chosen.bytes) ? lighter->t
                                                             : chosen.t;
}

unsigned accel::tiling::channelSharers(const HardwareDesc &hw,
                                       const std::vector<ClusterSlice> &slices,
                                       uint32_t cluster) {
  if (hw.channels.empty())
    return 1;
  unsigned n = 0;
  uint32_t ch = hw.channelOf(cluster);
  for (uint32_t i = 0; i < slices.size(); ++i)
    n += !slices[i].empty() && hw.channelOf(i) == ch;
  return std::max(1u, n);
}

/// DRAM placement (dram-placement=pieces) cuts a buffer only where no DMA
/// box crosses. When the clusters cut N and each writes its output columns
/// with one M tile (all M rows), their boxes interleave in every output
/// row: the output is one piece, on one channel (the least loaded), and
/// every cluster's stores go there instead of to its local channel
/// (measured: res2_1x1_64-256, data split, 4.0M / 0.8M bytes per channel).
static void
moveInterleavedStores(const MappingProblem &p, const HardwareDesc &hw,
                      const std::vector<ClusterSlice> &slices,
                      std::vector<std::pair<uint32_t, ClusterCost>> &costs,
                      std::map<uint32_t, double> &channelTotal) {
  if (hw.channels.size() < 2 || std::max<int64_t>(1, p.gemm.count) > 1 ||
      costs.size() < 2 || p.outputReadByRows)
    return;
  const ClusterSlice *first = nullptr;
  bool nSplit = false;
  for (const ClusterSlice &s : slices) {
    if (s.empty())
      continue;
    if (!first) {
      first = &s;
      continue;
    }
    if (s.m.begin != first->m.begin || s.m.size != first->m.size ||
        s.k.size != first->k.size || s.k.begin != first->k.begin)
      return;
    nSplit |= s.n.begin != first->n.begin;
  }
  if (!nSplit)
    return;
  for (auto &[chn, w] : costs)
    if (w.mTiles != 1)
      return;
  double stores = 0;
  for (auto &[chn, w] : costs) {
    channelTotal[chn] -= w.store;
    stores += w.store;
  }
  uint32_t target = 0;
  for (uint32_t c = 1; c < hw.channels.size(); ++c)
    if (channelTotal[c] < channelTotal[target])
      target = c;
  channelTotal[target] += stores;
}

MappingCost accel::tiling::mappingCost(const MappingProblem &p,
                                       const HardwareDesc &hw,
                                       const MappingChoice &c,
                                       const std::vector<int64_t> &ranges) {
  MappingCost out;
  out.choice = c;
  const int64_t R = hw.rows, C = hw.cols;
  const Stationary st = stationaryOf(c.dataflow, p.activationIsA);
  SplitFactors f = splitFactors(c.array, R, C);
  const bool kSplit = f.k > 1;
  std::map<uint32_t, double> channelTotal;
  std::vector<std::pair<uint32_t, ClusterCost>> costs;
  std::map<
      std::tuple<int64_t, int64_t, int64_t, int64_t, bool, unsigned, uint32_t>,
      SliceTiles>
      chosen;
  const std::vector<ClusterSlice> slices =
      clusterSlices(c.array, R, C, p.gemm.m, p.gemm.n, p.gemm.k, ranges,
                    std::max<int64_t>(1, p.gemm.count));
  for (uint32_t cl = 0; cl < slices.size(); ++cl) {
    const ClusterSlice &s = slices[cl];
    if (s.empty())
      continue;
    uint32_t chn = hw.channels.empty() ? 0 : hw.channelOf(cl);
    bool init = p.withInit && s.part.k == 0;
    // The cluster's batch instances (all of them unless the batch splits).
    MappingProblem sp = p;
    sp.gemm.count = s.b.size;
    // Balanced partitions give most clusters the same slice: choose once.
    const unsigned sharers = channelSharers(hw, slices, cl);
    auto key = std::make_tuple(s.m.size, s.n.size, s.k.size, s.b.size, init,
                               sharers, chn);
    auto it = chosen.find(key);
    if (it == chosen.end())
      it = chosen
               .emplace(key,
                        chooseSliceTiles(sp, hw, c.dataflow, s.m.size, s.n.size,
                                         s.k.size, init, sharers, chn))
               .first;
    const SliceTiles t = it->second;
    ClusterCost w = clusterCost(sp, hw, chn, st, s.m.size, s.n.size, s.k.size,
                                init, p.fusedFunc && !kSplit, t, sharers);
    out.instructionBuffers = std::max(out.instructionBuffers, w.ibufs);
    channelTotal[chn] += w.channel;
    out.dmaBytes += w.bytes;
    ++out.activeClusters;
    costs.push_back({chn, w});
  }
  // Priced for split decisions (explicit ranges, split-strategy's
  // parallel=best) only: select-mapping's free search keeps its choices.
  if (!ranges.empty())
    moveInterleavedStores(p, hw, slices, costs, channelTotal);
  double layer = 0;
  for (auto &[chn, w] : costs) {
    double computePath = w.head + std::max(w.compute, w.copies) + w.tail;
    double channelPath = channelTotal[chn] + w.lastExec;
    layer = std::max(layer, std::max(computePath, channelPath));
    out.computeCycles = std::max(out.computeCycles, w.compute);
    out.channelCycles = std::max(out.channelCycles, channelTotal[chn]);
  }
  layer += hw.barrierLatency;
  if (kSplit) {
    double elems =
        double(p.gemm.m * p.gemm.n * std::max<int64_t>(1, p.gemm.count));
    // Across each row (all rows in one layer), then across rows.
    for (int64_t i = 1; i < f.kCols; ++i)
      out.combineCycles += addLayerCycles(hw, elems * double(f.kRows));
    for (int64_t i = 1; i < f.kRows; ++i)
      out.combineCycles += addLayerCycles(hw, elems);
  }
  out.cycles = layer + out.combineCycles;
  if (out.instructionBuffers > int64_t(hw.instructionBuffers)) {
    out.feasible = false;
    out.cycles = std::numeric_limits<double>::infinity();
  }
  return out;
}

std::vector<MappingCost>
accel::tiling::allMappingCosts(const MappingProblem &p,
                               const HardwareDesc &hw) {
  std::vector<MappingCost> v;
  for (Dataflow d : {Dataflow::InputStationary, Dataflow::OutputStationary,
                     Dataflow::WeightStationary})
    for (const ArrayPartition &a : allPartitions())
      v.push_back(mappingCost(p, hw, MappingChoice{d, a}));
  return v;
}

MappingCost accel::tiling::selectMapping(const MappingProblem &p,
                                         const HardwareDesc &hw,
                                         const Dataflow *forceDataflow,
                                         const ArrayPartition *forcePartition,
                                         const std::vector<int64_t> &ranges) {
  MappingCost best;
  bool have = false;
  for (Dataflow d : {Dataflow::OutputStationary, Dataflow::InputStationary,
                     Dataflow::WeightStationary}) {
    if (forceDataflow && *forceDataflow != d)
      continue;
    std::vector<ArrayPartition> parts = candidatePartitions();
    if (p.batchSplit && p.gemm.count > 1) {
      std::vector<ArrayPartition> b = batchPartitions();
      parts.insert(parts.end(), b.begin(), b.end());
    }
    if (forcePartition && splitsBatch(*forcePartition) &&
        std::find(parts.begin(), parts.end(), *forcePartition) == parts.end())
      parts.push_back(*forcePartition); // priced; the lowering may refuse it
    for (const ArrayPartition &a : parts) {
      if (forcePartition && !(*forcePartition == a))
        continue;
      MappingCost c =
          mappingCost(p, hw, MappingChoice{d, a},
                      forcePartition ? ranges : std::vector<int64_t>{});
      if (!have || (c.feasible && (!best.feasible || c.cycles < best.cycles))) {
        best = c;
        have = true;
      }
    }
  }
  return best;
}
