//===- ReductionTest.cpp - Reduction trees of K-split partial sums --------===//
//
// cutReductionBox covers a box exactly once within the caps; the mesh and
// memory trees validate (every RECV matched by SENDs / SIGNALs, no
// deadlock) on 1, 2 and 4 members with many chunks, and a mesh tree on a
// bus-contention machine is an error.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Reduction.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Validate.h"

#include <gtest/gtest.h>
#include <set>

using namespace accel;
using namespace accel::codegen;

namespace {

/// Element offsets a box touches (relative to base 0).
std::multiset<int64_t> elements(const DramBox &b) {
  std::multiset<int64_t> out;
  int64_t base = int64_t(b.base) / 4;
  for (int64_t i0 = 0; i0 < b.shape[0]; ++i0)
    for (int64_t i1 = 0; i1 < b.shape[1]; ++i1)
      for (int64_t i2 = 0; i2 < b.shape[2]; ++i2)
        out.insert(base + i0 * b.stride[0] + i1 * b.stride[1] +
                   i2 * b.stride[2]);
  return out;
}

TEST(Reduction, CutCoversTheBoxOnceWithinTheCaps) {
  DramBox b; // 3 x 5 x 7 with gaps between rows
  b.base = 400;
  b.dim(3, 100).dim(5, 10).dim(7, 1);
  for (auto [colCap, rowCap] : {std::pair<int64_t, int64_t>{7, 15},
                                {3, 4},
                                {7, 2},
                                {2, 1},
                                {100, 100}}) {
    std::multiset<int64_t> got;
    for (const DramBox &c : cutReductionBox(b, colCap, rowCap)) {
      EXPECT_LE(c.shape[2], colCap);
      EXPECT_LE(c.shape[0] * c.shape[1], rowCap);
      EXPECT_EQ(c.rowDims, 2);
      for (int64_t e : elements(c))
        got.insert(e);
    }
    EXPECT_EQ(got, elements(b)) << colCap << " " << rowCap;
  }
  // Everything fits: one box.
  EXPECT_EQ(cutReductionBox(b, 7, 15).size(), 1u);
}

/// K parts of a `rows` x `cols` output spread over `members` clusters.
ReductionGroup group(uint32_t members, int64_t rows, int64_t cols) {
  ReductionGroup g;
  for (uint32_t i = 0; i < members; ++i)
    g.members.push_back({i, int64_t(i) * rows * cols * 4});
  DramBox b;
  b.base = 1 << 20;
  b.dim(rows, cols).dim(cols, 1);
  g.boxes.push_back(b);
  g.outShiftBytes = -(1 << 20);
  return g;
}

size_t count(const Program &p, CommandKind k) {
  size_t n = 0;
  for (const ClusterStream &s : p.clusters)
    for (const Command &c : s.commands)
      n += c.kind == k;
  return n;
}

TEST(Reduction, TreesValidate) {
  HardwareDesc hw;
  hw.storageBytes = 64 * 1024; // many chunks
  for (ReductionExchange x :
       {ReductionExchange::Mesh, ReductionExchange::Memory})
    for (uint32_t members : {1u, 2u, 3u, 4u}) {
      Program p;
      StreamBuilder sb(p, hw);
      std::string err;
      ASSERT_TRUE(emitReductionTrees(sb, {group(members, 300, 40)}, x,
                                     SfuFunc::Relu, err))
          << err;
      p.dramSize = 8 << 20;
      EXPECT_TRUE(validateProgram(p, hw, err))
          << reductionExchangeName(x) << " " << members << ": " << err;
      if (x == ReductionExchange::Mesh) {
        EXPECT_EQ(count(p, CommandKind::Send) > 0, members > 1);
      } else {
        EXPECT_EQ(count(p, CommandKind::Send), 0u);
        EXPECT_EQ(count(p, CommandKind::Signal), members - 1);
      }
    }
}

TEST(Reduction, MeshNeedsSharedClusterStorage) {
  HardwareDesc hw;
  hw.sharedClusterCache = false;
  Program p;
  StreamBuilder sb(p, hw);
  std::string err;
  EXPECT_FALSE(emitReductionTrees(sb, {group(2, 4, 4)}, ReductionExchange::Mesh,
                                  SfuFunc::None, err));
  EXPECT_NE(err.find("bus-contention"), std::string::npos) << err;
}

TEST(Reduction, ClusterInTwoGroupsIsAnError) {
  HardwareDesc hw;
  Program p;
  StreamBuilder sb(p, hw);
  std::string err;
  EXPECT_FALSE(emitReductionTrees(sb, {group(2, 4, 4), group(2, 4, 4)},
                                  ReductionExchange::Memory, SfuFunc::None,
                                  err));
  EXPECT_NE(err.find("two reduction groups"), std::string::npos) << err;
}

} // namespace
