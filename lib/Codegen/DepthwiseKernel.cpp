//===- DepthwiseKernel.cpp - Depthwise convolution, SW queue mode ---------===//
//
// Weights and activations swapped (docs/isa.md, queue mode SW; the layout is
// described in docs/depthwise.md):
//
//   * storage (per tile, one of two ping-pong halves): the band of one input
//     plane expanded by kernel column, X'[hh*KW + kw][j] =
//     x[oh0*sh + hh][(ow0 + j)*sw + kw*dw], row pitch owc; the tap region
//     Z = [(G-1)*a zeros, taps (K = ((KH-1)*dh + 1)*KW, dilation gaps zero),
//     (G-1)*a zeros] with a = sh*KW; the bias; the output band.
//   * input buffer of PE q (q < G): Z from (G-1-q)*a, i.e. q*a zeros, the
//     taps, then zeros (one LD acts of G rows with row stride -a).
//   * weight queue (broadcast): the Kbig = (G-1)*a + K rows of X' that the G
//     output rows oh..oh+G-1 need; PE q's MAC (1 x Kbig times Kbig x owc)
//     meets exactly the rows of output row oh+q.
//   * the next group is the same window moved forward by G*a rows: in SW
//     mode the queue keeps Kbig - G*a rows and fetches G*a; the scalar unit
//     (pipeline 2) advances LD weights and ST acc, so a group's EXECUTE
//     sends no patches.
//
//===----------------------------------------------------------------------===//
#include "EpilogueSteps.h"
#include "accel/Codegen/Depthwise.h"
#include <algorithm>
#include <array>
#include <optional>

using namespace accel;
using namespace accel::codegen;

namespace {

/// Floats of one ping-pong half: a sixth of the storage unit (both halves
/// a third). Larger bands save little in these mostly DMA-bound layers,
/// and the storage they leave free keeps the maps around them on chip
/// (on-chip residency). Measured on the zoo (docs/depthwise.md, "Storage
/// halves"): halves of half the unit ran MobileNetV3-Large in 624.6 k
/// cycles at DRAM / compulsory 2.10, halves of a sixth in 609.9 k at 1.91;
/// halves of an eighth lost on MobileNetV2 (+4.5 % cycles).
int64_t dwHalfFloats(const HardwareDesc &hw) {
  return int64_t(hw.storageBytes / 24);
}

/// Storage addresses of one half.
struct HalfLayout {
  uint32_t x, z, bias, out, raw;
  /// laneRows > 1: the column-packed queue rows, per plane.
  uint32_t xf;
};

/// Input columns of a band row for `owc` output columns (the raw band).
int64_t rawColumns(const DepthwiseLayer &l, int64_t owc) {
  return (owc - 1) * l.sw + (l.KW - 1) * l.dw + 1;
}

/// Output rows of a band that fit a storage half of `halfF` floats with
/// `owc` columns (0 = not even one).
int64_t bandRowsFor(const DepthwiseLayer &l, int64_t owc, int64_t zF,
                    int64_t halfF) {
  const int64_t E = (l.KH - 1) * l.dh + 1;
  // Per input row of the band: the expanded rows and the raw row.
  const int64_t perRow = l.KW * owc + rawColumns(l, owc);
  // fixed + ((R-1)*sh + E)*perRow + R*owc <= halfF
  int64_t avail = halfF - zF - 48 - (E - l.sh) * perRow;
  if (avail <= 0)
    return 0;
  return avail / (l.sh * perRow + owc);
}

/// Estimated cycles of one MAC group: the MAC (+ pipeline latency), the
/// fetched queue bytes, the scalar-unit cycles of the two type-2
/// instructions, command issue.
double groupCycles(const HardwareDesc &hw, int64_t depth, int64_t cols,
                   int64_t fetched) {
  const int64_t lanes = std::max<int64_t>(1, hw.macLanes);
  return double(ceilDiv(depth * cols, lanes) + hw.macPipelineLatency) +
         double(fetched * 4) / hw.weightLoadBytesPerCycle + 8.0;
}

/// Lane rows only where every cluster gets at least this many planes.
constexpr int64_t kLaneRowsMinPlanesPerCluster = 40;

/// Storage floats one plane of a tile takes under `plan`: the expanded
/// band, its column-packed copy (laneRows > 1), the raw band, the tap
/// region, the bias and the output band.
int64_t planeFloats(const DepthwiseLayer &l, const DepthwisePlan &plan) {
  const int64_t E = (l.KH - 1) * l.dh + 1, cover = plan.coveredRows();
  const int64_t hrows = (cover - 1) * l.sh + E;
  const bool packed = plan.laneRows > 1;
  return hrows * (l.KW * plan.owc + rawColumns(l, plan.owc)) +
         (packed ? plan.Kbig * plan.laneRows * plan.owc : 0) +
         roundUp(plan.zeroElems, 16) + 1 + cover * plan.owc;
}

/// The window of G output rows per MAC: taps, shift, queue depth, the tap
/// region and the slide overlap (the tiling is rowPlan's / laneRowsPlan's).
DepthwisePlan windowPlan(const DepthwiseLayer &l, int64_t G) {
  DepthwisePlan c;
  c.K = ((l.KH - 1) * l.dh + 1) * l.KW;
  c.a = l.sh * l.KW;
  c.G = G;
  c.Kbig = (G - 1) * c.a + c.K;
  c.zeroElems = 2 * (G - 1) * c.a + c.K;
  c.slideKeep = std::max<int64_t>(0, c.Kbig - G * c.a);
  return c;
}

/// One output row per MAC row: the column chunk (queue, accumulators) and
/// the band of output rows (a storage half), with the estimated cycles per
/// plane; nothing when not even one output row of one column fits.
std::optional<DepthwisePlan> rowPlan(const HardwareDesc &hw,
                                     const DepthwiseLayer &l,
                                     const DepthwisePlan &base, double &cost) {
  DepthwisePlan c = base;
  const int64_t halfF = dwHalfFloats(hw);
  c.owc = std::min({l.OW, int64_t(hw.weightQueueBytes / 4) / c.Kbig,
                    int64_t(hw.accBufferBytes / 4)});
  int64_t R = 0;
  while (c.owc >= 1 &&
         (R = bandRowsFor(l, c.owc, roundUp(c.zeroElems, 16), halfF)) < 1)
    c.owc /= 2;
  if (c.owc < 1 || R < 1)
    return std::nullopt;
  // A band is the whole plane or a multiple of G rows.
  if (R >= l.OH)
    R = l.OH;
  else if (R > c.G)
    R = R / c.G * c.G;
  c.bandRows = R;
  const int64_t chunksW = ceilDiv(l.OW, c.owc), bands = ceilDiv(l.OH, R);
  c.tiles = l.planes * bands * chunksW;
  cost = double(chunksW) * double(ceilDiv(l.OH, c.G)) *
             groupCycles(hw, c.Kbig, c.owc, c.G * c.a * c.owc) +
         double(chunksW * bands) * 50.0;
  return c;
}

/// Whole planes: several per tile (as many as fit a storage half, but
/// enough tiles for every cluster to overlap loads with compute).
int64_t wholePlanesPerTile(const HardwareDesc &hw, const DepthwiseLayer &l,
                           const DepthwisePlan &p) {
  const int64_t spread = ceilDiv(l.planes, 4 * int64_t(hw.numClusters()));
  return std::max<int64_t>(
      1, std::min((dwHalfFloats(hw) - 80) / planeFloats(l, p), spread));
}
void setPlanesPerTile(const DepthwiseLayer &l, int64_t pp, DepthwisePlan &p) {
  p.planesPerTile = pp;
  p.tiles = ceilDiv(l.planes, pp);
}

/// The lane-rows variant of the row-per-MAC candidate `c` (its G, taps and
/// tap region) with its estimated cycles per plane; nothing when the plane
/// is wide (a row fills more than half the MAC lanes), one row per PE
/// covers it, or the packed window does not fit the queue, an accumulator
/// buffer or a storage half.
std::optional<DepthwisePlan> laneRowsPlan(const HardwareDesc &hw,
                                          const DepthwiseLayer &l,
                                          const DepthwisePlan &c,
                                          double &cost) {
  const int64_t lanes = std::max<int64_t>(1, hw.macLanes);
  const int64_t rl = ceilDiv(l.OH, c.G);
  if (rl <= 1 || 2 * l.OW > lanes)
    return std::nullopt;
  DepthwisePlan f = c;
  f.laneRows = rl;
  f.owc = l.OW;
  f.bandRows = l.OH;
  f.tiles = l.planes;
  f.slideKeep = 0;
  const int64_t cols = rl * l.OW;
  if (cols * f.Kbig > int64_t(hw.weightQueueBytes / 4) ||
      cols > int64_t(hw.accBufferBytes / 4) ||
      planeFloats(l, f) + 80 > dwHalfFloats(hw))
    return std::nullopt;
  // The group overhead of the sliding plan (its two type-2 instructions),
  // although the packed records are type 1: with the 4 cycles they save
  // taken off, hw/large.json's MobileNetV2 packs a layer it runs slower
  // packed (290.7 k -> 293.6 k cycles); laneRowsPay's guards are measured
  // rules, so is this (docs/depthwise.md, "Small planes").
  cost = groupCycles(hw, f.Kbig, cols, f.Kbig * cols) + 50.0;
  return f;
}

/// LaneRows::Auto: the packed plan (`packedCost` per plane) replaces the
/// row-per-MAC one (`rowCost`) when it is estimated faster and
/// - the layer is not DRAM-bound: lane rows shorten the PE time only; a
///   layer whose planes take longer to move through DRAM (input and output
///   plane over each cluster's share of the channels' bandwidth) than the
///   row plan computes them is not faster for them, and its smaller tiles
///   (the storage cap) cost DMA latency (bandwidth-starved.json: 512 x 14 x
///   14 went 139 k -> 163 k cycles);
/// - every cluster has kLaneRowsMinPlanesPerCluster planes: with few
///   planes a cluster has few tiles, each a chain of DMA latencies that
///   shorter MACs do not shorten, plus the pack before its first EXECUTE
///   (hw/large.json, 16 clusters: 96 x 14 x 14 went 1 386 -> 1 955).
bool laneRowsPay(const HardwareDesc &hw, const DepthwiseLayer &l,
                 double rowCost, double packedCost) {
  const double dramPerPlane =
      double((l.H * l.W + l.OH * l.OW) * 4) /
      std::max(1e-9, hw.dramBytesPerCycle() / double(hw.numClusters()));
  return packedCost < rowCost && rowCost > dramPerPlane &&
         l.planes >= kLaneRowsMinPlanesPerCluster * int64_t(hw.numClusters());
}

} // namespace

bool accel::codegen::planDepthwise(const HardwareDesc &hw,
                                   const DepthwiseLayer &l, DepthwisePlan &plan,
                                   std::string &err, LaneRows laneRows) {
  if (l.planes < 1 || l.KH < 1 || l.KW < 1 || l.OH < 1 || l.OW < 1 ||
      l.sh < 1 || l.sw < 1 || l.dh < 1 || l.dw < 1) {
    err = "degenerate depthwise shape";
    return false;
  }
  std::optional<DepthwisePlan> row, packed; // the best of each kind
  double rowCost = 0, packedCost = 0;
  const int64_t K = ((l.KH - 1) * l.dh + 1) * l.KW, a = l.sh * l.KW;
  for (int64_t G = 1; G <= std::min<int64_t>(hw.pesPerCluster, l.OH); ++G) {
    // More PEs pay (G-1)*a extra MAC depth each; that only helps while
    // consecutive output rows share input rows (a < K).
    if (G > 1 && a >= K)
      break;
    const DepthwisePlan base = windowPlan(l, G);
    if (base.Kbig > int64_t(hw.inputBufferBytes / 4))
      break;
    // Small whole planes: laneRows output rows side by side in the queue's
    // columns, one MAC group per plane instead of ceil(OH / G).
    double cost = 0;
    if (laneRows != LaneRows::Off)
      if (std::optional<DepthwisePlan> f = laneRowsPlan(hw, l, base, cost))
        if (!packed || cost < packedCost) {
          packed = f;
          packedCost = cost;
        }
    std::optional<DepthwisePlan> r = rowPlan(hw, l, base, cost);
    if (!r)
      break;
    if (!row || cost < rowCost) {
      row = r;
      rowCost = cost;
    }
  }
  if (row && row->bandRows == l.OH && row->owc == l.OW)
    setPlanesPerTile(l, wholePlanesPerTile(hw, l, *row), *row);
  if (packed && (!row || laneRows == LaneRows::On ||
                 laneRowsPay(hw, l, rowCost, packedCost))) {
    // No more storage than the row-per-MAC plan: the storage above the
    // kernels' high-water mark keeps intermediates on chip (residency).
    int64_t pp = wholePlanesPerTile(hw, l, *packed);
    if (row)
      pp = std::clamp<int64_t>(row->planesPerTile * planeFloats(l, *row) /
                                   planeFloats(l, *packed),
                               1, pp);
    setPlanesPerTile(l, pp, *packed);
    row = packed;
  }
  if (!row) {
    err = "a " + std::to_string(l.KH) + "x" + std::to_string(l.KW) +
          " depthwise window (dilation " + std::to_string(l.dh) +
          ") does not fit the weight queue / storage half";
    return false;
  }
  plan = *row;
  return true;
}

namespace {

/// The program of one depthwise layer under a plan: the storage layout of
/// the two ping-pong halves, then per cluster its CONFIG, and per tile of the
/// cluster the loads, the MAC groups and the store. Each cluster takes a
/// contiguous run of tiles; tile i + 2 loads into the half tile i leaves.
class DepthwiseEmitter {
public:
  DepthwiseEmitter(StreamBuilder &sb, const DepthwiseLayer &l,
                   const DepthwisePlan &plan);
  void emit();

private:
  /// Planes [p0, p0 + np), output rows [oh0, oh0 + rows), columns
  /// [ow0, ow0 + wc).
  struct Tile {
    int64_t p0, np, oh0, rows, ow0, wc;
  };
  std::vector<Tile> allTiles() const;
  /// Records of group j (g rows) of plane q of a tile in half `hl`: the
  /// bias load, the SW-queue weight load, the MAC, the store.
  std::vector<OperandRecord> groupRecords(const HalfLayout &hl, int64_t q,
                                          int64_t j, int64_t g,
                                          int64_t wc) const;
  /// The per-PE tap vectors of plane q (G rows, row stride -a).
  OperandRecord tapRecord(const HalfLayout &hl, int64_t q) const;
  /// Records (and instructions) of one plane group.
  size_t groupLength() const { return iSt + 1; }
  /// The group sequence (taps first when tapsInGroup) with records `recs`.
  std::vector<Instruction>
  groupSequence(const std::vector<OperandRecord> &recs) const;
  /// Several planes per EXECUTE: the records of the planesPerExec planes
  /// from plane q0 of tile t in half `hl`.
  std::vector<OperandRecord> slotRecords(const HalfLayout &hl, const Tile &t,
                                         int64_t q0) const;
  /// How many planes one EXECUTE may run on cluster c (1: one each).
  int64_t planesPerExecute(uint32_t c) const;
  void configure(uint32_t c, const Tile &first);
  /// The band's input rows and columns inside the image.
  struct BandWindow {
    int64_t r0;       ///< input row of hh = 0
    int64_t hh0, hh1; ///< band rows inside the image
    int64_t c0;       ///< input column of the window's first (raw column 0)
    int64_t cA, cB;   ///< input columns inside the image
    /// Whether the window reads some input element.
    bool readsInput() const { return hh1 > hh0 && cB > cA; }
  };
  BandWindow window(const Tile &t) const;
  /// Input rows of the tile's expanded band (past the image when the lane
  /// rows cover more than OH output rows).
  int64_t bandInputRows(const Tile &t) const {
    return ((Rl > 1 ? Rc : t.rows) - 1) * l.sh + E;
  }
  void load(uint32_t c, const Tile &t, int h);
  /// The raw band of tile t into half h's raw region (tag h).
  void loadRaw(uint32_t c, const Tile &t, int h);
  void expand(uint32_t c, const Tile &t, int h);
  /// laneRows > 1: X' into the column-packed queue rows (tag h).
  void packLanes(uint32_t c, const Tile &t, int h);
  /// laneRows > 1: the PE-ordered band into DRAM in output order.
  void storeLanes(uint32_t c, const Tile &t, int h);
  void zeroPadding(uint32_t c, const Tile &t, int h, const BandWindow &w);
  /// Where a half holds zeros: the expanded band's rows and the raw band's
  /// columns of the window outside the image, for the first np planes.
  /// Neither the raw band's load nor the expansion writes there, so a later
  /// tile of the same layout (and no more planes) finds its zeros still in
  /// place.
  struct ZeroLayout {
    int64_t hh0, hh1, rows, ow0, wc, np;
    bool covers(const ZeroLayout &o) const {
      return hh0 == o.hh0 && hh1 == o.hh1 && rows == o.rows && ow0 == o.ow0 &&
             wc == o.wc && o.np <= np;
    }
  };
  void loadTapsAndBias(uint32_t c, const Tile &t, int h);
  void compute(uint32_t c, const Tile &t, int h);
  void store(uint32_t c, const Tile &t, int h);

  StreamBuilder &sb;
  const DepthwiseLayer &l;
  const DepthwisePlan &plan;
  const int64_t G, a, K, owc, R, E, L, pp;
  /// laneRows and the rows a band covers (R, or G * Rl past OH); the queue
  /// columns of a group (Rl * owc).
  const int64_t Rl, Rc, qc;
  /// Per plane of a tile: the expanded band (xPl floats), a tap region (zF),
  /// one bias float, the output band (Rc x owc; PE-ordered when laneRows >
  /// 1), the raw band (rawPl floats, rows of rawW input columns); laneRows >
  /// 1: the packed queue rows (xfPl).
  const int64_t xPl, zF, rawW, rawPl, xfPl;
  HalfLayout half[2];
  /// Per half, the zeros the current cluster's program has written.
  std::optional<ZeroLayout> zeroed[2];
  const int32_t ldwStep, stStep;
  /// The fused epilogue's sequence (ibuf 2), empty without post steps.
  std::vector<Instruction> postSeq;
  /// Whether every plane of every tile is one group (packed lanes, or bands
  /// of at most G rows): the taps then load in the group's own EXECUTE
  /// (ibuf 0), one command per plane instead of two. With several groups
  /// per plane the taps stay in ibuf 1, loaded once for all of them.
  const bool tapsInGroup;
  /// Positions of the group's records (the taps' and the bias' loads are
  /// optional).
  const size_t iPsum, iLdw, iMac, iSt;
  /// Planes per EXECUTE on the cluster being emitted (planesPerExecute):
  /// ibuf 0 then holds that many plane groups one after the other
  /// (docs/depthwise.md, "Several planes per EXECUTE").
  int64_t planesPerExec = 1;
  /// Whether ibuf 1 holds the one-plane group for the planes left over.
  bool oneGroupConfigured = false;
};

DepthwiseEmitter::DepthwiseEmitter(StreamBuilder &sb, const DepthwiseLayer &l,
                                   const DepthwisePlan &plan)
    : sb(sb), l(l), plan(plan), G(plan.G), a(plan.a), K(plan.K), owc(plan.owc),
      R(plan.bandRows), E((l.KH - 1) * l.dh + 1), L((plan.G - 1) * plan.a),
      pp(plan.planesPerTile), Rl(plan.laneRows), Rc(plan.coveredRows()),
      qc(Rl * owc), xPl(((Rc - 1) * l.sh + E) * l.KW * owc),
      zF(roundUp(plan.zeroElems, 16)), rawW(rawColumns(l, plan.owc)),
      rawPl(((Rc - 1) * l.sh + E) * rawW), xfPl(Rl > 1 ? plan.Kbig * qc : 0),
      ldwStep(int32_t(G * a * owc * 4)), stStep(int32_t(G * owc * 4)),
      tapsInGroup(plan.laneRows > 1 || plan.bandRows <= plan.G),
      iPsum(tapsInGroup ? 1 : 0), iLdw(iPsum + (l.hasBias ? 1 : 0)),
      iMac(iLdw + 1), iSt(iLdw + 2) {
  // Half 1 right after half 0's last region (not at the middle of the
  // storage unit): the bytes above stay free for on-chip residency
  // (docs/passes.md, "Compact kernel storage").
  for (int h = 0; h < 2; ++h) {
    half[h].x =
        h == 0 ? 0 : uint32_t(roundUp(half[0].raw + pp * rawPl * 4, 64));
    half[h].xf = half[h].x + uint32_t(roundUp(pp * xPl, 16) * 4);
    half[h].z = half[h].xf + uint32_t(roundUp(pp * xfPl, 16) * 4);
    half[h].bias = half[h].z + uint32_t(pp * zF * 4);
    half[h].out = half[h].bias + uint32_t(roundUp(pp, 16) * 4);
    half[h].raw = half[h].out + uint32_t(roundUp(pp * Rc * owc, 16) * 4);
  }
}

std::vector<DepthwiseEmitter::Tile> DepthwiseEmitter::allTiles() const {
  std::vector<Tile> tiles;
  for (int64_t p0 = 0; p0 < l.planes; p0 += pp)
    for (int64_t oh0 = 0; oh0 < l.OH; oh0 += R)
      for (int64_t ow0 = 0; ow0 < l.OW; ow0 += owc)
        tiles.push_back({p0, std::min(pp, l.planes - p0), oh0,
                         std::min(R, l.OH - oh0), ow0,
                         std::min(owc, l.OW - ow0)});
  return tiles;
}

/// Output rows (all planes) of a tile's band in storage, at most.
int64_t postRowsMax(const DepthwisePlan &plan) {
  return plan.planesPerTile * plan.coveredRows();
}
int64_t postPeRows(const HardwareDesc &hw, const DepthwisePlan &plan) {
  return ceilDiv(postRowsMax(plan), int64_t(hw.pesPerCluster));
}

void DepthwiseEmitter::emit() {
  const std::vector<Tile> tiles = allTiles();
  const uint32_t nc = sb.numClusters();
  for (uint32_t c = 0; c < nc; ++c) {
    // A contiguous run of tiles (planes, then bands) per cluster, not every
    // nc-th: a cluster then reads and writes whole blocks of channel planes,
    // which the channel planner keeps in its local channel, and a producer
    // split by output channels hands it planes it wrote itself.
    // The first clusters take the extra tiles (fewer tiles than clusters:
    // clusters 0, 1, ... as before).
    const size_t base = tiles.size() / nc, extra = tiles.size() % nc;
    const size_t lo = c * base + std::min<size_t>(c, extra);
    const size_t hi = lo + base + (c < extra ? 1 : 0);
    std::vector<Tile> mine(tiles.begin() + lo, tiles.begin() + hi);
    if (mine.empty())
      continue;
    configure(c, mine[0]);
    load(c, mine[0], 0);
    if (mine.size() > 1)
      load(c, mine[1], 1);
    expand(c, mine[0], 0);
    for (size_t i = 0; i < mine.size(); ++i) {
      const int h = int(i % 2);
      compute(c, mine[i], h);
      // Tile i + 2's raw band goes into this half's raw region at once:
      // compute waited for tag h, so the expansion of tile i has read it.
      // Its DRAM transfer then overlaps two tiles' MACs instead of one.
      if (i + 2 < mine.size())
        loadRaw(c, mine[i + 2], h);
      // The next tile's expansion runs on the storage unit while this
      // tile's MACs run on the PEs (its half was left by tile i - 1).
      if (i + 1 < mine.size())
        expand(c, mine[i + 1], 1 - h);
      store(c, mine[i], h);
      // The zeros, taps and bias overwrite what tile i's MACs read.
      if (i + 2 < mine.size()) {
        zeroPadding(c, mine[i + 2], h, window(mine[i + 2]));
        loadTapsAndBias(c, mine[i + 2], h);
      }
    }
  }
  sb.endLayer();
}

std::vector<OperandRecord> DepthwiseEmitter::groupRecords(const HalfLayout &hl,
                                                          int64_t q, int64_t j,
                                                          int64_t g,
                                                          int64_t wc) const {
  std::vector<OperandRecord> recs;
  if (tapsInGroup)
    recs.push_back(tapRecord(hl, q));
  const uint32_t depth = uint32_t((g - 1) * a + K);
  // Packed lanes: one group per plane over Rl blocks of wc (= owc) columns.
  const uint32_t cols = uint32_t(Rl > 1 ? qc : wc);
  if (l.hasBias) {
    OperandRecord r;
    r.addr = hl.bias + uint32_t(q * 4);
    r.rows = uint32_t(g);
    r.cols = cols;
    r.rowStride = 0;
    r.colStride = 0;
    r.peRows = 1;
    recs.push_back(r);
  }
  OperandRecord w;
  w.addr = Rl > 1 ? hl.xf + uint32_t(q * xfPl * 4)
                  : hl.x + uint32_t((q * xPl + j * G * a * owc) * 4);
  w.rows = depth;
  w.cols = cols;
  w.rowStride = int32_t(Rl > 1 ? qc : owc);
  w.colStride = 1;
  w.queueMode = QueueMode::SW;
  // The scalar unit slides the window to the next group (type 2); packed
  // lanes have one group per plane, each EXECUTE patches its addresses,
  // so their records stay type 1 (no SU / WB cycles).
  if (Rl == 1) {
    w.pipeline = Pipeline::IdFoSuWb;
    w.step = ldwStep;
  }
  recs.push_back(w);
  OperandRecord m;
  m.rows = uint32_t(g);
  m.cols = cols;
  m.peRows = 1;
  m.depth = depth;
  recs.push_back(m);
  // Packed lanes: PE q' writes its Rl rows (output rows r * G + q') as one
  // row of the PE-ordered band; storeLanes puts them in output order.
  OperandRecord s;
  s.addr = Rl > 1 ? hl.out + uint32_t(q * Rc * owc * 4)
                  : hl.out + uint32_t((q * R * owc + j * G * owc) * 4);
  s.rows = uint32_t(g);
  s.cols = cols;
  s.rowStride = int32_t(Rl > 1 ? qc : owc);
  s.colStride = 1;
  s.peRows = 1;
  s.func = l.func;
  s.imm = l.funcImm;
  if (Rl == 1) {
    s.pipeline = Pipeline::IdFoSuWb;
    s.step = stStep;
  }
  recs.push_back(s);
  return recs;
}

OperandRecord DepthwiseEmitter::tapRecord(const HalfLayout &hl,
                                          int64_t q) const {
  OperandRecord r;
  r.addr = hl.z + uint32_t((q * zF + L) * 4);
  r.rows = uint32_t(G);
  r.cols = uint32_t(plan.Kbig);
  r.rowStride = int32_t(-a);
  r.colStride = 1;
  r.peRows = 1;
  return r;
}

std::vector<Instruction>
DepthwiseEmitter::groupSequence(const std::vector<OperandRecord> &recs) const {
  const size_t len = groupLength();
  std::vector<Instruction> seq;
  for (size_t at = 0; at + len <= recs.size(); at += len) {
    if (tapsInGroup)
      seq.push_back(makeInstruction(
          Opcode::LD, uint8_t(LoadStream::Activations), 0, 0, recs[at]));
    if (l.hasBias)
      seq.push_back(makeInstruction(Opcode::LD,
                                    uint8_t(LoadStream::PartialSums), 0, 0,
                                    recs[at + iPsum]));
    seq.push_back(makeInstruction(Opcode::LD, uint8_t(LoadStream::Weights), 0,
                                  0, recs[at + iLdw]));
    seq.push_back(makeInstruction(Opcode::MAC, 0, 0, 0, recs[at + iMac]));
    seq.back().fields.sfuActive = l.func != SfuFunc::None && l.sfuChained;
    seq.push_back(makeInstruction(Opcode::ST, uint8_t(StoreSource::AccBuffer),
                                  0, 0, recs[at + iSt]));
  }
  return seq;
}

std::vector<OperandRecord> DepthwiseEmitter::slotRecords(const HalfLayout &hl,
                                                         const Tile &t,
                                                         int64_t q0) const {
  std::vector<OperandRecord> recs;
  for (int64_t q = q0; q < q0 + planesPerExec; ++q) {
    std::vector<OperandRecord> g = groupRecords(hl, q, 0, G, t.wc);
    recs.insert(recs.end(), g.begin(), g.end());
  }
  return recs;
}

// Several planes per EXECUTE only for packed planes (one group each, type-1
// records: no scalar unit writes an address back between them) with a bias
// (each plane's LD psums sets the accumulators the previous plane's ST
// read; without it its MACs would add to them), as many as fit the
// instruction buffer (ibuf 0) and the register file beside what stays
// configured: the other buffers, the epilogue's (ibuf 2, or what an earlier
// layer left there) and ibuf 1 (the one-plane group for the planes left
// over, or an earlier layer's sequence when none is).
int64_t DepthwiseEmitter::planesPerExecute(uint32_t c) const {
  if (!tapsInGroup || Rl <= 1 || !l.hasBias || pp < 2)
    return 1;
  const HardwareDesc &hw = sb.hw();
  const uint64_t len = groupLength();
  const uint64_t used =
      sb.recordsOutside(c, {0, 1, 2}) +
      (postSeq.empty() ? sb.configuredRecords(c, 2) : postSeq.size()) +
      std::max<uint64_t>(sb.configuredRecords(c, 1), len);
  if (used >= hw.registerFileEntries)
    return 1;
  const int64_t fit =
      int64_t(std::min<uint64_t>(hw.instructionBufferDepth,
                                 hw.registerFileEntries - used) /
              len);
  if (fit < 2)
    return 1;
  // A full tile in the fewest EXECUTEs of equal size; a tile whose planes
  // they do not divide runs the rest one plane at a time (ibuf 1).
  const int64_t executes = ceilDiv(pp, fit);
  return ceilDiv(pp, executes);
}

// CONFIG: ibuf 0 = one group (planesPerExec groups, one per plane slot),
// led by the per-PE tap vectors' load when tapsInGroup, else ibuf 1 = that
// load alone; then the tap regions of both halves are zeroed once (the taps
// DMA writes only the tap positions; dilation gaps and the shifts stay
// zero).
void DepthwiseEmitter::configure(uint32_t c, const Tile &first) {
  zeroed[0].reset();
  zeroed[1].reset();
  if (!l.post.empty()) {
    // The fused epilogue's further steps on the output band (ibuf 2).
    postSeq =
        detail::postSequence(sb.hw(), l.post, postPeRows(sb.hw(), plan), owc);
    std::vector<OperandRecord> full = detail::postRecords(
        postSeq, half[0].out, 0, postRowsMax(plan), owc, owc);
    for (size_t i = 0; i < postSeq.size(); ++i)
      postSeq[i].operands = full[i];
  }
  planesPerExec = planesPerExecute(c);
  if (planesPerExec > 1) {
    sb.config(c, 0, groupSequence(slotRecords(half[0], first, 0)));
    oneGroupConfigured = false;
  } else {
    sb.config(c, 0,
              groupSequence(groupRecords(half[0], 0, 0,
                                         Rl > 1 ? G : std::min(G, first.rows),
                                         first.wc)));
    if (!tapsInGroup)
      sb.config(c, 1,
                {makeInstruction(Opcode::LD, uint8_t(LoadStream::Activations),
                                 0, 0, tapRecord(half[0], 0))});
  }
  if (!postSeq.empty())
    sb.config(c, 2, postSeq);
  for (int h = 0; h < 2; ++h) {
    DramBox zb;
    zb.base = l.zeros;
    zb.dim(pp, 0).dim(plan.zeroElems, 1);
    sb.dmaLoad(c, 4, zb, half[h].z, zF);
  }
  sb.wait(c, 1u << 4, false);
}

DepthwiseEmitter::BandWindow DepthwiseEmitter::window(const Tile &t) const {
  BandWindow w;
  const int64_t hrows = bandInputRows(t);
  w.r0 = t.oh0 * l.sh - l.padT;
  w.hh0 = std::clamp<int64_t>(-w.r0, 0, hrows);
  w.hh1 = std::clamp<int64_t>(l.H - w.r0, w.hh0, hrows);
  const int64_t cFirst = t.ow0 * l.sw - l.padL,
                cLast = cFirst + (t.wc - 1) * l.sw + (l.KW - 1) * l.dw;
  w.c0 = cFirst;
  w.cA = std::clamp<int64_t>(cFirst, 0, l.W);
  w.cB = std::clamp<int64_t>(cLast + 1, w.cA, l.W);
  return w;
}

// From DRAM: the raw band (the input rows and columns the tile's window
// reads inside the image, each input element once, rows of rawW floats),
// zeros where the window is padding (zeroPadding), the taps and the bias
// of tile t into half h (tag h).
void DepthwiseEmitter::load(uint32_t c, const Tile &t, int h) {
  loadRaw(c, t, h);
  zeroPadding(c, t, h, window(t));
  loadTapsAndBias(c, t, h);
}

void DepthwiseEmitter::loadRaw(uint32_t c, const Tile &t, int h) {
  const BandWindow w = window(t);
  if (!w.readsInput())
    return;
  DramBox xb;
  xb.base = l.x + uint64_t(((t.p0 * l.H + w.r0 + w.hh0) * l.W + w.cA) * 4);
  xb.dim(t.np, l.H * l.W).dim(w.hh1 - w.hh0, l.W).dim(w.cB - w.cA, 1);
  sb.dmaLoadStrided(c, uint8_t(h), xb,
                    half[h].raw + uint32_t((w.cA - w.c0) * 4),
                    {rawPl, rawW, 1, 0});
}

// The expanded band X'[hh*KW + kw][j] = xpad[oh0*sh + hh][(ow0 + j)*sw +
// kw*dw] from the raw band, whose columns are the window's (zeros where it
// reads padding, zeroPadding): one local_copy for all kernel columns
// (storage to storage, no DRAM bytes), once the raw band is in (tag h).
// Reading the input once and expanding it on chip replaces KW DRAM reads of
// every input element; one copy instead of one per kernel column makes the
// depthwise layers' streams shorter (docs/depthwise.md, "One expansion").
void DepthwiseEmitter::expand(uint32_t c, const Tile &t, int h) {
  const BandWindow w = window(t);
  // The raw band and the zero boxes (tag h) are in before X' is read.
  if (w.readsInput() || Rl > 1)
    sb.wait(c, uint8_t(1u << h), false);
  if (w.readsInput()) {
    DramBox box;
    box.dim(t.np, rawPl)
        .dim(w.hh1 - w.hh0, rawW)
        .dim(l.KW, l.dw)
        .dim(t.wc, l.sw);
    sb.dmaLocalCopyStrided(c, uint8_t(h), half[h].raw, box,
                           half[h].x + uint32_t(w.hh0 * l.KW * owc * 4),
                           {xPl, l.KW * owc, owc, 1});
  }
  packLanes(c, t, h);
}

// Column block r of the packed queue rows is the window of output rows
// r * G .. r * G + G - 1: XF[k][r * owc + j] = X'[r * G * a + k][j] for the
// Kbig rows k, one local copy. expand waited for the zero boxes, and local
// copies run in issue order, so it follows the expansion without a WAIT.
void DepthwiseEmitter::packLanes(uint32_t c, const Tile &t, int h) {
  if (Rl <= 1)
    return;
  DramBox box;
  box.dim(t.np, xPl).dim(Rl, G * a * owc).dim(plan.Kbig, owc).dim(owc, 1);
  sb.dmaLocalCopyStrided(c, uint8_t(h), half[h].x, box, half[h].xf,
                         {xfPl, owc, qc, 1});
}

// Zero boxes (broadcast from one zero float) where the window is padding:
// into the expanded band, all kernel columns of a padding row (consecutive
// X' rows: one box above and one below the input); into the raw band, its
// columns left and right of the image, which the expansion copies into X'
// with the input (a window that reads no input element: its X' rows all
// zero).
void DepthwiseEmitter::zeroPadding(uint32_t c, const Tile &t, int h,
                                   const BandWindow &w) {
  const HalfLayout &hl = half[h];
  const int64_t hrows = bandInputRows(t);
  // Tiles of one geometry (every tile of a layer with whole planes; the
  // inner bands of a tall one) zero a half once: on MobileNet's 7 x 7
  // layers the zero boxes moved four times the input's bytes per tile.
  const ZeroLayout layout{w.hh0, w.hh1, hrows, t.ow0, t.wc, t.np};
  if (zeroed[h] && zeroed[h]->covers(layout))
    return;
  zeroed[h] = layout;
  auto zeroRows = [&](int64_t hhA, int64_t hhB) {
    if (hhB <= hhA)
      return;
    DramBox zb;
    zb.base = l.zeros;
    zb.dim(t.np, 0).dim((hhB - hhA) * l.KW, 0).dim(t.wc, 0);
    sb.dmaLoadStrided(c, uint8_t(h), zb, hl.x + uint32_t(hhA * l.KW * owc * 4),
                      {xPl, owc, 1, 0});
  };
  auto zeroRawColumns = [&](int64_t rA, int64_t rB) {
    if (rB <= rA)
      return;
    DramBox zb;
    zb.base = l.zeros;
    zb.dim(t.np, 0).dim(w.hh1 - w.hh0, 0).dim(rB - rA, 0);
    sb.dmaLoadStrided(c, uint8_t(h), zb, hl.raw + uint32_t(rA * 4),
                      {rawPl, rawW, 1, 0});
  };
  zeroRows(0, w.hh0);
  zeroRows(w.hh1, hrows);
  if (!w.readsInput()) {
    zeroRows(w.hh0, w.hh1);
    return;
  }
  zeroRawColumns(0, w.cA - w.c0);
  zeroRawColumns(w.cB - w.c0, rawColumns(l, t.wc));
}

// Planes p0.. of one batch image are consecutive channels, so the taps of a
// tile are one DMA (one per image when the tile crosses an image boundary
// and wraps around the weights and the bias vector).
void DepthwiseEmitter::loadTapsAndBias(uint32_t c, const Tile &t, int h) {
  const HalfLayout &hl = half[h];
  const int64_t taps = l.KH * l.KW;
  for (int64_t q = 0; q < t.np;) {
    const int64_t ch = (t.p0 + q) % l.C, n = std::min(t.np - q, l.C - ch);
    DramBox wb;
    wb.base = l.w + uint64_t(ch * taps * 4);
    wb.dim(n, taps).dim(l.KH, l.KW).dim(l.KW, 1);
    sb.dmaLoadStrided(c, uint8_t(h), wb, hl.z + uint32_t((q * zF + L) * 4),
                      {zF, l.dh * l.KW, 1, 0});
    q += n;
  }
  if (!l.hasBias)
    return;
  for (int64_t q = 0; q < t.np;) {
    int64_t ch = (t.p0 + q) % l.C, n = std::min(t.np - q, l.C - ch);
    DramBox bb;
    bb.base = l.bias + uint64_t(ch * 4);
    bb.dim(1, 0).dim(n, 1);
    sb.dmaLoad(c, uint8_t(h), bb, hl.bias + uint32_t(q * 4), n);
    q += n;
  }
}

// Per plane: the tap vectors, then one EXECUTE per group of G output rows.
void DepthwiseEmitter::compute(uint32_t c, const Tile &t, int h) {
  const HalfLayout &hl = half[h];
  // This tile's inputs are in; the store of tile i-2 left the half.
  sb.wait(c, uint8_t((1u << h) | (1u << (2 + h))), false);
  if (planesPerExec > 1) {
    int64_t q = 0;
    for (; q + planesPerExec <= t.np; q += planesPerExec)
      sb.execute(c, 0, slotRecords(hl, t, q), true, true);
    if (q < t.np && !oneGroupConfigured) {
      // The planes left over (a cluster's last tile) one at a time.
      sb.config(c, 1, groupSequence(groupRecords(hl, q, 0, G, t.wc)));
      oneGroupConfigured = true;
    }
    for (; q < t.np; ++q)
      sb.execute(c, 1, groupRecords(hl, q, 0, G, t.wc), true, true);
    return;
  }
  for (int64_t q = 0; q < t.np; ++q) {
    if (!tapsInGroup)
      sb.execute(c, 1, {tapRecord(hl, q)}, false, false);
    const int64_t groups = Rl > 1 ? 1 : ceilDiv(t.rows, G);
    for (int64_t j = 0; j < groups; ++j) {
      const int64_t g = Rl > 1 ? G : std::min(G, t.rows - j * G);
      std::vector<OperandRecord> recs = groupRecords(hl, q, j, g, t.wc);
      sb.execute(c, 0, recs, true, true);
      if (Rl > 1)
        continue; // type 1: nothing written back
      // The scalar unit wrote the advanced addresses back.
      sb.noteAddrWriteBack(c, 0, iLdw, recs[iLdw].addr + uint32_t(ldwStep));
      sb.noteAddrWriteBack(c, 0, iSt, recs[iSt].addr + uint32_t(stStep));
    }
  }
}

void DepthwiseEmitter::store(uint32_t c, const Tile &t, int h) {
  if (!postSeq.empty()) {
    // Planes of the band are Rc rows apart; rows past a plane's band are
    // computed on but not stored.
    const int64_t rows = (t.np - 1) * Rc + (Rl > 1 ? Rc : t.rows);
    sb.execute(c, 2,
               detail::postRecords(postSeq, half[h].out, 0, rows, t.wc, owc),
               false, true);
  }
  sb.wait(c, 0, true);
  if (Rl > 1)
    return storeLanes(c, t, h);
  DramBox ob;
  ob.base = l.out + uint64_t(((t.p0 * l.OH + t.oh0) * l.OW + t.ow0) * 4);
  ob.dim(t.np, l.OH * l.OW).dim(t.rows, l.OW).dim(t.wc, 1);
  ob.rowDims = 2;
  sb.dmaStore(c, uint8_t(2 + h), half[h].out, owc, ob);
}

// PE q's row of the PE-ordered band holds output rows r * G + q (r < Rl);
// two stores put the rows below OH in place (PEs q < OH - (Rl-1)*G have Rl
// of them, the others Rl - 1; the rows past OH are never stored): DRAM
// dims (plane, PE, r, column) with strides (OH*OW, OW, G*OW, 1).
void DepthwiseEmitter::storeLanes(uint32_t c, const Tile &t, int h) {
  const int64_t qFull = l.OH - (Rl - 1) * G;
  auto part = [&](int64_t q0, int64_t nq, int64_t rows) {
    if (nq <= 0 || rows <= 0)
      return;
    DramBox ob;
    ob.base = l.out + uint64_t(((t.p0 * l.OH + q0) * l.OW) * 4);
    ob.dim(t.np, l.OH * l.OW).dim(nq, l.OW).dim(rows, G * l.OW).dim(l.OW, 1);
    sb.dmaStoreStrided(c, uint8_t(2 + h), half[h].out + uint32_t(q0 * qc * 4),
                       {Rc * owc, qc, owc, 1}, ob);
  };
  part(0, qFull, Rl);
  part(qFull, G - qFull, Rl - 1);
}

} // namespace

bool accel::codegen::depthwisePostFits(const HardwareDesc &hw,
                                       const DepthwiseLayer &l,
                                       const DepthwisePlan &plan) {
  if (l.post.empty())
    return true;
  return !detail::hasResidual(l.post) && hw.instructionBuffers > 2 &&
         detail::postFits(hw, l.post, postPeRows(hw, plan), plan.owc);
}

void accel::codegen::emitDepthwiseLayer(StreamBuilder &sb,
                                        const DepthwiseLayer &l,
                                        const DepthwisePlan &plan) {
  DepthwiseEmitter(sb, l, plan).emit();
}
