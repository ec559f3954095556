//===- Exhaustive.cpp - Brute force over the legal mapping space ----------===//
//
// Both loop orders x every legal partition_m, partition_n, partition_k
// (block multiples below the dimension, or the dimension), priced by the
// same evaluateMapping as the selection. The loops stop as soon as a tile
// stops fitting its buffer (tile sizes only grow along each loop), so every
// legal mapping is visited and nothing else but the first misfit.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

using namespace accel::tiling;
using namespace accel::tiling::detail;

namespace {

/// Next legal size along a dimension: block multiples, then the dimension.
int64_t nextSize(int64_t s, int64_t dim, int64_t blk) {
  if (s >= dim)
    return dim + 1; // past the end
  int64_t t = s + blk;
  return t >= dim ? dim : t;
}
int64_t firstSize(int64_t dim, int64_t blk) { return std::min(blk, dim); }

struct Best {
  bool ok = false;
  Mapping map;
  Cost cost;
};

/// Strictly better under the documented tie order.
bool better(const Mapping &xm, const Cost &x, const Best &b) {
  if (!b.ok)
    return true;
  const Cost &y = b.cost;
  if (!nearlyEqual(x.cycles, y.cycles, 1e-12))
    return x.cycles < y.cycles;
  if (x.splitK != y.splitK)
    return !x.splitK;
  if (x.accBytes != y.accBytes)
    return x.accBytes < y.accBytes;
  if (xm.partitionK != b.map.partitionK)
    return xm.partitionK > b.map.partitionK;
  int64_t ax = xm.partitionM * xm.partitionN,
          ay = b.map.partitionM * b.map.partitionN;
  if (ax != ay)
    return ax > ay;
  return xm.outerRowMajor && !b.map.outerRowMajor;
}

} // namespace

TileDecision accel::tiling::exhaustiveTiling(const GemmProblem &p,
                                             const TilingHardware &hw,
                                             ExhaustiveStats *stats) {
  TileDecision out;
  std::string err;
  if (!validateProblem(p, err) || !validateTilingHardware(hw, err)) {
    out.error = err;
    return out;
  }
  const int64_t M = p.m, K = p.k, N = p.n, blk = hw.blockSize;
  const uint64_t d = p.elemBytes;
  ExhaustiveStats st;
  Best best;
  const int64_t kMin = firstSize(K, blk);
  for (bool rowMajor : {true, false}) {
    for (int64_t pm = firstSize(M, blk); pm <= M; pm = nextSize(pm, M, blk)) {
      if (!fits(pm, kMin, d, hw.aBufferBytes))
        break;
      for (int64_t pn = firstSize(N, blk); pn <= N; pn = nextSize(pn, N, blk)) {
        if (!fits(kMin, pn, d, hw.bBufferBytes))
          break;
        for (int64_t pk = kMin; pk <= K; pk = nextSize(pk, K, blk)) {
          if (!fits(pm, pk, d, hw.aBufferBytes) ||
              !fits(pk, pn, d, hw.bBufferBytes))
            break;
          Mapping m{rowMajor, pm, pn, pk};
          ++st.visited;
          Cost c = evaluateMapping(p, hw, m);
          if (!c.legal)
            continue; // partial sums exceed the accumulation buffer
          ++st.legal;
          if (better(m, c, best)) {
            best.ok = true;
            best.map = m;
            best.cost = c;
          }
        }
      }
    }
  }
  if (stats)
    *stats = st;
  if (!best.ok) {
    out.error = "no block-aligned tiling fits the buffers";
    return out;
  }
  return decisionFromMapping(p, hw, best.map);
}

TileDecision accel::tiling::baselineTiling(const GemmProblem &p,
                                           const TilingHardware &hw,
                                           Baseline b) {
  TileDecision out;
  std::string err;
  if (!validateProblem(p, err) || !validateTilingHardware(hw, err)) {
    out.error = err;
    return out;
  }
  const int64_t M = p.m, K = p.k, N = p.n, blk = hw.blockSize;
  const uint64_t d = p.elemBytes, acc = accElem(p, hw);
  auto withLargestChunk = [&](int64_t pm, int64_t pn) {
    TileDecision t;
    if (pm <= 0 || pn <= 0) {
      t.error = "one block does not fit the buffers";
      return t;
    }
    uint64_t lim = std::min(hw.aBufferBytes / (uint64_t(pm) * d),
                            hw.bBufferBytes / (uint64_t(pn) * d));
    int64_t pk = alignDown(lim, K, blk);
    if (pk == 0) {
      t.error = "one block does not fit the buffers";
      return t;
    }
    return decisionFromMapping(p, hw, {true, pm, pn, pk});
  };
  switch (b) {
  case Baseline::FixedOrderNoSplit: {
    int64_t pm = alignDown(hw.aBufferBytes / (uint64_t(K) * d), M, blk);
    int64_t pn = alignDown(hw.bBufferBytes / (uint64_t(K) * d), N, blk);
    if (pm > 0 && pn > 0)
      return decisionFromMapping(p, hw, {true, pm, pn, K});
    // No full-K tile fits and there is no split-K: only the block the GEMM
    // unit accumulates itself carries partial sums across K chunks.
    return withLargestChunk(std::min(blk, M), std::min(blk, N));
  }
  case Baseline::FixedBlockTiles:
    return withLargestChunk(std::min(blk, M), std::min(blk, N));
  case Baseline::SquareSplitK: {
    const uint64_t side = uint64_t(std::sqrt(double(hw.accBufferBytes / acc)));
    const uint64_t pmLim = hw.aBufferBytes / (uint64_t(blk) * d);
    const uint64_t pnLim = hw.bBufferBytes / (uint64_t(blk) * d);
    const int64_t sq = std::max<int64_t>(blk, int64_t(side) / blk * blk);
    int64_t pm = alignDown(std::min<uint64_t>(sq, pmLim), M, blk);
    int64_t pn = alignDown(std::min<uint64_t>(sq, pnLim), N, blk);
    if (pm > 0 && pn > 0) {
      // Room a clamped side leaves goes to the other one.
      pm = alignDown(
          std::min<uint64_t>(hw.accBufferBytes / (uint64_t(pn) * acc), pmLim),
          M, blk);
      if (pm > 0)
        pn = alignDown(
            std::min<uint64_t>(hw.accBufferBytes / (uint64_t(pm) * acc), pnLim),
            N, blk);
    }
    TileDecision t = withLargestChunk(pm, pn);
    if (t.feasible)
      return t;
    return withLargestChunk(std::min(blk, M), std::min(blk, N));
  }
  }
  out.error = "unknown baseline";
  return out;
}
