//===- CostModel.cpp - The spec's cost model for any mapping --------------===//
//
// evaluateMapping is the single cost function: the selection, the
// exhaustive search, the baselines and the schedule walker all use it, so
// "selected vs exhaustive" compares like with like.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

using namespace accel::tiling;
using namespace accel::tiling::detail;

uint64_t GemmProblem::aBytes() const {
  return aLoadBytes ? aLoadBytes
                    : uint64_t(m) * uint64_t(k) * uint64_t(elemBytes);
}
uint64_t GemmProblem::bBytes() const {
  return bLoadBytes ? bLoadBytes
                    : uint64_t(k) * uint64_t(n) * uint64_t(elemBytes);
}

const char *accel::tiling::branchName(Branch b) {
  return b == Branch::F ? "F" : "X";
}

const char *accel::tiling::strategyName(Strategy s) {
  switch (s) {
  case Strategy::ResidentA:
    return "resident-a";
  case Strategy::ResidentB:
    return "resident-b";
  case Strategy::ReloadA:
    return "reload-a";
  case Strategy::ReloadB:
    return "reload-b";
  case Strategy::SplitK:
    return "split-k";
  }
  return "?";
}

bool accel::tiling::detail::validateProblem(const GemmProblem &p,
                                            std::string &err) {
  constexpr int64_t kMax = int64_t(1) << 31;
  if (p.m <= 0 || p.k <= 0 || p.n <= 0) {
    err = "m, k and n must be >= 1";
    return false;
  }
  if (p.m > kMax || p.k > kMax || p.n > kMax) {
    err = "m, k and n must be <= 2^31";
    return false;
  }
  if (p.elemBytes == 0 || p.elemBytes > 64) {
    err = "element size must be 1..64 bytes";
    return false;
  }
  if (p.count <= 0) {
    err = "count must be >= 1";
    return false;
  }
  return true;
}

bool accel::tiling::validateTilingHardware(const TilingHardware &hw,
                                           std::string &err) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!positive(hw.macsPerCycle)) {
    err = "hw_power (macs per cycle) must be > 0";
    return false;
  }
  if (!positive(hw.aBytesPerCycle) || !positive(hw.bBytesPerCycle)) {
    err = "operand bandwidths must be > 0";
    return false;
  }
  if (hw.aBufferBytes == 0 || hw.bBufferBytes == 0) {
    err = "input buffers must be > 0 bytes";
    return false;
  }
  if (hw.blockSize <= 0 || hw.blockSize > (int64_t(1) << 16)) {
    err = "block size must be 1..65536";
    return false;
  }
  if (hw.accElemBytes > 64) {
    err = "accumulator element size must be 0..64 bytes";
    return false;
  }
  return true;
}

Cost accel::tiling::evaluateMapping(const GemmProblem &p,
                                    const TilingHardware &hw,
                                    const Mapping &map) {
  Cost c;
  std::string err;
  if (!validateProblem(p, err) || !validateTilingHardware(hw, err)) {
    c.why = "invalid problem or hardware";
    return c;
  }
  const int64_t M = p.m, K = p.k, N = p.n, blk = hw.blockSize;
  const uint64_t d = p.elemBytes, acc = accElem(p, hw);
  const int64_t pm = map.partitionM, pn = map.partitionN, pk = map.partitionK;
  if (!aligned(pm, M, blk)) {
    c.why = "partition_m is neither m nor a block multiple below m";
    return c;
  }
  if (!aligned(pn, N, blk)) {
    c.why = "partition_n is neither n nor a block multiple below n";
    return c;
  }
  if (!aligned(pk, K, blk)) {
    c.why = "partition_k is neither k nor a block multiple below k";
    return c;
  }
  if (!fits(pm, pk, d, hw.aBufferBytes)) {
    c.why = "A tile exceeds b_s1";
    return c;
  }
  if (!fits(pk, pn, d, hw.bBufferBytes)) {
    c.why = "B tile exceeds b_s2";
    return c;
  }
  const int64_t nM = ceilDiv(M, pm), nN = ceilDiv(N, pn), nK = ceilDiv(K, pk);
  c.splitK = nK > 1;
  if (c.splitK) {
    if (!fits(pm, pn, acc, hw.accBufferBytes)) {
      c.why = "C partition exceeds acc_buffer_max";
      return c;
    }
    c.accBytes = uint64_t(pm) * uint64_t(pn) * acc;
  }
  const bool stripA = fits(pm, K, d, hw.aBufferBytes);
  const bool stripB = fits(K, pn, d, hw.bBufferBytes);
  if (map.outerRowMajor) {
    c.residentA = stripA;
    c.residentB = nN == 1 && stripB;
  } else {
    c.residentB = stripB;
    c.residentA = nM == 1 && stripA;
  }
  c.loadsA = c.residentA ? 1 : nN;
  c.loadsB = c.residentB ? 1 : nM;
  c.gemmCycles = double(M) * double(K) * double(N) / hw.macsPerCycle;
  c.loadACycles = double(p.aBytes()) / hw.aBytesPerCycle;
  c.loadBCycles = double(p.bBytes()) / hw.bBytesPerCycle;
  double one = std::max({c.gemmCycles, double(c.loadsA) * c.loadACycles,
                         double(c.loadsB) * c.loadBCycles});
  c.util = c.gemmCycles / one;
  c.cycles = one * double(p.count);
  c.legal = true;
  return c;
}

void accel::tiling::innerTiles(const GemmProblem &p, const TilingHardware &hw,
                               int64_t partitionM, int64_t partitionN,
                               int64_t &tileM, int64_t &tileN) {
  const int64_t blk = hw.blockSize;
  const int64_t blocksM = ceilDiv(partitionM, blk);
  const int64_t blocksN = ceilDiv(partitionN, blk);
  // sync_granularity / (2 * d_s), as printed in S512-S514.
  const int64_t g =
      int64_t(hw.syncGranularityBytes / (2 * uint64_t(p.elemBytes)));
  int64_t tmb = std::max<int64_t>(1, std::min(g, blocksM));
  int64_t tnb = std::max<int64_t>(1, g / tmb);
  tnb = std::min(tnb, blocksN);
  tileM = std::min(tmb * blk, partitionM);
  tileN = std::min(tnb * blk, partitionN);
}

TileDecision accel::tiling::decisionFromMapping(const GemmProblem &p,
                                                const TilingHardware &hw,
                                                const Mapping &map) {
  TileDecision d;
  d.partitionM = map.partitionM;
  d.partitionN = map.partitionN;
  d.partitionK = map.partitionK;
  d.outerRowMajor = map.outerRowMajor;
  d.innerRowMajor = hw.innerRowMajor;
  Cost c = evaluateMapping(p, hw, map);
  if (!c.legal) {
    d.feasible = false;
    d.error = c.why;
    return d;
  }
  d.feasible = true;
  const uint64_t ds = p.elemBytes;
  bool fitsA = fits(p.m, p.k, ds, hw.aBufferBytes);
  bool fitsB = fits(p.k, p.n, ds, hw.bBufferBytes);
  d.branch = fitsA || fitsB ? Branch::F : Branch::X;
  // Both loaded once: a resident operand (branch F, possibly with its
  // partner streamed in K chunks), or a split whose C partition is all of C.
  if (c.loadsA == 1 && c.loadsB == 1 &&
      (!c.splitK || (map.outerRowMajor ? c.residentA : c.residentB)))
    d.strategy = map.outerRowMajor ? Strategy::ResidentA : Strategy::ResidentB;
  else if (c.loadsA == 1 && c.loadsB == 1)
    d.strategy = Strategy::SplitK;
  else if (c.loadsA == 1)
    d.strategy = Strategy::ReloadB;
  else if (c.loadsB == 1)
    d.strategy = Strategy::ReloadA;
  else
    d.strategy = Strategy::SplitK;
  d.needSplitK = c.splitK;
  d.accBufferFlag = c.splitK;
  d.accBufferNeeded = c.accBytes;
  d.accBytesUsed = c.accBytes;
  d.loadA = c.loadsA;
  d.loadB = c.loadsB;
  d.util = c.util;
  d.gemmCycles = c.gemmCycles;
  d.loadACycles = c.loadACycles;
  d.loadBCycles = c.loadBCycles;
  d.cycles = c.cycles;
  innerTiles(p, hw, map.partitionM, map.partitionN, d.tileM, d.tileN);
  return d;
}

void accel::tiling::forEachPartitionStep(
    const GemmProblem &p, const TilingHardware &hw, const TileDecision &d,
    const std::function<void(const PartitionStep &)> &fn) {
  if (!d.feasible)
    return;
  Cost c = evaluateMapping(p, hw, d.mapping());
  if (!c.legal)
    return;
  const int64_t pm = d.partitionM, pn = d.partitionN, pk = d.partitionK;
  const int64_t nM = ceilDiv(p.m, pm), nN = ceilDiv(p.n, pn),
                nK = ceilDiv(p.k, pk);
  auto step = [&](int64_t mi, int64_t ni, int64_t ki) {
    PartitionStep s;
    s.m0 = mi * pm;
    s.m = std::min(pm, p.m - s.m0);
    s.n0 = ni * pn;
    s.n = std::min(pn, p.n - s.n0);
    s.k0 = ki * pk;
    s.k = std::min(pk, p.k - s.k0);
    s.firstK = ki == 0;
    s.lastK = ki + 1 == nK;
    // A resident strip: brought in during the first visit of its m
    // partition (the first n partition when m is outside, the only m
    // partition otherwise); likewise for B.
    s.loadA = !c.residentA || ni == 0;
    s.loadB = !c.residentB || mi == 0;
    fn(s);
  };
  if (d.outerRowMajor) {
    for (int64_t mi = 0; mi < nM; ++mi)
      for (int64_t ni = 0; ni < nN; ++ni)
        for (int64_t ki = 0; ki < nK; ++ki)
          step(mi, ni, ki);
  } else {
    for (int64_t ni = 0; ni < nN; ++ni)
      for (int64_t mi = 0; mi < nM; ++mi)
        for (int64_t ki = 0; ki < nK; ++ki)
          step(mi, ni, ki);
  }
}

void accel::tiling::forEachInnerTile(
    const TileDecision &d, const PartitionStep &s,
    const std::function<void(int64_t, int64_t, int64_t, int64_t)> &fn) {
  if (d.tileM <= 0 || d.tileN <= 0)
    return;
  if (d.innerRowMajor) {
    for (int64_t i = 0; i < s.m; i += d.tileM)
      for (int64_t j = 0; j < s.n; j += d.tileN)
        fn(s.m0 + i, std::min(d.tileM, s.m - i), s.n0 + j,
           std::min(d.tileN, s.n - j));
  } else {
    for (int64_t j = 0; j < s.n; j += d.tileN)
      for (int64_t i = 0; i < s.m; i += d.tileM)
        fn(s.m0 + i, std::min(d.tileM, s.m - i), s.n0 + j,
           std::min(d.tileN, s.n - j));
  }
}
