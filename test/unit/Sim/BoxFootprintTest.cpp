//===- BoxFootprintTest.cpp - Do two strided DMA boxes share a byte? ------===//
//
// footprintsMayIntersect (lib/Sim/BoxFootprint.h) on the boxes that made
// the hazard check report BERT's output GEMM on the 4x4 grid: 128 x 64
// column blocks of a 128 x 768 matrix (row stride 768 floats), one block
// per cluster; and against a brute-force byte set on random small boxes.
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/BoxFootprint.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace accel::sim;

namespace {

BoxFootprint columnBlock(int64_t firstColumn) {
  BoxFootprint f;
  f.origin = 4096 + firstColumn * 4;
  f.shape[2] = 128;
  f.shape[3] = 64;
  f.stride[2] = 768;
  f.stride[3] = 1;
  f.elemBytes = 4;
  return f;
}

std::set<int64_t> bytesOf(const BoxFootprint &f) {
  std::set<int64_t> s;
  for (uint32_t i0 = 0; i0 < f.shape[0]; ++i0)
    for (uint32_t i1 = 0; i1 < f.shape[1]; ++i1)
      for (uint32_t i2 = 0; i2 < f.shape[2]; ++i2)
        for (uint32_t i3 = 0; i3 < f.shape[3]; ++i3) {
          int64_t at = f.origin +
                       (int64_t(i0) * f.stride[0] + int64_t(i1) * f.stride[1] +
                        int64_t(i2) * f.stride[2] + int64_t(i3) * f.stride[3]) *
                           f.elemBytes;
          for (uint32_t b = 0; b < f.elemBytes; ++b)
            s.insert(at + b);
        }
  return s;
}

} // namespace

TEST(BoxFootprint, ColumnBlocksOfOneMatrixAreDisjoint) {
  // Columns 0..63 and 640..703: bounding ranges overlap, bytes do not.
  EXPECT_FALSE(footprintsMayIntersect(columnBlock(0), columnBlock(640)));
  EXPECT_FALSE(footprintsMayIntersect(columnBlock(64), columnBlock(128)));
  // Columns 0..63 and 32..95 share 32 columns of every row.
  EXPECT_TRUE(footprintsMayIntersect(columnBlock(0), columnBlock(32)));
  // A box meets itself.
  EXPECT_TRUE(footprintsMayIntersect(columnBlock(640), columnBlock(640)));
}

TEST(BoxFootprint, UnknownOrTooManyRunsIsConservative) {
  BoxFootprint unknown;
  EXPECT_TRUE(footprintsMayIntersect(unknown, columnBlock(640)));
  // 128 runs each: with room for 64 runs the answer is "may intersect".
  EXPECT_TRUE(footprintsMayIntersect(columnBlock(0), columnBlock(640), 64));
  EXPECT_FALSE(footprintsMayIntersect(columnBlock(0), columnBlock(640), 128));
}

TEST(BoxFootprint, MatchesByteSetsOnRandomBoxes) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  auto randomBox = [&] {
    BoxFootprint f;
    f.elemBytes = uint32_t(pick(0, 1) ? 4 : 2);
    for (int d = 0; d < 4; ++d) {
      f.shape[d] = uint32_t(pick(1, d < 2 ? 2 : 5));
      f.stride[d] = pick(-12, 12); // negative, zero (broadcast) and gaps
    }
    f.origin = 400 + pick(0, 64);
    return f;
  };
  int disjoint = 0;
  for (int t = 0; t < 3000; ++t) {
    BoxFootprint a = randomBox(), b = randomBox();
    std::set<int64_t> sa = bytesOf(a), sb = bytesOf(b);
    bool shared = false;
    for (int64_t x : sa)
      if (sb.count(x)) {
        shared = true;
        break;
      }
    disjoint += !shared;
    ASSERT_EQ(footprintsMayIntersect(a, b), shared) << "case " << t;
  }
  EXPECT_GT(disjoint, 100); // the random boxes exercise both answers
}
