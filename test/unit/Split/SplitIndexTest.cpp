//===- SplitIndexTest.cpp - Target dim, piece count and ranges ------------===//
//
// The worked examples of spec/labels-and-splits.md ([0172]-[0177], with the
// text's arithmetic corrected) and the rounding modes.
//
//===----------------------------------------------------------------------===//
#include "accel/Split/Split.h"

#include <gtest/gtest.h>

using namespace accel::split;

namespace {
std::vector<PieceRange> ranges(int64_t D, uint64_t M, uint64_t C,
                               Rounding r = Rounding::Ceil) {
  return pieceRanges(D, pieceCount(D, M, C, r), r);
}
} // namespace

// [0172]: w1 = 2, w2 = 32, w3 = 64; splittable w1, w3; M = 4: w1 fails,
// w3 (64) is the target (the text prints 32).
TEST(SplitIndex, Example0172) {
  std::vector<int64_t> splittable = {2, 64}; // w1, w3 in priority order
  auto t = selectTargetDim(splittable, 4);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t, 1u);
  EXPECT_EQ(splittable[*t], 64);
}

// [0175]: M = 2, 2 clusters x 2 cores; a = 1, b = 4; splittable a, b -> b,
// 4 pieces of length 1 (mode 1, D >= C).
TEST(SplitIndex, Example0175) {
  std::vector<int64_t> splittable = {1, 4}; // a, b
  auto t = selectTargetDim(splittable, 2);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t, 1u);
  PieceCount pc = pieceCount(4, 2, 4);
  EXPECT_EQ(pc.mode, 1);
  EXPECT_EQ(pc.pieces, 4);
  EXPECT_EQ(pc.length, 1);
  EXPECT_EQ(pieceRanges(4, pc),
            (std::vector<PieceRange>{{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
}

// [0176]: same machine; splittable a = 1, c = 2 -> c, D = 2 = M: mode 2,
// 2 pieces of length 1.
TEST(SplitIndex, Example0176) {
  auto t = selectTargetDim({1, 2}, 2);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t, 1u);
  PieceCount pc = pieceCount(2, 2, 4);
  EXPECT_EQ(pc.mode, 2);
  EXPECT_EQ(pc.pieces, 2);
  EXPECT_EQ(pc.length, 1);
  EXPECT_EQ(pieceRanges(2, pc), (std::vector<PieceRange>{{0, 0}, {1, 1}}));
}

// [0177]: M = 4, 2 x 2 cores; a = 1, c = 2: none >= 4, the largest is c;
// D = 2 < M: mode 3, 2 pieces of length 1 (the text prints 2).
TEST(SplitIndex, Example0177) {
  auto t = selectTargetDim({1, 2}, 4);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(*t, 1u);
  PieceCount pc = pieceCount(2, 4, 4);
  EXPECT_EQ(pc.mode, 3);
  EXPECT_EQ(pc.pieces, 2);
  EXPECT_EQ(pc.length, 1);
  EXPECT_EQ(pieceRanges(2, pc), (std::vector<PieceRange>{{0, 0}, {1, 1}}));
}

TEST(SplitIndex, TargetDimTiesAndEmpty) {
  EXPECT_FALSE(selectTargetDim({}, 2).has_value());
  // None qualifies: the largest, the earliest of equal ones.
  EXPECT_EQ(*selectTargetDim({3, 5, 5, 1}, 8), 1u);
  // The first qualifying one wins even if a later one is larger.
  EXPECT_EQ(*selectTargetDim({1, 8, 1000}, 8), 1u);
  // D = M qualifies (>=).
  EXPECT_EQ(*selectTargetDim({4, 100}, 4), 0u);
  // A single option is the target whatever its size.
  EXPECT_EQ(*selectTargetDim({1}, 4), 0u);
}

TEST(SplitIndex, Modes) {
  // Mode 1: D >= C -> C pieces of R(D / C).
  PieceCount pc = pieceCount(1024, 2, 4);
  EXPECT_EQ(pc.mode, 1);
  EXPECT_EQ(pc.pieces, 4);
  EXPECT_EQ(pc.length, 256);
  // Mode 2: M <= D < C -> M pieces of R(D / M).
  pc = pieceCount(10, 2, 16);
  EXPECT_EQ(pc.mode, 2);
  EXPECT_EQ(pc.pieces, 2);
  EXPECT_EQ(pc.length, 5);
  pc = pieceCount(11, 2, 16); // ceil: 6 + 5
  EXPECT_EQ(pc.pieces, 2);
  EXPECT_EQ(pc.length, 6);
  EXPECT_EQ(ranges(11, 2, 16), (std::vector<PieceRange>{{0, 5}, {6, 10}}));
  // Mode 3: D < M -> D pieces of 1.
  pc = pieceCount(3, 4, 16);
  EXPECT_EQ(pc.mode, 3);
  EXPECT_EQ(pc.pieces, 3);
  EXPECT_EQ(pc.length, 1);
  EXPECT_EQ(ranges(3, 4, 16),
            (std::vector<PieceRange>{{0, 0}, {1, 1}, {2, 2}}));
  // Boundaries: D = C is mode 1, D = C - 1 >= M is mode 2, D = M - 1 mode 3.
  EXPECT_EQ(pieceCount(16, 2, 16).mode, 1);
  EXPECT_EQ(pieceCount(15, 2, 16).mode, 2);
  EXPECT_EQ(pieceCount(2, 2, 16).mode, 2);
  EXPECT_EQ(pieceCount(1, 2, 16).mode, 3);
}

// Ceil (the spec's default): length ceil(D / p), short last piece, and a
// count that never leaves a piece empty.
TEST(SplitIndex, CeilRounding) {
  PieceCount pc = pieceCount(9, 1, 4);
  EXPECT_EQ(pc.mode, 1);
  EXPECT_EQ(pc.length, 3);
  EXPECT_EQ(pc.pieces, 3); // 3, 3, 3 - not 3, 3, 3, 0
  EXPECT_EQ(ranges(9, 1, 4), (std::vector<PieceRange>{{0, 2}, {3, 5}, {6, 8}}));
  EXPECT_EQ(ranges(10, 1, 4),
            (std::vector<PieceRange>{{0, 2}, {3, 5}, {6, 8}, {9, 9}}));
  EXPECT_EQ(pieceCount(10, 1, 4).pieces, 4);
  // 17 over 16 cores: length 2, 9 pieces (8 x 2 + 1).
  pc = pieceCount(17, 2, 16);
  EXPECT_EQ(pc.length, 2);
  EXPECT_EQ(pc.pieces, 9);
  auto r = pieceRanges(17, pc);
  ASSERT_EQ(r.size(), 9u);
  EXPECT_EQ(r.back(), PieceRange(16, 16));
}

// Floor: length floor(D / p), the last piece takes the remainder.
TEST(SplitIndex, FloorRounding) {
  PieceCount pc = pieceCount(9, 1, 4, Rounding::Floor);
  EXPECT_EQ(pc.pieces, 4);
  EXPECT_EQ(pc.length, 2);
  EXPECT_EQ(ranges(9, 1, 4, Rounding::Floor),
            (std::vector<PieceRange>{{0, 1}, {2, 3}, {4, 5}, {6, 8}}));
  EXPECT_EQ(ranges(8, 1, 4, Rounding::Floor),
            (std::vector<PieceRange>{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
}

// Balanced: lengths differ by at most one, the first ones longer.
TEST(SplitIndex, BalancedRounding) {
  PieceCount pc = pieceCount(9, 1, 4, Rounding::Balanced);
  EXPECT_EQ(pc.pieces, 4);
  EXPECT_EQ(pc.length, 3);
  EXPECT_EQ(ranges(9, 1, 4, Rounding::Balanced),
            (std::vector<PieceRange>{{0, 2}, {3, 4}, {5, 6}, {7, 8}}));
  EXPECT_EQ(ranges(11, 1, 4, Rounding::Balanced),
            (std::vector<PieceRange>{{0, 2}, {3, 5}, {6, 8}, {9, 10}}));
  // Exact divisions agree across all three roundings.
  for (Rounding r : {Rounding::Ceil, Rounding::Floor, Rounding::Balanced})
    EXPECT_EQ(ranges(1024, 2, 4, r),
              (std::vector<PieceRange>{
                  {0, 255}, {256, 511}, {512, 767}, {768, 1023}}))
        << roundingName(r);
}

// Every rounding covers [0, D) with non-empty, adjacent pieces.
TEST(SplitIndex, RangesPartitionTheDim) {
  for (Rounding r : {Rounding::Ceil, Rounding::Floor, Rounding::Balanced})
    for (int64_t D = 1; D <= 70; ++D)
      for (uint64_t M : {1u, 2u, 4u})
        for (uint64_t C : {1u, 4u, 16u}) {
          PieceCount pc = pieceCount(D, M, C, r);
          auto rs = pieceRanges(D, pc, r);
          ASSERT_EQ(int64_t(rs.size()), pc.pieces)
              << D << " " << M << " " << C << " " << roundingName(r);
          int64_t next = 0;
          for (const PieceRange &p : rs) {
            EXPECT_EQ(p.first, next);
            EXPECT_LE(p.first, p.second);
            next = p.second + 1;
          }
          EXPECT_EQ(next, D);
          EXPECT_LE(uint64_t(pc.pieces), std::max(C, M));
        }
}

// D = 0 or negative: no pieces (documented in Split.h / docs); degenerate
// machine counts are read as 1.
TEST(SplitIndex, EmptyAndDegenerate) {
  for (int64_t D : {0, -1, -100}) {
    PieceCount pc = pieceCount(D, 2, 4);
    EXPECT_EQ(pc.mode, 3);
    EXPECT_EQ(pc.pieces, 0);
    EXPECT_EQ(pc.length, 0);
    EXPECT_TRUE(pieceRanges(D, pc).empty());
  }
  PieceCount pc = pieceCount(5, 0, 0);
  EXPECT_EQ(pc.mode, 1);
  EXPECT_EQ(pc.pieces, 1);
  EXPECT_EQ(pc.length, 5);
  EXPECT_EQ(pieceRanges(5, pc), (std::vector<PieceRange>{{0, 4}}));
}

TEST(SplitIndex, RoundingNames) {
  Rounding r;
  for (Rounding x : {Rounding::Ceil, Rounding::Floor, Rounding::Balanced}) {
    ASSERT_TRUE(parseRounding(roundingName(x), r));
    EXPECT_EQ(r, x);
  }
  EXPECT_FALSE(parseRounding("round", r));
}

TEST(SplitIndex, CoreOfPieces) {
  // Fewer pieces than cores: spread (piece j -> core j * C / P).
  EXPECT_EQ(coreOfPieces(2, 4), (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(coreOfPieces(4, 4), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(coreOfPieces(3, 16), (std::vector<uint32_t>{0, 5, 10}));
  // More pieces than cores: contiguous blocks.
  EXPECT_EQ(coreOfPieces(8, 4),
            (std::vector<uint32_t>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(coreOfPieces(5, 2), (std::vector<uint32_t>{0, 0, 0, 1, 1}));
  EXPECT_TRUE(coreOfPieces(0, 4).empty());
  EXPECT_EQ(coreOfPieces(3, 0), (std::vector<uint32_t>{0, 0, 0}));
}

TEST(SplitIndex, ReductionTree) {
  using Level = std::vector<std::pair<uint32_t, uint32_t>>;
  using Tree = std::vector<Level>;
  // Application example 1: o5 = o1 + o2, o6 = o3 + o4, o7 = o5 + o6.
  EXPECT_EQ(reductionTree(4), (Tree{{{0, 1}, {2, 3}}, {{0, 2}}}));
  EXPECT_EQ(reductionTree(1), Tree{});
  EXPECT_EQ(reductionTree(0), Tree{});
  EXPECT_EQ(reductionTree(2), (Tree{{{0, 1}}}));
  EXPECT_EQ(reductionTree(3), (Tree{{{0, 1}}, {{0, 2}}}));
  EXPECT_EQ(reductionTree(5), (Tree{{{0, 1}, {2, 3}}, {{0, 2}}, {{0, 4}}}));
  Tree t16 = reductionTree(16);
  ASSERT_EQ(t16.size(), 4u);
  EXPECT_EQ(t16[0].size(), 8u);
  EXPECT_EQ(t16[1], (Level{{0, 2}, {4, 6}, {8, 10}, {12, 14}}));
  EXPECT_EQ(t16[2], (Level{{0, 4}, {8, 12}}));
  EXPECT_EQ(t16[3], (Level{{0, 8}}));
  // Every part is added exactly once and the sum ends in part 0: simulate.
  for (uint32_t n : {1u, 2u, 3u, 5u, 7u, 16u, 33u}) {
    std::vector<uint64_t> v(n);
    for (uint32_t i = 0; i < n; ++i)
      v[i] = 1ull << i;
    for (const Level &l : reductionTree(n))
      for (auto [dst, src] : l) {
        ASSERT_LT(src, n);
        ASSERT_NE(v[src], 0u) << "part " << src << " read after consumed";
        v[dst] += v[src];
        v[src] = 0;
      }
    EXPECT_EQ(v[0], (n == 64 ? 0 : (1ull << n)) - 1) << n;
  }
}

// Rounding::Clusters: the cluster shares of D = 56 over 4 clusters x 4
// cores are 14 rows each (Ceil's 14 pieces of 4 give 16 / 12 / 16 / 12),
// each cut into 4 / 4 / 3 / 3.
TEST(SplitIndex, ClusterBalancedRanges) {
  std::vector<PieceRange> r = clusterBalancedRanges(56, 16, 4);
  ASSERT_EQ(r.size(), 16u);
  for (int c = 0; c < 4; ++c) {
    EXPECT_EQ(r[size_t(4 * c)].first, 14 * c);
    EXPECT_EQ(r[size_t(4 * c + 3)].second, 14 * c + 13);
    EXPECT_EQ(r[size_t(4 * c)].second - r[size_t(4 * c)].first + 1, 4);
    EXPECT_EQ(r[size_t(4 * c + 3)].second - r[size_t(4 * c + 3)].first + 1, 3);
  }
  // Ceil for comparison: cluster blocks of pieces (coreOfPieces) 4, 3, 4, 3.
  EXPECT_EQ(ranges(56, 2, 16).size(), 14u);
  // Uneven shares: D = 30 over 4 clusters: 7, 8, 7, 8 (floor boundaries).
  r = clusterBalancedRanges(30, 8, 4);
  EXPECT_EQ(r, (std::vector<PieceRange>{{0, 3},
                                        {4, 6},
                                        {7, 10},
                                        {11, 14},
                                        {15, 18},
                                        {19, 21},
                                        {22, 25},
                                        {26, 29}}));
  // Pieces not a multiple of the clusters, or shares shorter than their
  // pieces: Balanced.
  EXPECT_EQ(clusterBalancedRanges(9, 3, 2),
            (std::vector<PieceRange>{{0, 2}, {3, 5}, {6, 8}}));
  EXPECT_EQ(clusterBalancedRanges(5, 4, 4).size(), 4u);
  EXPECT_TRUE(clusterBalancedRanges(0, 4, 2).empty());
}

// applySplit with Rounding::Clusters: one piece per core when D >= C; with
// D < C the Balanced cut (fewer pieces are spread over the clusters).
TEST(SplitIndex, ClustersRoundingCoversTheDim) {
  for (int64_t D = 1; D <= 70; ++D) {
    PieceCount pc = pieceCount(D, 2, 16, Rounding::Clusters);
    std::vector<PieceRange> rs = pc.mode == 1
                                     ? clusterBalancedRanges(D, pc.pieces, 4)
                                     : pieceRanges(D, pc, Rounding::Clusters);
    ASSERT_EQ(int64_t(rs.size()), pc.pieces) << D;
    int64_t next = 0;
    for (const PieceRange &p : rs) {
      EXPECT_EQ(p.first, next) << D;
      EXPECT_LE(p.first, p.second) << D;
      next = p.second + 1;
    }
    EXPECT_EQ(next, D);
    if (pc.mode == 1) {
      // Cluster shares (4 consecutive pieces) differ by at most one.
      int64_t lo = D, hi = 0;
      for (int c = 0; c < 4; ++c) {
        int64_t n = rs[size_t(4 * c + 3)].second - rs[size_t(4 * c)].first + 1;
        lo = std::min(lo, n);
        hi = std::max(hi, n);
      }
      EXPECT_LE(hi - lo, 1) << D;
    }
  }
  Rounding r;
  ASSERT_TRUE(parseRounding("clusters", r));
  EXPECT_EQ(r, Rounding::Clusters);
}

// applySplit with Rounding::Clusters and M <= D < C: one piece per cluster
// when D has that many (ResNet-18's 56 output rows on the 4x4 preset: 16
// clusters x 8 cores, 4 channels; the spec's count, 4 pieces, one per
// channel, left 12 clusters idle), else the spec's count.
TEST(SplitIndex, ClustersRoundingGivesEveryClusterAPiece) {
  StaticLabel s;
  s.dimOrder = "nchw";
  s.dims = {1, 64, 56, 56};
  DynamicLabel d;
  d.dimOrder = "nchw";
  StrategyRow row;
  row.op = "conv";
  row.dims.push_back(SplitOption{'h'});
  std::string err;
  ASSERT_TRUE(applySplit(s, d, row, 4, 128, Rounding::Clusters, err, 16))
      << err;
  ASSERT_EQ(d.ranges.size(), 16u);
  EXPECT_EQ(d.ranges.front(), (PieceRange{0, 3}));
  EXPECT_EQ(d.ranges.back(), (PieceRange{53, 55}));
  // Balanced keeps the spec's count: 4 pieces.
  DynamicLabel b;
  b.dimOrder = "nchw";
  ASSERT_TRUE(applySplit(s, b, row, 4, 128, Rounding::Balanced, err, 16));
  EXPECT_EQ(b.ranges.size(), 4u);
  // 14 rows < 16 clusters: the spec's 4 pieces.
  s.dims = {1, 256, 14, 14};
  DynamicLabel small;
  small.dimOrder = "nchw";
  ASSERT_TRUE(applySplit(s, small, row, 4, 128, Rounding::Clusters, err, 16));
  EXPECT_EQ(small.ranges.size(), 4u);
}
