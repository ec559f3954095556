//===- Selection.cpp - The closed-form procedure of spec/tiling.md --------===//
//
// Fig. 5 of the spec with integer, block-aligned sizes:
//   branch F  one matrix fits its buffer: it stays resident, the other is
//             streamed once (S501-S502);
//   branch X  both exceed: reload A (util_1) or reload B (util_2) without
//             split (S503), or split K with the C partition in the
//             accumulation buffer (S504); ties -> no split (S505); the split
//             halves the accumulation buffer while the utilisation holds
//             (S515-S517);
//   then the inner tiles (S512-S514).
// Every candidate is priced by evaluateMapping (CostModel.cpp).
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

#include <cmath>
#include <limits>

using namespace accel::tiling;
using namespace accel::tiling::detail;

namespace {

struct Candidate {
  bool ok = false;
  Mapping map;
  Cost cost;
};

struct Selector {
  const GemmProblem &p;
  const TilingHardware &hw;
  int64_t M, K, N, blk;
  uint64_t d, acc;
  double LA, LB; ///< load_a, load_b (cycles to load each operand once)

  Selector(const GemmProblem &p, const TilingHardware &hw)
      : p(p), hw(hw), M(p.m), K(p.k), N(p.n), blk(hw.blockSize), d(p.elemBytes),
        acc(accElem(p, hw)), LA(double(p.aBytes()) / hw.aBytesPerCycle),
        LB(double(p.bBytes()) / hw.bBytesPerCycle) {}

  Candidate make(const Mapping &m) const {
    Candidate c;
    c.map = m;
    c.cost = evaluateMapping(p, hw, m);
    c.ok = c.cost.legal;
    return c;
  }

  /// Largest block-aligned K chunk for an A tile of pm rows and a B tile of
  /// pn columns (0 if not even one block fits).
  int64_t chunkK(int64_t pm, int64_t pn) const {
    uint64_t lim = std::min(hw.aBufferBytes / (uint64_t(pm) * d),
                            hw.bBufferBytes / (uint64_t(pn) * d));
    return alignDown(lim, K, blk);
  }

  //--- Branch F ------------------------------------------------------------

  /// A resident (partition_m = m, m loop outside), B streamed once with
  /// partition_n = min(b_s2 / (k d_s), n). When not even one block column
  /// of B fits with the whole K, the B stream is cut into K chunks (one
  /// block column wide) and the m x block C strip accumulates in the
  /// accumulation buffer: nothing is reloaded either way.
  Candidate residentA() const {
    int64_t pn = alignDown(hw.bBufferBytes / (uint64_t(K) * d), N, blk);
    if (pn > 0)
      return make({true, M, pn, K});
    pn = std::min(blk, N);
    int64_t pk = alignDown(hw.bBufferBytes / (uint64_t(pn) * d), K, blk);
    if (pk == 0)
      return {};
    return make({true, M, pn, pk});
  }
  Candidate residentB() const {
    int64_t pm = alignDown(hw.aBufferBytes / (uint64_t(K) * d), M, blk);
    if (pm > 0)
      return make({false, pm, N, K});
    pm = std::min(blk, M);
    int64_t pk = alignDown(hw.aBufferBytes / (uint64_t(pm) * d), K, blk);
    if (pk == 0)
      return {};
    return make({false, pm, N, pk});
  }

  //--- Branch X without split (S503) --------------------------------------

  /// Reload A: n loop outside, B strips (k x partition_n, partition_n =
  /// b_s2 / (k d_s)) resident, A streamed once per n partition with
  /// partition_m = b_s1 / (k d_s). When not even one block row of A fits
  /// with the whole K, A is streamed in K chunks one block high and the
  /// block x partition_n partial sums stay in the accumulation buffer
  /// (partition_n shrinks if they would not fit).
  Candidate reloadA() const {
    int64_t pn = alignDown(hw.bBufferBytes / (uint64_t(K) * d), N, blk);
    if (pn == 0)
      return {};
    int64_t pm = alignDown(hw.aBufferBytes / (uint64_t(K) * d), M, blk);
    if (pm > 0)
      return make({false, pm, pn, K});
    pm = std::min(blk, M);
    int64_t pk = alignDown(hw.aBufferBytes / (uint64_t(pm) * d), K, blk);
    if (pk == 0)
      return {};
    pn = std::min(pn,
                  alignDown(hw.accBufferBytes / (uint64_t(pm) * acc), N, blk));
    if (pn == 0)
      return {};
    return make({false, pm, pn, pk});
  }
  Candidate reloadB() const {
    int64_t pm = alignDown(hw.aBufferBytes / (uint64_t(K) * d), M, blk);
    if (pm == 0)
      return {};
    int64_t pn = alignDown(hw.bBufferBytes / (uint64_t(K) * d), N, blk);
    if (pn > 0)
      return make({true, pm, pn, K});
    pn = std::min(blk, N);
    int64_t pk = alignDown(hw.bBufferBytes / (uint64_t(pn) * d), K, blk);
    if (pk == 0)
      return {};
    pm = std::min(pm,
                  alignDown(hw.accBufferBytes / (uint64_t(pn) * acc), M, blk));
    if (pm == 0)
      return {};
    return make({true, pm, pn, pk});
  }

  //--- Branch X with split (S504, calc_util_splitk) -----------------------

  /// Ratio loada_cycle / loadb_cycle of a candidate.
  double ratio(const Cost &c) const {
    return (double(c.loadsA) * LA) / (double(c.loadsB) * LB);
  }

  /// Both loop orders for one (partition_m, partition_n) with the largest K
  /// chunk; the cheaper (ties: m loop outside).
  Candidate splitAt(int64_t pm, int64_t pn) const {
    int64_t pk = chunkK(pm, pn);
    if (pk == 0)
      return {};
    Candidate a = make({true, pm, pn, pk});
    Candidate b = make({false, pm, pn, pk});
    if (!a.ok)
      return b;
    if (b.ok && b.cost.cycles < a.cost.cycles &&
        !nearlyEqual(b.cost.cycles, a.cost.cycles))
      return b;
    return a;
  }

  /// Candidate order: cheaper; then balance closer to 1 (spec (b)); then
  /// fewer partial sums.
  bool preferred(const Candidate &x, const Candidate &y) const {
    if (!y.ok)
      return x.ok;
    if (!x.ok)
      return false;
    if (!nearlyEqual(x.cost.cycles, y.cost.cycles))
      return x.cost.cycles < y.cost.cycles;
    double bx = std::fabs(std::log(ratio(x.cost)));
    double by = std::fabs(std::log(ratio(y.cost)));
    if (!nearlyEqual(bx, by) && std::fabs(bx - by) > 1e-12)
      return bx < by;
    return x.cost.accBytes < y.cost.accBytes;
  }

  /// Smallest legal partition of `dim` that needs at most `count` loads
  /// of the other operand: ceil(dim / count) rounded up to the block.
  int64_t partitionFor(int64_t dim, int64_t count) const {
    int64_t size = ceilDiv(dim, std::max<int64_t>(1, count));
    size = ceilDiv(size, blk) * blk;
    return size >= dim ? dim : size;
  }

  /// calc_util_splitk(acc_buffer). The variables are the spec's integer
  /// load counts: loada_spk (A loads = n partitions) and loadb_spk (B loads
  /// = m partitions) with
  ///   (a) loada * loadb = m * n * acc_elem / acc_buffer (C partition fills
  ///       the buffer),
  ///   (b) loada / loadb as close as possible to the balance
  ///       loada_cycle = loadb_cycle, i.e. loada / loadb =
  ///       n*mata_bw / (m*matb_bw) for dense operands
  ///       (= (b_bytes/matb_bw) / (a_bytes/mata_bw) in general),
  ///   (c) positive integers.
  /// The continuous solution of (a)+(b) is rounded down and up for each
  /// count; each rounded count gives a partition (partition_n = n / loada,
  /// partition_m = m / loadb, S515) rounded up and down to the block, and
  /// the other count is the smallest that keeps the C partition inside the
  /// buffer (at most 8 candidates, each priced with both loop orders).
  /// Then the [0.5, 2] window: while loada_cycle / loadb_cycle is outside
  /// it, halve one count and double the other
  /// (accepted when that brings the ratio closer to 1 without lowering the
  /// utilisation; outside the window after the rounded start only happens
  /// when a dimension or buffer clamp is in the way).
  Candidate splitK(uint64_t accBytes) const {
    if (K <= blk)
      return {};                       // no block-aligned K chunk below k
    const uint64_t E = accBytes / acc; // partial sums the buffer holds
    const uint64_t pmLimit = hw.aBufferBytes / (uint64_t(blk) * d);
    const uint64_t pnLimit = hw.bBufferBytes / (uint64_t(blk) * d);
    const int64_t pmMax = alignDown(pmLimit, M, blk);
    const int64_t pnMax = alignDown(pnLimit, N, blk);
    if (pmMax == 0 || pnMax == 0 || E == 0)
      return {};
    Candidate best;
    auto consider = [&](int64_t pm, int64_t pn) {
      if (pm <= 0 || pn <= 0)
        return;
      Candidate c = splitAt(pm, pn);
      if (preferred(c, best))
        best = c;
    };
    // Largest partitions that still leave room for one block (or the whole
    // dimension, if smaller) of the other.
    const int64_t pnTop =
        std::min(pnMax, alignDown(E / uint64_t(std::min(blk, M)), N, blk));
    const int64_t pmTop =
        std::min(pmMax, alignDown(E / uint64_t(std::min(blk, N)), M, blk));
    if (pnTop == 0 || pmTop == 0)
      return {};
    // A given partition_n -> the fewest B loads that fit, and vice versa.
    auto fromPartitionN = [&](int64_t pn) {
      pn = std::min(std::max(pn, std::min(blk, N)), pnTop);
      int64_t cap =
          alignDown(std::min<uint64_t>(E / uint64_t(pn), pmLimit), M, blk);
      if (cap > 0)
        consider(partitionFor(M, ceilDiv(M, cap)), pn);
    };
    auto fromPartitionM = [&](int64_t pm) {
      pm = std::min(std::max(pm, std::min(blk, M)), pmTop);
      int64_t cap =
          alignDown(std::min<uint64_t>(E / uint64_t(pm), pnLimit), N, blk);
      if (cap > 0)
        consider(pm, partitionFor(N, ceilDiv(N, cap)));
    };
    // Partition for a load count, rounded to the block both ways (block
    // rounding can cost more than a count).
    auto roundings = [&](int64_t dim, int64_t count) {
      int64_t up = partitionFor(dim, count);
      int64_t down = ceilDiv(dim, count) / blk * blk;
      return std::pair<int64_t, int64_t>(up, down >= dim ? dim : down);
    };
    // Continuous optimum: partition_m * partition_n = E with
    // (n / partition_n) * load_a = (m / partition_m) * load_b.
    const double pmStar =
        std::sqrt(double(E) * double(M) * LB / (double(N) * LA));
    const double pnStar = double(E) / pmStar;
    const double laStar = double(N) / pnStar, lbStar = double(M) / pmStar;
    for (double la : {std::floor(laStar), std::ceil(laStar)}) {
      auto [up, down] = roundings(N, std::max<int64_t>(1, int64_t(la)));
      fromPartitionN(up);
      fromPartitionN(down);
    }
    for (double lb : {std::floor(lbStar), std::ceil(lbStar)}) {
      auto [up, down] = roundings(M, std::max<int64_t>(1, int64_t(lb)));
      fromPartitionM(up);
      fromPartitionM(down);
    }
    if (!best.ok)
      return best;
    // The [0.5, 2] window on loada_cycle / loadb_cycle.
    for (int iter = 0; iter < 64; ++iter) {
      double r = ratio(best.cost);
      int64_t la = ceilDiv(N, best.map.partitionN);
      int64_t lb = ceilDiv(M, best.map.partitionM);
      int64_t la2, lb2;
      if (r > 2) { // A reloaded too often
        la2 = la / 2, lb2 = lb * 2;
      } else if (r < 0.5) {
        la2 = la * 2, lb2 = lb / 2;
      } else {
        break;
      }
      if (la2 < 1 || lb2 < 1)
        break;
      int64_t pm2 = std::min(partitionFor(M, lb2), pmMax);
      int64_t pn2 = std::min(partitionFor(N, la2), pnMax);
      if (pm2 == best.map.partitionM && pn2 == best.map.partitionN)
        break;
      if (!fits(pm2, pn2, acc, accBytes))
        break;
      Candidate c = splitAt(pm2, pn2);
      if (!c.ok || c.cost.util < best.cost.util ||
          std::fabs(std::log(ratio(c.cost))) >= std::fabs(std::log(r)))
        break;
      best = c;
    }
    return best;
  }
};

} // namespace

TileDecision accel::tiling::selectTiling(const GemmProblem &p,
                                         const TilingHardware &hw) {
  TileDecision out;
  std::string err;
  if (!validateProblem(p, err) || !validateTilingHardware(hw, err)) {
    out.error = err;
    return out;
  }
  Selector s(p, hw);
  const uint64_t d = p.elemBytes;

  // S501-S502: does a matrix fit its buffer?
  const bool fitsA = fits(p.m, p.k, d, hw.aBufferBytes);
  const bool fitsB = fits(p.k, p.n, d, hw.bBufferBytes);
  if (fitsA || fitsB) {
    // Both fit: the spec's m < n rule; otherwise the one that fits.
    bool preferA = fitsA && (!fitsB || p.m < p.n);
    Candidate first = preferA ? s.residentA() : s.residentB();
    Candidate second;
    if (!first.ok && (preferA ? fitsB : fitsA))
      second = preferA ? s.residentB() : s.residentA();
    const Candidate &c = first.ok ? first : second;
    if (c.ok) {
      out = decisionFromMapping(p, hw, c.map);
      out.branch = Branch::F;
      return out;
    }
    // Not realisable with block-aligned tiles (e.g. the streamed operand's
    // partial sums do not fit): fall through to branch X.
  }

  // S503: no split.
  Candidate r1 = s.reloadA(), r2 = s.reloadB();
  double util1 = r1.ok ? r1.cost.util : 0, util2 = r2.ok ? r2.cost.util : 0;
  Candidate noSplit;
  if (r1.ok || r2.ok) {
    if (!r2.ok)
      noSplit = r1;
    else if (!r1.ok)
      noSplit = r2;
    else if (!nearlyEqual(util1, util2))
      noSplit = util1 > util2 ? r1 : r2;
    else // S506: mata_bw < matb_bw -> flag 1, reload B; else reload A
      noSplit = hw.aBytesPerCycle < hw.bBytesPerCycle ? r2 : r1;
  }
  const double utilNoSplit = noSplit.ok ? noSplit.cost.util : 0;

  // S504: split at acc_buffer_max, then S515-S517: halve while it holds.
  std::vector<HalvingStep> trace;
  Candidate split = s.splitK(hw.accBufferBytes);
  trace.push_back(
      {hw.accBufferBytes, split.ok ? split.cost.util : 0, split.ok});
  const double utilSplit = split.ok ? split.cost.util : 0;
  uint64_t accNeeded = hw.accBufferBytes;
  if (split.ok) {
    const uint64_t lowerBound =
        uint64_t(hw.blockSize) * uint64_t(hw.blockSize) * accElem(p, hw);
    for (uint64_t a = hw.accBufferBytes / 2; a >= lowerBound && a > 0; a /= 2) {
      Candidate c = s.splitK(a);
      trace.push_back({a, c.ok ? c.cost.util : 0, c.ok});
      if (!c.ok || !nearlyEqual(c.cost.util, utilSplit))
        break;
      split = c;
      accNeeded = a;
    }
  }

  // S505: ties -> no split.
  bool useSplit =
      split.ok && (!noSplit.ok || (utilSplit > utilNoSplit &&
                                   !nearlyEqual(utilSplit, utilNoSplit)));
  if (!noSplit.ok && !split.ok) {
    out.error = "no block-aligned tiling fits the buffers (b_s1 = " +
                std::to_string(hw.aBufferBytes) +
                ", b_s2 = " + std::to_string(hw.bBufferBytes) +
                ", acc = " + std::to_string(hw.accBufferBytes) + " bytes)";
    out.branch = Branch::X;
    out.halving = trace;
    return out;
  }
  const Candidate &chosen = useSplit ? split : noSplit;
  out = decisionFromMapping(p, hw, chosen.map);
  out.branch = Branch::X;
  out.util1 = util1;
  out.util2 = util2;
  out.utilNoSplitK = utilNoSplit;
  out.utilSplitK = utilSplit;
  out.halving = trace;
  if (useSplit && out.needSplitK)
    out.accBufferNeeded = accNeeded;
  return out;
}
