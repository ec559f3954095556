//===- TileSelectionTest.cpp - spec/tiling.md, branch by branch -----------===//
//
// Hand-computed values for every branch (the spec's worked example
// included), the closed forms, ties, the halving stop rule, invariants of
// every decision (buffers never overflow, every element computed once, load
// counts >= 1), the convolution mapping and the hardware derivation.
//
//===----------------------------------------------------------------------===//
#include "TilingTestUtil.h"

#include "accel/Hardware/HardwareDesc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace accel;
using namespace accel::tiling;
using namespace accel::tiling::test;

namespace {

/// P = 1024 MACs/cycle, mata_bw = 16, matb_bw = 32 B/cycle, 256 KiB
/// buffers, d_s = 2 (hand-computed branch F / X cases).
TilingHardware smallHw() {
  TilingHardware hw;
  hw.macsPerCycle = 1024;
  hw.aBytesPerCycle = 16;
  hw.bBytesPerCycle = 32;
  hw.aBufferBytes = 256 << 10;
  hw.bBufferBytes = 256 << 10;
  hw.accBufferBytes = 256 << 10;
  hw.accElemBytes = 0;
  return hw;
}

bool alignedTo(int64_t size, int64_t dim, int64_t blk) {
  return size == dim || (size > 0 && size < dim && size % blk == 0);
}

/// Every invariant a feasible decision must satisfy, checked on the
/// decision itself and on the loop nest it stands for.
void checkInvariants(const GemmProblem &p, const TilingHardware &hw,
                     const TileDecision &d, bool elementLevel) {
  ASSERT_TRUE(d.feasible) << d.error;
  const int64_t M = p.m, K = p.k, N = p.n, blk = hw.blockSize;
  const uint64_t ds = p.elemBytes;
  const uint64_t acc = hw.accElemBytes ? hw.accElemBytes : ds;
  // Integer, block-aligned sizes.
  EXPECT_TRUE(alignedTo(d.partitionM, M, blk)) << d.partitionM;
  EXPECT_TRUE(alignedTo(d.partitionN, N, blk)) << d.partitionN;
  EXPECT_TRUE(alignedTo(d.partitionK, K, blk)) << d.partitionK;
  EXPECT_GE(d.tileM, 1);
  EXPECT_GE(d.tileN, 1);
  EXPECT_LE(d.tileM, d.partitionM);
  EXPECT_LE(d.tileN, d.partitionN);
  EXPECT_TRUE(d.tileM % blk == 0 || d.tileM == d.partitionM);
  EXPECT_TRUE(d.tileN % blk == 0 || d.tileN == d.partitionN);
  // Buffers: tiles fit, partial sums fit.
  EXPECT_LE(uint64_t(d.partitionM) * d.partitionK * ds, hw.aBufferBytes);
  EXPECT_LE(uint64_t(d.partitionK) * d.partitionN * ds, hw.bBufferBytes);
  EXPECT_EQ(d.needSplitK, d.partitionK < K);
  EXPECT_EQ(d.accBufferFlag, d.needSplitK);
  if (d.needSplitK) {
    EXPECT_EQ(d.accBytesUsed, uint64_t(d.partitionM) * d.partitionN * acc);
    EXPECT_LE(d.accBytesUsed, d.accBufferNeeded);
    EXPECT_LE(d.accBufferNeeded, hw.accBufferBytes);
  } else {
    EXPECT_EQ(d.accBytesUsed, 0u);
    EXPECT_EQ(d.accBufferNeeded, 0u);
  }
  // Load counts.
  const int64_t nM = (M + d.partitionM - 1) / d.partitionM;
  const int64_t nN = (N + d.partitionN - 1) / d.partitionN;
  EXPECT_GE(d.loadA, 1);
  EXPECT_GE(d.loadB, 1);
  EXPECT_LE(d.loadA, nN);
  EXPECT_LE(d.loadB, nM);
  EXPECT_GT(d.util, 0);
  EXPECT_LE(d.util, 1);
  EXPECT_NEAR(d.cycles, double(p.count) * d.gemmCycles / d.util,
              1e-9 * d.cycles);
  EXPECT_NEAR(d.cycles / double(p.count),
              std::max({d.gemmCycles, d.loadA * d.loadACycles,
                        d.loadB * d.loadBCycles}),
              1e-9 * d.cycles);

  // The loop nest: every (m, n, k) computed once, loads as modelled,
  // resident strips fit (walked when it has at most 100k steps).
  const int64_t nK = (K + d.partitionK - 1) / d.partitionK;
  if (nM * nN * nK > 100000)
    return;
  std::map<std::pair<int64_t, int64_t>, int64_t> depth; // (m0, n0) -> k done
  uint64_t volume = 0, aLoaded = 0, bLoaded = 0;
  bool aKept = false, bKept = false;
  std::vector<int32_t> cover;
  if (elementLevel)
    cover.assign(size_t(M * N), 0);
  forEachPartitionStep(p, hw, d, [&](const PartitionStep &s) {
    EXPECT_GE(s.m, 1);
    EXPECT_GE(s.n, 1);
    EXPECT_GE(s.k, 1);
    int64_t &done = depth[{s.m0, s.n0}];
    EXPECT_EQ(s.k0, done) << "K chunks out of order";
    EXPECT_EQ(s.firstK, s.k0 == 0);
    EXPECT_EQ(s.lastK, s.k0 + s.k == K);
    done += s.k;
    volume += uint64_t(s.m) * s.n * s.k;
    if (s.loadA)
      aLoaded += uint64_t(s.m) * s.k;
    else
      aKept = true;
    if (s.loadB)
      bLoaded += uint64_t(s.k) * s.n;
    else
      bKept = true;
    if (elementLevel)
      forEachInnerTile(d, s, [&](int64_t m0, int64_t m, int64_t n0, int64_t n) {
        EXPECT_GE(m0, s.m0);
        EXPECT_LE(m0 + m, s.m0 + s.m);
        EXPECT_GE(n0, s.n0);
        EXPECT_LE(n0 + n, s.n0 + s.n);
        EXPECT_LE(m, d.tileM);
        EXPECT_LE(n, d.tileN);
        for (int64_t i = m0; i < m0 + m; ++i)
          for (int64_t j = n0; j < n0 + n; ++j)
            cover[size_t(i * N + j)] += int32_t(s.k);
      });
  });
  EXPECT_EQ(volume, uint64_t(M) * K * N);
  for (auto &[mn, k] : depth)
    EXPECT_EQ(k, K);
  EXPECT_EQ(int64_t(depth.size()), nM * nN);
  EXPECT_EQ(aLoaded, uint64_t(d.loadA) * M * K);
  EXPECT_EQ(bLoaded, uint64_t(d.loadB) * K * N);
  // A tile reused across steps must have stayed in the buffer with its
  // whole strip (k rows of the partition).
  if (aKept) {
    EXPECT_LE(uint64_t(d.partitionM) * K * ds, hw.aBufferBytes);
  }
  if (bKept) {
    EXPECT_LE(uint64_t(K) * d.partitionN * ds, hw.bBufferBytes);
  }
  if (elementLevel) {
    for (int32_t c : cover)
      ASSERT_EQ(c, K) << "an element is not computed exactly once";
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// The spec's worked example
//===----------------------------------------------------------------------===//

// m=1024, k=4096, n=4096: no split is impossible with 64-blocks (the
// no-split partition b_s/(k d_s) = 32 rows is half a block), split K: at
// 256 KiB and 128 KiB util 1, at 64 KiB it drops -> acc_buffer_needed =
// 128 KiB, loada = loadb = 8, partitions 128 / 512 / 256.
TEST(TilingSpecExample, SplitAt128KiB) {
  GemmProblem p = gemm(1024, 4096, 4096);
  TilingHardware hw = specExampleHw();
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.branch, Branch::X);
  EXPECT_EQ(d.strategy, Strategy::SplitK);
  EXPECT_TRUE(d.needSplitK);
  EXPECT_TRUE(d.accBufferFlag);
  EXPECT_EQ(d.partitionM, 128);
  EXPECT_EQ(d.partitionN, 512);
  EXPECT_EQ(d.partitionK, 256);
  EXPECT_EQ(d.loadA, 8);
  EXPECT_EQ(d.loadB, 8);
  EXPECT_EQ(d.accBufferNeeded, 128u << 10);
  EXPECT_EQ(d.accBytesUsed, 128u << 10);
  EXPECT_DOUBLE_EQ(d.util, 1.0);
  EXPECT_DOUBLE_EQ(d.utilSplitK, 1.0);
  // Loads and gemm each 1,048,576 cycles.
  EXPECT_DOUBLE_EQ(d.gemmCycles, 1048576);
  EXPECT_DOUBLE_EQ(d.loadA * d.loadACycles, 1048576);
  EXPECT_DOUBLE_EQ(d.loadB * d.loadBCycles, 1048576);
  EXPECT_DOUBLE_EQ(d.cycles, 1048576);
  // No legal no-split mapping with 64-blocks.
  EXPECT_EQ(d.util1, 0);
  EXPECT_EQ(d.util2, 0);
  EXPECT_EQ(d.utilNoSplitK, 0);
  // Halving: 256 KiB (1), 128 KiB (1), 64 KiB (below 1 -> stop).
  ASSERT_EQ(d.halving.size(), 3u);
  EXPECT_EQ(d.halving[0].accBytes, 256u << 10);
  EXPECT_EQ(d.halving[1].accBytes, 128u << 10);
  EXPECT_EQ(d.halving[2].accBytes, 64u << 10);
  EXPECT_DOUBLE_EQ(d.halving[0].util, 1.0);
  EXPECT_DOUBLE_EQ(d.halving[1].util, 1.0);
  // The spec's continuous value is 1/sqrt(2) = 0.707; the best integer
  // pair (64 x 512 or 128 x 256 blocks) reaches 0.5.
  EXPECT_DOUBLE_EQ(d.halving[2].util, 0.5);
  EXPECT_LT(d.halving[2].util, std::sqrt(0.5) + 1e-12);
  checkInvariants(p, hw, d, false);
}

// With 32-element blocks the spec's no-split partition (32) is legal and
// the S503 values are the spec's: util_1 0.0625, util_2 0.25.
TEST(TilingSpecExample, NoSplitUtilisations) {
  GemmProblem p = gemm(1024, 4096, 4096);
  TilingHardware hw = specExampleHw();
  hw.blockSize = 32;
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_DOUBLE_EQ(d.util1, 0.0625);
  EXPECT_DOUBLE_EQ(d.util2, 0.25);
  EXPECT_DOUBLE_EQ(d.utilNoSplitK, 0.25);
  EXPECT_DOUBLE_EQ(d.utilSplitK, 1.0);
  // Split wins and lands on the same point.
  EXPECT_EQ(d.strategy, Strategy::SplitK);
  EXPECT_EQ(d.partitionM, 128);
  EXPECT_EQ(d.partitionN, 512);
  EXPECT_EQ(d.partitionK, 256);
  EXPECT_EQ(d.loadA, 8);
  EXPECT_EQ(d.loadB, 8);
  EXPECT_EQ(d.accBufferNeeded, 128u << 10);
  ASSERT_EQ(d.halving.size(), 3u);
  EXPECT_LT(d.halving[2].util, 1.0);
  checkInvariants(p, hw, d, false);
}

// m=4096, k=256, n=4096: util_nosplitk = util_splitk = 1 -> no split.
TEST(TilingSpecExample, TieMeansNoSplit) {
  GemmProblem p = gemm(4096, 256, 4096);
  TilingHardware hw = specExampleHw();
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.branch, Branch::X);
  EXPECT_DOUBLE_EQ(d.utilNoSplitK, 1.0);
  EXPECT_DOUBLE_EQ(d.utilSplitK, 1.0);
  EXPECT_FALSE(d.needSplitK);
  EXPECT_FALSE(d.accBufferFlag);
  EXPECT_EQ(d.accBufferNeeded, 0u);
  // util_1 = util_2 = 1 too; mata_bw 64 < matb_bw 256 -> flag 1, reload B.
  EXPECT_DOUBLE_EQ(d.util1, 1.0);
  EXPECT_DOUBLE_EQ(d.util2, 1.0);
  EXPECT_EQ(d.strategy, Strategy::ReloadB);
  EXPECT_TRUE(d.outerRowMajor);
  // partition = b_s / (k d_s) = 512 for both; K not split.
  EXPECT_EQ(d.partitionM, 512);
  EXPECT_EQ(d.partitionN, 512);
  EXPECT_EQ(d.partitionK, 256);
  EXPECT_EQ(d.loadA, 1);
  EXPECT_EQ(d.loadB, 8);
  EXPECT_DOUBLE_EQ(d.util, 1.0);
  checkInvariants(p, hw, d, false);
}

//===----------------------------------------------------------------------===//
// Branch F
//===----------------------------------------------------------------------===//

TEST(TilingBranchF, AResident) {
  // A = 32x512x2 = 32 KiB fits; partition_n = 256 KiB / (512*2) = 256.
  GemmProblem p = gemm(32, 512, 8192);
  TilingHardware hw = smallHw();
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.branch, Branch::F);
  EXPECT_EQ(d.strategy, Strategy::ResidentA);
  EXPECT_TRUE(d.outerRowMajor);
  EXPECT_EQ(d.partitionM, 32);
  EXPECT_EQ(d.partitionN, 256);
  EXPECT_EQ(d.partitionK, 512);
  EXPECT_FALSE(d.needSplitK);
  EXPECT_EQ(d.accBufferNeeded, 0u);
  EXPECT_EQ(d.loadA, 1);
  EXPECT_EQ(d.loadB, 1);
  // gemm = 32*512*8192/1024 = 131072; load_b = 8 MiB / 32 = 262144.
  EXPECT_DOUBLE_EQ(d.gemmCycles, 131072);
  EXPECT_DOUBLE_EQ(d.loadBCycles, 262144);
  EXPECT_DOUBLE_EQ(d.cycles, 262144);
  // Closed form min(1, n bwA/(P d), m bwB/(P d)) = min(1, 64, 0.5).
  EXPECT_DOUBLE_EQ(d.util, 0.5);
  // Inner tiles: sync/(2 d) = 1024; 1 block of m, min(1024, 4) blocks of n.
  EXPECT_EQ(d.tileM, 32);
  EXPECT_EQ(d.tileN, 256);
  EXPECT_FALSE(d.innerRowMajor);
  checkInvariants(p, hw, d, true);
}

TEST(TilingBranchF, BResident) {
  // B = 512x64x2 = 64 KiB fits, A = 8 MiB does not.
  GemmProblem p = gemm(8192, 512, 64);
  TilingHardware hw = smallHw();
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.branch, Branch::F);
  EXPECT_EQ(d.strategy, Strategy::ResidentB);
  EXPECT_FALSE(d.outerRowMajor);
  EXPECT_EQ(d.partitionN, 64);
  EXPECT_EQ(d.partitionM, 256); // 256 KiB / (512*2)
  EXPECT_EQ(d.partitionK, 512);
  EXPECT_EQ(d.loadA, 1);
  EXPECT_EQ(d.loadB, 1);
  // min(1, 64*16/2048, 8192*32/2048) = 0.5
  EXPECT_DOUBLE_EQ(d.util, 0.5);
  checkInvariants(p, hw, d, false);
}

TEST(TilingBranchF, BothFitUseMLessThanN) {
  TilingHardware hw = smallHw();
  TileDecision a = selectTiling(gemm(64, 64, 128), hw);
  EXPECT_EQ(a.strategy, Strategy::ResidentA);
  EXPECT_TRUE(a.outerRowMajor);
  EXPECT_EQ(a.partitionM, 64);
  EXPECT_EQ(a.partitionN, 128);
  TileDecision b = selectTiling(gemm(128, 64, 64), hw);
  EXPECT_EQ(b.strategy, Strategy::ResidentB);
  EXPECT_FALSE(b.outerRowMajor);
  // m == n: the spec's else branch (B resident, flag 0).
  TileDecision c = selectTiling(gemm(128, 64, 128), hw);
  EXPECT_EQ(c.strategy, Strategy::ResidentB);
  for (const TileDecision *d : {&a, &b, &c}) {
    EXPECT_EQ(d->branch, Branch::F);
    EXPECT_EQ(d->loadA, 1);
    EXPECT_EQ(d->loadB, 1);
    EXPECT_FALSE(d->needSplitK);
  }
}

// A fits, but one block column of B with the whole K (1024*64*2 = 128 KiB)
// exceeds b_s2 = 32 KiB: B streams in K chunks of 256, the 64x64 C strip
// accumulates; still nothing is reloaded.
TEST(TilingBranchF, StreamCutIntoKChunks) {
  GemmProblem p = gemm(64, 1024, 4096);
  TilingHardware hw = smallHw();
  hw.bBufferBytes = 32 << 10;
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.branch, Branch::F);
  EXPECT_EQ(d.strategy, Strategy::ResidentA);
  EXPECT_EQ(d.partitionM, 64);
  EXPECT_EQ(d.partitionN, 64);
  EXPECT_EQ(d.partitionK, 256);
  EXPECT_TRUE(d.needSplitK);
  EXPECT_EQ(d.accBufferNeeded, 64u * 64 * 2);
  EXPECT_EQ(d.loadA, 1);
  EXPECT_EQ(d.loadB, 1);
  checkInvariants(p, hw, d, true);
}

TEST(TilingBranchF, ClosedFormOnRandomShapes) {
  std::mt19937_64 rng(11);
  int checked = 0;
  for (int i = 0; i < 4000; ++i) {
    RandomCase c = randomCase(rng);
    TileDecision d = selectTiling(c.p, c.hw);
    if (!d.feasible || d.branch != Branch::F)
      continue;
    double P = c.hw.macsPerCycle, ds = c.p.elemBytes;
    double expect = std::min({1.0, c.p.n * c.hw.aBytesPerCycle / (P * ds),
                              c.p.m * c.hw.bBytesPerCycle / (P * ds)});
    EXPECT_NEAR(d.util, expect, 1e-12 * expect);
    EXPECT_EQ(d.loadA, 1);
    EXPECT_EQ(d.loadB, 1);
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

//===----------------------------------------------------------------------===//
// Branch X
//===----------------------------------------------------------------------===//

namespace {
/// P = 16384, 256 KiB input buffers, 16 KiB accumulation (two 64x64
/// blocks of d_s = 2): bandwidth-bound, split hardly helps.
TilingHardware reloadHw(double bwA, double bwB) {
  TilingHardware hw = smallHw();
  hw.macsPerCycle = 16384;
  hw.aBytesPerCycle = bwA;
  hw.bBytesPerCycle = bwB;
  hw.accBufferBytes = 16 << 10;
  return hw;
}
} // namespace

TEST(TilingBranchX, ReloadB) {
  // m = n = 2048, k = 512: both 2 MiB. gemm = 131072 cycles,
  // load_a = 2 MiB / 16 = 131072, load_b = 2 MiB / 64 = 32768.
  // No split, partition = 256 KiB / (512*2) = 256:
  //   reload A: 8 * 131072 -> util_1 = 0.125
  //   reload B: 8 * 32768  -> util_2 = 0.5
  // Split at 16 KiB (8192 partial sums): a 128 x 64 C partition whose A
  // strip (128 x 512 x 2 = 128 KiB) stays resident: loada 1, loadb 16,
  // 16 * 32768 = 524288 -> util 0.25 (both reloaded, 64 x 128 would give
  // max(16*131072, 32*32768) -> 0.0625).
  GemmProblem p = gemm(2048, 512, 2048);
  TilingHardware hw = reloadHw(16, 64);
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.branch, Branch::X);
  EXPECT_DOUBLE_EQ(d.util1, 0.125);
  EXPECT_DOUBLE_EQ(d.util2, 0.5);
  EXPECT_DOUBLE_EQ(d.utilNoSplitK, 0.5);
  EXPECT_DOUBLE_EQ(d.utilSplitK, 0.25);
  EXPECT_EQ(d.strategy, Strategy::ReloadB);
  EXPECT_TRUE(d.outerRowMajor);
  EXPECT_FALSE(d.needSplitK);
  EXPECT_EQ(d.partitionM, 256);
  EXPECT_EQ(d.partitionN, 256);
  EXPECT_EQ(d.partitionK, 512);
  EXPECT_EQ(d.loadA, 1);
  EXPECT_EQ(d.loadB, 8);
  EXPECT_DOUBLE_EQ(d.util, 0.5);
  EXPECT_DOUBLE_EQ(d.cycles, 262144);
  // Halving: 16 KiB -> 8 KiB (one block, the lower bound): 64 x 64,
  // loadb 32 -> 0.125 != 0.25 -> stop.
  ASSERT_EQ(d.halving.size(), 2u);
  EXPECT_EQ(d.halving[1].accBytes, 8u << 10);
  EXPECT_DOUBLE_EQ(d.halving[1].util, 0.125);
  // The split candidate itself, priced by the cost model.
  Cost split = evaluateMapping(p, hw, {true, 128, 64, 256});
  ASSERT_TRUE(split.legal);
  EXPECT_TRUE(split.residentA);
  EXPECT_EQ(split.loadsB, 16);
  EXPECT_DOUBLE_EQ(split.util, 0.25);
  Cost both = evaluateMapping(p, hw, {true, 64, 128, 256});
  ASSERT_TRUE(both.legal);
  EXPECT_TRUE(both.residentA); // 64 x 512 strip fits too
  Cost spec = evaluateMapping(gemm(2048, 8192, 2048), reloadHw(16, 64),
                              {true, 64, 128, 256});
  ASSERT_TRUE(spec.legal); // 64 x 8192 strip does not fit: both reloaded
  EXPECT_FALSE(spec.residentA);
  EXPECT_EQ(spec.loadsA, 16);
  EXPECT_EQ(spec.loadsB, 32);
  checkInvariants(p, hw, d, false);
}

TEST(TilingBranchX, ReloadA) {
  GemmProblem p = gemm(2048, 512, 2048);
  TilingHardware hw = reloadHw(64, 16);
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_DOUBLE_EQ(d.util1, 0.5);
  EXPECT_DOUBLE_EQ(d.util2, 0.125);
  EXPECT_EQ(d.strategy, Strategy::ReloadA);
  EXPECT_FALSE(d.outerRowMajor);
  EXPECT_EQ(d.loadA, 8);
  EXPECT_EQ(d.loadB, 1);
  EXPECT_DOUBLE_EQ(d.util, 0.5);
  checkInvariants(p, hw, d, false);
}

// util_1 == util_2: S506's bandwidth rule picks the loop order.
TEST(TilingBranchX, EqualReloadsFollowTheBandwidthRule) {
  GemmProblem p = gemm(2048, 512, 2048);
  for (auto [bwA, bwB, rowMajor] :
       {std::tuple{16.0, 64.0, true}, std::tuple{64.0, 64.0, false},
        std::tuple{64.0, 16.0, false}}) {
    TilingHardware hw = smallHw(); // P = 1024: compute-bound
    hw.aBytesPerCycle = bwA;
    hw.bBytesPerCycle = bwB;
    TileDecision d = selectTiling(p, hw);
    ASSERT_TRUE(d.feasible) << d.error;
    EXPECT_DOUBLE_EQ(d.util1, 1.0);
    EXPECT_DOUBLE_EQ(d.util2, 1.0);
    EXPECT_DOUBLE_EQ(d.utilSplitK, 1.0);
    EXPECT_FALSE(d.needSplitK) << "ties -> no split";
    EXPECT_EQ(d.outerRowMajor, rowMajor) << bwA << " " << bwB;
    EXPECT_EQ(d.strategy, rowMajor ? Strategy::ReloadB : Strategy::ReloadA);
  }
}

// Split closed form: util = min(1, sqrt(E bwA bwB) / (P d_s)) when the
// balanced partitions are whole blocks dividing m and n; partition_m :
// partition_n = bwA : bwB.
TEST(TilingBranchX, SplitClosedForm) {
  TilingHardware hw;
  hw.macsPerCycle = 16384;
  hw.aBytesPerCycle = 32;
  hw.bBytesPerCycle = 128;
  hw.aBufferBytes = 1 << 20;
  hw.bBufferBytes = 1 << 20;
  hw.accBufferBytes = 128 << 10; // E = 65536 partial sums of 2 bytes
  hw.accElemBytes = 2;
  GemmProblem p = gemm(4096, 8192, 4096);
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.strategy, Strategy::SplitK);
  double E = 65536, P = 16384, ds = 2;
  double closed = std::min(1.0, std::sqrt(E * 32 * 128) / (P * ds));
  EXPECT_DOUBLE_EQ(closed, 0.5);
  EXPECT_DOUBLE_EQ(d.utilSplitK, closed);
  EXPECT_DOUBLE_EQ(d.util, closed);
  EXPECT_EQ(d.partitionM, 128);
  EXPECT_EQ(d.partitionN, 512);
  EXPECT_EQ(d.partitionM * 128, d.partitionN * 32); // pm : pn = bwA : bwB
  EXPECT_EQ(d.loadA, 8);
  EXPECT_EQ(d.loadB, 32);
  // Balanced: loada_cycle == loadb_cycle.
  EXPECT_DOUBLE_EQ(d.loadA * d.loadACycles, d.loadB * d.loadBCycles);
  EXPECT_EQ(d.accBufferNeeded, 128u << 10); // halving would lose
  checkInvariants(p, hw, d, false);
}

// The continuous closed form bounds every integer split (no resident strip):
// util_splitk <= min(1, sqrt(E bwA bwB) / (P d_s)) for dense operands.
TEST(TilingBranchX, SplitNeverBeatsTheContinuousBound) {
  std::mt19937_64 rng(5);
  int checked = 0;
  for (int i = 0; i < 6000; ++i) {
    RandomCase c = randomCase(rng);
    const uint64_t ds = c.p.elemBytes;
    const int64_t blk = c.hw.blockSize;
    // No strip of one block (or the dimension) fits: no residency.
    if (uint64_t(std::min(blk, c.p.m)) * c.p.k * ds <= c.hw.aBufferBytes ||
        uint64_t(std::min(blk, c.p.n)) * c.p.k * ds <= c.hw.bBufferBytes)
      continue;
    TileDecision d = selectTiling(c.p, c.hw);
    if (!d.feasible || d.utilSplitK == 0)
      continue;
    double acc = c.hw.accElemBytes ? c.hw.accElemBytes : ds;
    double E = double(c.hw.accBufferBytes / uint64_t(acc));
    double bound =
        std::min(1.0, std::sqrt(E * c.hw.aBytesPerCycle * c.hw.bBytesPerCycle) /
                          (c.hw.macsPerCycle * ds));
    EXPECT_LE(d.utilSplitK, bound * (1 + 1e-9));
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

// Where the balanced split is not blocked by a clamp, loada_cycle /
// loadb_cycle ends inside the window [0.5, 2].
TEST(TilingBranchX, SplitRatioWindow) {
  TilingHardware hw = specExampleHw();
  for (auto [bwA, bwB] : {std::pair{64.0, 256.0}, std::pair{256.0, 64.0},
                          std::pair{16.0, 256.0}, std::pair{48.0, 96.0}}) {
    hw.aBytesPerCycle = bwA;
    hw.bBytesPerCycle = bwB;
    hw.macsPerCycle = 1 << 20; // bandwidth-bound: util < 1
    GemmProblem p = gemm(8192, 8192, 8192);
    TileDecision d = selectTiling(p, hw);
    ASSERT_TRUE(d.feasible) << d.error;
    ASSERT_EQ(d.strategy, Strategy::SplitK);
    double r = d.loadA * d.loadACycles / (d.loadB * d.loadBCycles);
    EXPECT_GE(r, 0.5) << bwA << " " << bwB;
    EXPECT_LE(r, 2.0) << bwA << " " << bwB;
  }
}

//===----------------------------------------------------------------------===//
// Halving stop rule
//===----------------------------------------------------------------------===//

// Compute-bound: the utilisation stays 1 down to one 64x64 block, the
// lower bound.
TEST(TilingHalving, StopsAtOneBlock) {
  TilingHardware hw = specExampleHw();
  hw.macsPerCycle = 1024;
  GemmProblem p = gemm(1024, 4096, 4096);
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.strategy, Strategy::SplitK);
  ASSERT_EQ(d.halving.size(), 6u); // 256, 128, 64, 32, 16, 8 KiB
  for (const HalvingStep &h : d.halving)
    EXPECT_DOUBLE_EQ(h.util, 1.0);
  EXPECT_EQ(d.halving.back().accBytes, 64u * 64 * 2);
  EXPECT_EQ(d.accBufferNeeded, 64u * 64 * 2);
  EXPECT_EQ(d.partitionM, 64);
  EXPECT_EQ(d.partitionN, 64);
  checkInvariants(p, hw, d, false);
}

TEST(TilingHalving, TraceInvariantsOnRandomShapes) {
  std::mt19937_64 rng(99);
  int splits = 0;
  for (int i = 0; i < 4000; ++i) {
    RandomCase c = randomCase(rng);
    TileDecision d = selectTiling(c.p, c.hw);
    if (!d.feasible || d.halving.empty() || !d.halving[0].feasible)
      continue;
    const uint64_t acc = c.hw.accElemBytes ? c.hw.accElemBytes : c.p.elemBytes;
    const uint64_t lower = uint64_t(c.hw.blockSize) * c.hw.blockSize * acc;
    EXPECT_EQ(d.halving[0].accBytes, c.hw.accBufferBytes);
    EXPECT_DOUBLE_EQ(d.halving[0].util, d.utilSplitK);
    for (size_t j = 1; j < d.halving.size(); ++j) {
      EXPECT_EQ(d.halving[j].accBytes, d.halving[j - 1].accBytes / 2);
      EXPECT_GE(d.halving[j].accBytes, lower);
    }
    // All but the last keep the first utilisation; the last loses it or is
    // the lower bound.
    for (size_t j = 0; j + 1 < d.halving.size(); ++j)
      EXPECT_NEAR(d.halving[j].util, d.utilSplitK, 1e-9 * d.utilSplitK);
    const HalvingStep &last = d.halving.back();
    bool lost = !last.feasible ||
                std::fabs(last.util - d.utilSplitK) > 1e-9 * d.utilSplitK;
    EXPECT_TRUE(lost || last.accBytes / 2 < lower);
    if (d.strategy == Strategy::SplitK && d.needSplitK) {
      ++splits;
      uint64_t expect =
          lost ? d.halving[d.halving.size() - 2].accBytes : last.accBytes;
      EXPECT_EQ(d.accBufferNeeded, expect);
      EXPECT_DOUBLE_EQ(d.util, d.utilSplitK);
    }
  }
  EXPECT_GT(splits, 200);
}

//===----------------------------------------------------------------------===//
// Invariants, remainders, errors
//===----------------------------------------------------------------------===//

TEST(TilingInvariants, Remainders) {
  // Nothing divides: m=100 (< 2 blocks), n=3000 (23 blocks + 56).
  GemmProblem p = gemm(100, 1000, 3000);
  TilingHardware hw = smallHw();
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible) << d.error;
  EXPECT_EQ(d.strategy, Strategy::ResidentA); // A = 200000 B fits
  EXPECT_EQ(d.partitionM, 100);
  EXPECT_EQ(d.partitionN, 128); // 262144 / 2000 = 131 -> 128
  EXPECT_EQ(d.partitionK, 1000);
  EXPECT_EQ(d.tileM, 100);
  EXPECT_EQ(d.tileN, 128);
  int steps = 0;
  int64_t lastWidth = 0;
  forEachPartitionStep(p, hw, d, [&](const PartitionStep &s) {
    ++steps;
    lastWidth = s.n;
  });
  EXPECT_EQ(steps, 24);
  EXPECT_EQ(lastWidth, 3000 - 23 * 128);
  checkInvariants(p, hw, d, true);
}

TEST(TilingInvariants, RandomSelectedExhaustiveAndBaselines) {
  std::mt19937_64 rng(31337);
  int checked = 0;
  for (int i = 0; i < 1000; ++i) {
    RandomCase c = randomCase(rng);
    // Element-level coverage on small shapes only.
    bool small = c.p.m * c.p.n <= 100000;
    TileDecision ds[] = {selectTiling(c.p, c.hw), exhaustiveTiling(c.p, c.hw),
                         baselineTiling(c.p, c.hw, Baseline::FixedOrderNoSplit),
                         baselineTiling(c.p, c.hw, Baseline::FixedBlockTiles)};
    for (const TileDecision &d : ds) {
      if (!d.feasible)
        continue;
      SCOPED_TRACE(testing::Message() << "case " << i << " m=" << c.p.m << " k="
                                      << c.p.k << " n=" << c.p.n << "\n"
                                      << toJson(d));
      checkInvariants(c.p, c.hw, d, small);
      ++checked;
      if (HasFatalFailure())
        return;
    }
  }
  EXPECT_GT(checked, 2500);
}

TEST(TilingInvariants, InnerLoopOrder) {
  GemmProblem p = gemm(256, 64, 256);
  TilingHardware hw = smallHw();
  hw.syncGranularityBytes = 4; // sync/(2 d) = 1 -> one block each way
  for (bool rowMajor : {false, true}) {
    hw.innerRowMajor = rowMajor;
    TileDecision d = decisionFromMapping(p, hw, {true, 256, 256, 64});
    ASSERT_TRUE(d.feasible) << d.error;
    EXPECT_EQ(d.tileM, 64);
    EXPECT_EQ(d.tileN, 64);
    EXPECT_EQ(d.innerRowMajor, rowMajor);
    std::vector<std::pair<int64_t, int64_t>> order;
    forEachPartitionStep(p, hw, d, [&](const PartitionStep &s) {
      forEachInnerTile(d, s, [&](int64_t m0, int64_t, int64_t n0, int64_t) {
        order.push_back({m0, n0});
      });
    });
    ASSERT_EQ(order.size(), 16u);
    // Row-major: n varies fastest; column-major (tile_n outside): m does.
    std::pair<int64_t, int64_t> second =
        rowMajor ? std::pair<int64_t, int64_t>{0, 64}
                 : std::pair<int64_t, int64_t>{64, 0};
    EXPECT_EQ(order[1], second);
  }
}

TEST(TilingInvariants, InnerTileRule) {
  // sync 4096 B, d_s = 4 -> 512 "blocks" per sync unit.
  TilingHardware hw;
  hw.syncGranularityBytes = 4096;
  int64_t tm, tn;
  innerTiles(gemm(4096, 64, 4096, 4), hw, 1024, 256, tm, tn);
  EXPECT_EQ(tm, 1024);          // min(512, 16 blocks)
  EXPECT_EQ(tn, 256);           // max(1, 512/16 = 32) clamped to 4 blocks
  hw.syncGranularityBytes = 64; // 8 -> tile_m 8 blocks, tile_n 1 block
  innerTiles(gemm(4096, 64, 4096, 4), hw, 1024, 256, tm, tn);
  EXPECT_EQ(tm, 512);
  EXPECT_EQ(tn, 64);
  hw.syncGranularityBytes = 4; // 0 -> at least one block each
  innerTiles(gemm(4096, 64, 4096, 4), hw, 1024, 256, tm, tn);
  EXPECT_EQ(tm, 64);
  EXPECT_EQ(tn, 64);
}

TEST(TilingInvariants, CountMultipliesCycles) {
  TilingHardware hw = smallHw();
  TileDecision one = selectTiling(gemm(384, 64, 384, 2, 1), hw);
  TileDecision many = selectTiling(gemm(384, 64, 384, 2, 128), hw);
  ASSERT_TRUE(one.feasible && many.feasible);
  EXPECT_EQ(one.partitionM, many.partitionM);
  EXPECT_DOUBLE_EQ(many.cycles, 128 * one.cycles);
}

TEST(TilingErrors, InvalidAndInfeasible) {
  TilingHardware hw = smallHw();
  TileDecision d = selectTiling(gemm(0, 4, 4), hw);
  EXPECT_FALSE(d.feasible);
  EXPECT_NE(d.error.find("m, k and n"), std::string::npos);
  hw.aBufferBytes = 1024; // not even 64 x 64 x 2 bytes
  hw.bBufferBytes = 1024;
  GemmProblem p = gemm(1000, 1000, 1000);
  d = selectTiling(p, hw);
  EXPECT_FALSE(d.feasible);
  EXPECT_NE(d.error.find("no block-aligned tiling"), std::string::npos);
  EXPECT_FALSE(exhaustiveTiling(p, hw).feasible);
  TilingHardware bad = smallHw();
  bad.macsPerCycle = 0;
  EXPECT_FALSE(selectTiling(gemm(64, 64, 64), bad).feasible);
  std::string err;
  EXPECT_FALSE(validateTilingHardware(bad, err));
  EXPECT_FALSE(err.empty());
  // A mapping that does not fit is reported with the reason.
  Cost c = evaluateMapping(gemm(1024, 1024, 1024), smallHw(),
                           {true, 1024, 64, 1024});
  EXPECT_FALSE(c.legal);
  EXPECT_STREQ(c.why, "A tile exceeds b_s1");
  c = evaluateMapping(gemm(1024, 1024, 1024), smallHw(), {true, 100, 64, 64});
  EXPECT_FALSE(c.legal);
}

TEST(TilingJson, DecisionFields) {
  TileDecision d = selectTiling(gemm(1024, 4096, 4096), specExampleHw());
  std::string j = toJson(d);
  for (const char *key :
       {"\"partition_m\": 128", "\"partition_n\": 512", "\"partition_k\": 256",
        "\"need_splitk_flag\": 1", "\"acc_buffer_needed\": 131072",
        "\"loada\": 8", "\"loadb\": 8", "\"util\": 1",
        "\"strategy\": \"split-k\"", "\"outloop_rowmajor_flag\": 1",
        "\"halving\": ["})
    EXPECT_NE(j.find(key), std::string::npos) << key << "\n" << j;
}

//===----------------------------------------------------------------------===//
// Convolution as GEMM
//===----------------------------------------------------------------------===//

TEST(TilingConv, ResNetStem) {
  ConvShape c;
  c.batch = 2, c.inChannels = 3, c.inH = c.inW = 224, c.outChannels = 64;
  c.kernelH = c.kernelW = 7, c.strideH = c.strideW = 2;
  c.padTop = c.padLeft = c.padBottom = c.padRight = 3;
  GemmProblem p;
  std::string err;
  ASSERT_TRUE(convToGemm(c, 4, p, err)) << err;
  EXPECT_EQ(c.outH(), 112);
  EXPECT_EQ(p.m, 64);
  EXPECT_EQ(p.k, 3 * 7 * 7);
  EXPECT_EQ(p.n, 2 * 112 * 112);
  EXPECT_EQ(p.count, 1);
  EXPECT_EQ(p.aBytes(), uint64_t(64 * 147 * 4));
  // The 7x7 windows at stride 2 read every input pixel once.
  EXPECT_EQ(p.bBytes(), uint64_t(2) * 3 * 224 * 224 * 4);
}

TEST(TilingConv, StrideDilationPaddingGroups) {
  GemmProblem p;
  std::string err;
  // 1x1 stride 2: every other row and column -> a quarter of the input.
  ConvShape ds;
  ds.inChannels = 256, ds.inH = ds.inW = 56, ds.outChannels = 512;
  ds.strideH = ds.strideW = 2;
  ASSERT_TRUE(convToGemm(ds, 4, p, err)) << err;
  EXPECT_EQ(p.n, 28 * 28);
  EXPECT_EQ(p.k, 256);
  EXPECT_EQ(p.bBytes(), uint64_t(256) * 28 * 28 * 4);
  // 3x3 'same' at stride 1: the spec's sn*h*w*ic (padding not loaded).
  ConvShape same;
  same.inChannels = 64, same.inH = same.inW = 56, same.outChannels = 64;
  same.kernelH = same.kernelW = 3;
  same.padTop = same.padLeft = same.padBottom = same.padRight = 1;
  ASSERT_TRUE(convToGemm(same, 2, p, err)) << err;
  EXPECT_EQ(p.k, 576);
  EXPECT_EQ(p.n, 56 * 56);
  EXPECT_EQ(p.bBytes(), uint64_t(64) * 56 * 56 * 2);
  EXPECT_LT(p.bBytes(), uint64_t(p.k) * p.n * 2); // implicit GEMM saves 9x
  // Dilation 2, padding 2: 10x10 -> 10x10.
  ConvShape dil = same;
  dil.inH = dil.inW = 10;
  dil.dilationH = dil.dilationW = 2;
  dil.padTop = dil.padLeft = dil.padBottom = dil.padRight = 2;
  ASSERT_TRUE(convToGemm(dil, 4, p, err)) << err;
  EXPECT_EQ(dil.outH(), 10);
  EXPECT_EQ(p.n, 100);
  // 3x3 stride 3 without padding on 9x9: windows tile the input exactly.
  ConvShape s3 = same;
  s3.inH = s3.inW = 9, s3.strideH = s3.strideW = 3;
  s3.padTop = s3.padLeft = s3.padBottom = s3.padRight = 0;
  ASSERT_TRUE(convToGemm(s3, 4, p, err)) << err;
  EXPECT_EQ(p.n, 9);
  EXPECT_EQ(p.bBytes(), uint64_t(64) * 81 * 4);
  // Stride larger than the kernel skips rows: 1x1 stride 4 on 8x8 reads 2x2.
  ConvShape gap = ds;
  gap.inH = gap.inW = 8, gap.strideH = gap.strideW = 4;
  ASSERT_TRUE(convToGemm(gap, 4, p, err)) << err;
  EXPECT_EQ(p.bBytes(), uint64_t(256) * 4 * 4);
  // Depthwise: groups = channels -> m = 1, k = 9, count = 32.
  ConvShape dw = same;
  dw.inChannels = dw.outChannels = dw.groups = 32;
  ASSERT_TRUE(convToGemm(dw, 4, p, err)) << err;
  EXPECT_EQ(p.m, 1);
  EXPECT_EQ(p.k, 9);
  EXPECT_EQ(p.count, 32);
  EXPECT_EQ(p.bBytes(), uint64_t(1) * 56 * 56 * 4);
  // Padding of any size costs nothing to price: only the outputs whose
  // windows reach the input are visited (2^40 rows of top padding took
  // hours). 1x1 stride 1 on 16 x 1 padded by 2^30 rows above and 3 below:
  // the 16 real rows are read; with 2^40 rows the result is refused.
  ConvShape tall = ds;
  tall.inH = 16, tall.inW = 1, tall.strideH = tall.strideW = 1;
  tall.padTop = int64_t(1) << 30, tall.padBottom = 3;
  ASSERT_TRUE(convToGemm(tall, 4, p, err)) << err;
  EXPECT_EQ(tall.outH(), (int64_t(1) << 30) + 19);
  EXPECT_EQ(p.bBytes(), uint64_t(256) * 16 * 4);
  tall.padTop = int64_t(1) << 40;
  EXPECT_FALSE(convToGemm(tall, 4, p, err));
  EXPECT_NE(err.find("must be <= 2^31"), std::string::npos) << err;
  // 3x3 stride 2 with 5 rows of padding on each side of 6 rows: the
  // windows of outputs 1..4 reach rows 0..5, all of them.
  ConvShape padded = same;
  padded.inH = 6, padded.inW = 4, padded.strideH = 2;
  padded.padTop = padded.padBottom = 5;
  padded.padLeft = padded.padRight = 0;
  ASSERT_TRUE(convToGemm(padded, 4, p, err)) << err;
  EXPECT_EQ(padded.outH(), 7);
  EXPECT_EQ(p.bBytes(), uint64_t(64) * 6 * 4 * 4);
  // Errors.
  ConvShape bad = same;
  bad.groups = 3;
  EXPECT_FALSE(convToGemm(bad, 4, p, err));
  EXPECT_NE(err.find("groups"), std::string::npos);
  bad = same;
  bad.kernelH = 70;
  EXPECT_FALSE(convToGemm(bad, 4, p, err));
  // The selection uses the raw footprint: load_b = bBytes / matb_bw.
  ASSERT_TRUE(convToGemm(same, 2, p, err)) << err;
  TilingHardware hw = smallHw();
  TileDecision d = selectTiling(p, hw);
  ASSERT_TRUE(d.feasible);
  EXPECT_DOUBLE_EQ(d.loadBCycles, double(p.bBytes()) / hw.bBytesPerCycle);
  checkInvariants(p, hw, d, false);
}

//===----------------------------------------------------------------------===//
// Hardware description -> parameters
//===----------------------------------------------------------------------===//

TEST(TilingHardwareDerivation, Presets) {
  TilingHardware t = deriveTilingHardware(defaultHardware());
  EXPECT_DOUBLE_EQ(t.macsPerCycle, 4 * 64);
  EXPECT_EQ(t.aBufferBytes, 4u * 64 * 1024);
  EXPECT_EQ(t.bBufferBytes, 64u * 1024); // broadcast weight queue
  EXPECT_EQ(t.accBufferBytes, 4u * 4 * 16 * 1024);
  EXPECT_EQ(t.accElemBytes, 4u);
  EXPECT_EQ(t.blockSize, 64);
  EXPECT_EQ(t.syncGranularityBytes, 4096u);
  // 2 channels of 64 B/cycle shared by 2 clusters each.
  EXPECT_DOUBLE_EQ(t.aBytesPerCycle, 32);
  EXPECT_DOUBLE_EQ(t.bBytesPerCycle, 32);
  EXPECT_EQ(computeElemBytes(defaultHardware()), 4u);

  DeriveOptions onChipB;
  onChipB.b = Placement::OnChip;
  t = deriveTilingHardware(defaultHardware(), onChipB);
  EXPECT_DOUBLE_EQ(t.aBytesPerCycle, 32);
  EXPECT_DOUBLE_EQ(t.bBytesPerCycle, 256); // weight LD rate
  DeriveOptions alone;
  alone.activeClusters = 1;
  t = deriveTilingHardware(defaultHardware(), alone);
  EXPECT_DOUBLE_EQ(t.aBytesPerCycle, 64);

  t = deriveTilingHardware(presetHardware("bandwidth-starved"));
  EXPECT_DOUBLE_EQ(t.aBytesPerCycle, 2);
  EXPECT_DOUBLE_EQ(t.bBytesPerCycle, 2);
  // Asymmetric channels (128 and 16 B/cycle): the slow pair bounds a layer.
  t = deriveTilingHardware(presetHardware("asymmetric"));
  EXPECT_DOUBLE_EQ(t.aBytesPerCycle, 8);
  EXPECT_DOUBLE_EQ(t.bBytesPerCycle, 8);
  alone.activeClusters = 2; // clusters 0 and 1: the fast channel
  t = deriveTilingHardware(presetHardware("asymmetric"), alone);
  EXPECT_DOUBLE_EQ(t.aBytesPerCycle, 64);
  t = deriveTilingHardware(presetHardware("large"));
  EXPECT_DOUBLE_EQ(t.macsPerCycle, 8 * 64);
  EXPECT_EQ(t.aBufferBytes, 8u * 128 * 1024);
  EXPECT_DOUBLE_EQ(t.aBytesPerCycle, 32); // 128 B/cycle over 4 clusters
  std::string err;
  EXPECT_TRUE(validateTilingHardware(t, err)) << err;
}
