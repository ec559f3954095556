//===- ExhaustiveTest.cpp - Selection vs exhaustive search ----------------===//
#include "TilingTestUtil.h"

#include "accel/Hardware/HardwareDesc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace accel;
using namespace accel::tiling;
using namespace accel::tiling::test;

namespace {

/// Brute force without any pruning (every size up to the dimension, both
/// orders): the reference for exhaustiveTiling on small shapes.
double bruteForceCycles(const GemmProblem &p, const TilingHardware &hw) {
  auto sizes = [&](int64_t dim) {
    std::vector<int64_t> v;
    for (int64_t s = hw.blockSize; s < dim; s += hw.blockSize)
      v.push_back(s);
    v.push_back(dim);
    return v;
  };
  double best = std::numeric_limits<double>::infinity();
  for (bool rm : {true, false})
    for (int64_t pm : sizes(p.m))
      for (int64_t pn : sizes(p.n))
        for (int64_t pk : sizes(p.k)) {
          Cost c = evaluateMapping(p, hw, {rm, pm, pn, pk});
          if (c.legal)
            best = std::min(best, c.cycles);
        }
  return best;
}

} // namespace

TEST(TilingExhaustive, MatchesUnprunedBruteForce) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    RandomCase c = randomCase(rng);
    c.p.m = std::min<int64_t>(c.p.m, 700);
    c.p.n = std::min<int64_t>(c.p.n, 700);
    c.p.k = std::min<int64_t>(c.p.k, 700);
    TileDecision e = exhaustiveTiling(c.p, c.hw);
    double ref = bruteForceCycles(c.p, c.hw);
    SCOPED_TRACE(testing::Message() << "case " << i << " m=" << c.p.m
                                    << " k=" << c.p.k << " n=" << c.p.n);
    ASSERT_EQ(e.feasible, std::isfinite(ref));
    if (e.feasible) {
      EXPECT_DOUBLE_EQ(e.cycles, ref);
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(TilingExhaustive, NeverWorseThanSelectionOnRandomShapes) {
  std::mt19937_64 rng(2024);
  int feasible = 0, within1 = 0, exact = 0;
  double worst = 0;
  for (int i = 0; i < 3000; ++i) {
    RandomCase c = randomCase(rng);
    TileDecision s = selectTiling(c.p, c.hw);
    ExhaustiveStats st;
    TileDecision e = exhaustiveTiling(c.p, c.hw, &st);
    SCOPED_TRACE(testing::Message()
                 << "case " << i << " m=" << c.p.m << " k=" << c.p.k
                 << " n=" << c.p.n << " d=" << c.p.elemBytes << "\n"
                 << toJson(c.hw) << "\nselected " << toJson(s)
                 << "\nexhaustive " << toJson(e));
    // The selection finds a mapping whenever one exists.
    ASSERT_EQ(s.feasible, e.feasible);
    if (!e.feasible)
      continue;
    ++feasible;
    EXPECT_LE(e.cycles, s.cycles * (1 + 1e-12));
    double gap = (s.cycles - e.cycles) / e.cycles;
    worst = std::max(worst, gap);
    within1 += gap <= 0.01;
    exact += gap <= 1e-12;
  }
  double frac = double(within1) / feasible;
  std::printf("[ random ] %d feasible cases: %.2f%% within 1%%, %.2f%% exact, "
              "worst gap %.2f%%\n",
              feasible, 100 * frac, 100.0 * exact / feasible, 100 * worst);
  EXPECT_GT(feasible, 2000);
  EXPECT_GE(frac, 0.95);
}

TEST(TilingExhaustive, SpecExampleOptimum) {
  // The exhaustive optimum of the worked example is the selection's point:
  // util 1 with the least accumulation (ties -> smaller buffer).
  GemmProblem p = gemm(1024, 4096, 4096);
  ExhaustiveStats st;
  TileDecision e = exhaustiveTiling(p, specExampleHw(), &st);
  ASSERT_TRUE(e.feasible) << e.error;
  EXPECT_DOUBLE_EQ(e.util, 1.0);
  EXPECT_EQ(e.accBytesUsed, 128u << 10);
  EXPECT_EQ(e.partitionM * e.partitionN, 128 * 512);
  EXPECT_GT(st.legal, 0u);
  EXPECT_LE(st.legal, st.visited);
  // The tie example: the optimum does not split.
  TileDecision t = exhaustiveTiling(gemm(4096, 256, 4096), specExampleHw());
  ASSERT_TRUE(t.feasible);
  EXPECT_FALSE(t.needSplitK);
  EXPECT_DOUBLE_EQ(t.util, 1.0);
}

TEST(TilingExhaustive, BaselinesAreLegalAndNoBetter) {
  std::mt19937_64 rng(4);
  for (int i = 0; i < 1000; ++i) {
    RandomCase c = randomCase(rng);
    TileDecision e = exhaustiveTiling(c.p, c.hw);
    for (Baseline b :
         {Baseline::FixedOrderNoSplit, Baseline::FixedBlockTiles}) {
      TileDecision d = baselineTiling(c.p, c.hw, b);
      if (!d.feasible)
        continue;
      ASSERT_TRUE(e.feasible);
      EXPECT_TRUE(d.outerRowMajor);
      EXPECT_GE(d.cycles, e.cycles * (1 - 1e-12));
      if (b == Baseline::FixedBlockTiles) {
        EXPECT_EQ(d.partitionM, std::min<int64_t>(c.hw.blockSize, c.p.m));
        EXPECT_EQ(d.partitionN, std::min<int64_t>(c.hw.blockSize, c.p.n));
      }
    }
  }
  // Fixed order without split on a K that fits: A strips resident, B
  // reloaded, K whole.
  TileDecision d = baselineTiling(gemm(4096, 256, 4096), specExampleHw(),
                                  Baseline::FixedOrderNoSplit);
  ASSERT_TRUE(d.feasible);
  EXPECT_FALSE(d.needSplitK);
  EXPECT_EQ(d.partitionM, 512);
  EXPECT_EQ(d.loadA, 1);
  EXPECT_EQ(d.loadB, 8);
}

// The benchmark's shape suite on the shipped presets: the selection reaches
// the exhaustive optimum (within 1 %) on at least 99 % of the shapes.
TEST(TilingExhaustive, ShapeSuiteOnPresets) {
  std::vector<HardwareDesc> machines{defaultHardware()};
  for (const char *name : {"bandwidth-starved", "asymmetric", "large"}) {
    HardwareDesc hw;
    std::string err;
    ASSERT_TRUE(loadHardwareDesc(
        std::string(ACCEL_SOURCE_DIR) + "/hw/" + name + ".json", hw, err))
        << err;
    machines.push_back(hw);
  }
  int total = 0, within = 0;
  for (const HardwareDesc &m : machines)
    for (Placement b : {Placement::Dram, Placement::OnChip}) {
      DeriveOptions o;
      o.b = b;
      TilingHardware hw = deriveTilingHardware(m, o);
      unsigned d = computeElemBytes(m);
      std::vector<NamedProblem> shapes = bertLargeGemms(d);
      auto r = resnet50Gemms(d, {1, 32});
      shapes.insert(shapes.end(), r.begin(), r.end());
      for (const NamedProblem &np : shapes) {
        SCOPED_TRACE(m.name + " " + np.name);
        TileDecision s = selectTiling(np.problem, hw);
        TileDecision e = exhaustiveTiling(np.problem, hw);
        ASSERT_TRUE(s.feasible) << s.error;
        ASSERT_TRUE(e.feasible) << e.error;
        EXPECT_LE(e.cycles, s.cycles * (1 + 1e-12));
        ++total;
        within += s.cycles <= e.cycles * 1.01;
      }
    }
  EXPECT_EQ(total, 4 * 2 * (63 + 50));
  EXPECT_GE(within, total * 99 / 100);
}

TEST(TilingShapes, Suites) {
  auto bert = bertLargeGemms(4);
  EXPECT_EQ(bert.size(), 63u);
  auto resnet = resnet50Gemms(4, {1});
  EXPECT_EQ(resnet.size(), 25u);
  bool foundFfn = false;
  for (auto &np : bert)
    if (np.name == "bert.s512.b32.ffn_down") {
      foundFfn = true;
      EXPECT_EQ(np.problem.m, 512 * 32);
      EXPECT_EQ(np.problem.k, 4096);
      EXPECT_EQ(np.problem.n, 1024);
    }
  EXPECT_TRUE(foundFfn);
}
