//===- TilingTest.cpp - Tile choice and emitted-program validity ----------===//
#include "accel/Codegen/Kernels.h"
#include "accel/Target/Validate.h"
#include <gtest/gtest.h>
#include <set>

using namespace accel;
using namespace accel::codegen;

namespace {
std::vector<HardwareDesc> presets() {
  std::vector<HardwareDesc> out{defaultHardware()};
  for (const char *name : {"bandwidth-starved", "asymmetric", "large"}) {
    HardwareDesc hw;
    std::string err;
    EXPECT_TRUE(loadHardwareDesc(
        std::string(ACCEL_SOURCE_DIR) + "/hw/" + name + ".json", hw, err))
        << err;
    out.push_back(hw);
  }
  return out;
}

struct Shape {
  int64_t m, n, k;
};
const Shape kShapes[] = {{1, 1, 1},    {3, 5, 4},      {4, 8, 8},
                         {64, 64, 64}, {100, 37, 513}, {1024, 1024, 4096},
                         {7, 4096, 3}, {4096, 7, 1},   {128, 3000, 27}};
} // namespace

TEST(GemmTiling, FitsEveryBufferOnEveryPreset) {
  for (const HardwareDesc &hw : presets())
    for (const Shape &s : kShapes)
      for (bool init : {false, true}) {
        GemmTiling t = chooseGemmTiling(hw, s.m, s.n, s.k, init);
        SCOPED_TRACE(hw.name + " " + std::to_string(s.m) + "x" +
                     std::to_string(s.n) + "x" + std::to_string(s.k));
        int64_t mc = t.peRows * hw.pesPerCluster;
        EXPECT_GE(t.peRows, 1);
        EXPECT_GE(t.kc, 1);
        EXPECT_GE(t.nc, 1);
        // Never larger than the problem needs.
        EXPECT_LE(t.kc, s.k);
        EXPECT_LE(t.nc, s.n);
        EXPECT_LE(t.peRows, (s.m + hw.pesPerCluster - 1) / hw.pesPerCluster);
        EXPECT_LE(uint64_t(t.peRows * t.kc * 4), hw.inputBufferBytes);
        EXPECT_LE(uint64_t(t.kc * t.nc * 4), hw.weightQueueBytes);
        EXPECT_LE(uint64_t(t.peRows * t.nc * 4), hw.accBufferBytes);
        int64_t half = mc * t.kc + t.kc * t.nc + mc * t.nc * (init ? 2 : 1);
        EXPECT_LE(uint64_t(half * 4), hw.storageBytes / 2);
      }
}

TEST(GemmTiling, LargeProblemsUseLargeTiles) {
  HardwareDesc hw = defaultHardware();
  GemmTiling t = chooseGemmTiling(hw, 1024, 1024, 1024, false);
  // A 1x1x1 tile would be correct but absurd: the chooser must fill the
  // MAC lanes (nc >= lanes) and use more than one row per PE.
  EXPECT_GE(t.nc, int64_t(hw.macLanes));
  EXPECT_GT(t.peRows, 1);
  EXPECT_GT(t.kc, 16);
}

namespace {
/// A dense row-major matmul C[m,n] = A[m,k] B[k,n] at fixed DRAM addresses.
Program matmulProgram(const HardwareDesc &hw, int64_t m, int64_t n, int64_t k,
                      bool bias) {
  Program p;
  StreamBuilder sb(p, hw);
  uint64_t a = 0, b = a + m * k * 4, c = b + k * n * 4, i = c + m * n * 4;
  GemmTiling t = chooseGemmTiling(hw, m, n, k, bias);
  GemmTiles g;
  g.m = m;
  for (int64_t o = 0; o < k; o += t.kc)
    g.kChunks.push_back(std::min(t.kc, k - o));
  for (int64_t o = 0; o < n; o += t.nc)
    g.nTiles.push_back(std::min(t.nc, n - o));
  g.aBox = [=](int64_t m0, int64_t mc, size_t ki) {
    DramBox box;
    box.base = a + (m0 * k + int64_t(ki) * t.kc) * 4;
    box.dim(mc, k).dim(std::min(t.kc, k - int64_t(ki) * t.kc), 1);
    return box;
  };
  g.bBox = [=](size_t ki, size_t ni) {
    DramBox box;
    box.base = b + (int64_t(ki) * t.kc * n + int64_t(ni) * t.nc) * 4;
    box.dim(std::min(t.kc, k - int64_t(ki) * t.kc), n)
        .dim(std::min(t.nc, n - int64_t(ni) * t.nc), 1);
    return box;
  };
  g.cBox = [=](int64_t m0, int64_t mc, size_t ni) {
    DramBox box;
    box.base = c + (m0 * n + int64_t(ni) * t.nc) * 4;
    box.dim(mc, n).dim(std::min(t.nc, n - int64_t(ni) * t.nc), 1);
    return box;
  };
  if (bias)
    g.initBox = [=](int64_t m0, int64_t mc, size_t ni) {
      DramBox box;
      box.base = i + int64_t(ni) * t.nc * 4;
      box.dim(mc, 0).dim(std::min(t.nc, n - int64_t(ni) * t.nc), 1);
      return box;
    };
  emitGemmLayer(sb, {g}, t, {});
  p.dramSize = i + n * 4;
  return p;
}
} // namespace

TEST(GemmLayer, EmittedProgramsValidate) {
  for (const HardwareDesc &hw : presets())
    for (const Shape &s : kShapes) {
      if (s.m * s.n * s.k > (1 << 24))
        continue;
      for (bool bias : {false, true}) {
        Program p = matmulProgram(hw, s.m, s.n, s.k, bias);
        std::string err;
        EXPECT_TRUE(validateProgram(p, hw, err))
            << hw.name << " " << s.m << "x" << s.n << "x" << s.k << ": " << err;
      }
    }
}

TEST(GemmLayer, TilesAreDealtOverAllClusters) {
  HardwareDesc hw = defaultHardware();
  Program p = matmulProgram(hw, 512, 512, 64, false);
  size_t busy = 0;
  for (auto &s : p.clusters) {
    size_t execs = 0;
    for (auto &c : s.commands)
      execs += c.kind == CommandKind::Execute;
    busy += execs > 0;
  }
  EXPECT_EQ(busy, hw.numClusters());
}

namespace {
/// Eight independent 8 x 8 x 8 matmuls in one layer (problem q's C at
/// 4096 + 256 q), dealt by `deal`; per cluster, the problems whose C it
/// stores.
std::vector<std::set<uint64_t>> storedProblems(GemmDeal deal) {
  HardwareDesc hw = defaultHardware();
  Program p;
  StreamBuilder sb(p, hw);
  GemmTiling t = chooseGemmTiling(hw, 8, 8, 8, false);
  std::vector<GemmTiles> problems;
  for (uint64_t q = 0; q < 8; ++q) {
    GemmTiles g;
    g.m = 8;
    g.kChunks = {8};
    g.nTiles = {8};
    g.aBox = [](int64_t m0, int64_t mc, size_t) {
      DramBox box;
      box.base = uint64_t(m0) * 32;
      box.dim(mc, 8).dim(8, 1);
      return box;
    };
    g.bBox = [](size_t, size_t) {
      DramBox box;
      box.base = 2048;
      box.dim(8, 8).dim(8, 1);
      return box;
    };
    g.cBox = [q](int64_t m0, int64_t mc, size_t) {
      DramBox box;
      box.base = 4096 + q * 256 + uint64_t(m0) * 32;
      box.dim(mc, 8).dim(8, 1);
      return box;
    };
    problems.push_back(g);
  }
  emitGemmLayer(sb, problems, t, {}, deal);
  std::vector<std::set<uint64_t>> stored(p.clusters.size());
  for (size_t cl = 0; cl < p.clusters.size(); ++cl)
    for (const Command &c : p.clusters[cl].commands)
      if (c.kind == CommandKind::Dma && c.dma.dir == DmaDir::Store)
        stored[cl].insert((c.dma.dst - 4096) / 256);
  return stored;
}
} // namespace

TEST(GemmLayer, DealsRoundRobinOrInBlocks) {
  // Each problem is two outer partitions of 4 rows (4 PEs, one row each),
  // 16 partitions over four clusters. Round-robin deals partition k to
  // cluster k mod 4: the even problems to clusters 0 and 1, the odd ones
  // to 2 and 3, each problem split over two clusters. Blocks deal
  // partitions 4c .. 4c + 3 to cluster c: problems 2c and 2c + 1 whole.
  ASSERT_EQ(chooseGemmTiling(defaultHardware(), 8, 8, 8, false).peRows, 1);
  std::vector<std::set<uint64_t>> rr = storedProblems(GemmDeal::RoundRobin),
                                  blocks = storedProblems(GemmDeal::Blocks);
  ASSERT_EQ(rr.size(), 4u);
  ASSERT_EQ(blocks.size(), 4u);
  const std::set<uint64_t> even{0, 2, 4, 6}, odd{1, 3, 5, 7};
  for (uint64_t c = 0; c < 4; ++c) {
    EXPECT_EQ(rr[c], c < 2 ? even : odd) << c;
    EXPECT_EQ(blocks[c], (std::set<uint64_t>{2 * c, 2 * c + 1})) << c;
  }
}

TEST(GemmLayer, ExecutePatchesOnlyChangedFields) {
  HardwareDesc hw = defaultHardware();
  Program p = matmulProgram(hw, 64, 64, 4096, false); // many K chunks
  // In steady state only the ping-pong addresses change (and shift/last).
  size_t maxPatches = 0, execs = 0;
  for (auto &c : p.clusters[0].commands)
    if (c.kind == CommandKind::Execute) {
      ++execs;
      if (execs > 2)
        maxPatches = std::max(maxPatches, c.patches.size());
    }
  ASSERT_GT(execs, 3u);
  EXPECT_LE(maxPatches, 3u); // LD acts addr, LD weights addr, ST addr
}

TEST(Coalesce, MergesContiguousDimsAndDropsOnes) {
  View a{0, {60, 20, 5, 1}}, b{0, {0, 0, 5, 1}};
  std::vector<int64_t> s = coalesce({2, 3, 4, 5}, {&a, &b});
  // a is dense; b broadcasts the first two dims: only 3x4 merge... the
  // last two dims are contiguous in both.
  ASSERT_EQ(s, (std::vector<int64_t>{6, 20}));
  EXPECT_EQ(a.strides, (std::vector<int64_t>{20, 1}));
  EXPECT_EQ(b.strides, (std::vector<int64_t>{0, 1}));
  View c{0, {1, 1}};
  std::vector<int64_t> s2 = coalesce({1, 7}, {&c});
  EXPECT_EQ(s2, (std::vector<int64_t>{7}));
}
