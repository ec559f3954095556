//===- SharedCTest.cpp - Split-K partitions with a shared C region --------===//
//
// A split-K partition writes its C tile once, after its last K chunk, so the
// kernels keep one C (and init) region beside the two ping-pong halves
// (codegen::GemmTiling::sharedC) and the partial sums may fill the whole
// accumulation buffers. These tests check the parameters the selection sees,
// the tiling the kernel realises and, with random data and strict hazard
// checking, the numbers of the dealt kernel (matmulLayerProgram).
//
//===----------------------------------------------------------------------===//
#include "TilingTestUtil.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Sim/Simulator.h"
#include "accel/Tiling/TileSelection.h"
#include <cmath>
#include <gtest/gtest.h>
#include <random>

using namespace accel;
using namespace accel::tiling;
using namespace accel::tiling::test;

namespace {
HardwareDesc starved() { return presetHardware("bandwidth-starved"); }

/// Simulates matmulLayerProgram with random operands (strict hazards) and
/// compares with a double-precision reference.
void expectMatmulNumbers(const HardwareDesc &hw, const GemmProblem &p,
                         bool bias, const Mapping *forced, bool expectShared) {
  SCOPED_TRACE(hw.name + " " + std::to_string(p.m) + "x" + std::to_string(p.k) +
               "x" + std::to_string(p.n) + " x" + std::to_string(p.count) +
               (bias ? " bias" : ""));
  TileDecision used;
  Program prog = codegen::matmulLayerProgram(hw, p, bias, forced, &used);
  codegen::GemmTiling t;
  ASSERT_TRUE(codegen::gemmTilingFromDecision(hw, used, p, bias, t));
  EXPECT_EQ(t.sharedC, expectShared);
  const int64_t c = p.count;
  std::map<std::string, Tensor> in, out;
  in["a"] = {{c, p.m, p.k}, randomData(size_t(c * p.m * p.k), 1)};
  in["b"] = {{c, p.k, p.n}, randomData(size_t(c * p.k * p.n), 2)};
  if (bias)
    in["bias"] = {{p.n}, randomData(size_t(p.n), 3)};
  SimOptions opts;
  opts.hazardsAreErrors = true;
  SimStats stats;
  std::string err;
  ASSERT_TRUE(simulate(prog, hw, in, opts, out, stats, err)) << err;
  const std::vector<float> &A = in["a"].data, &B = in["b"].data;
  const std::vector<float> &C = out["c"].data;
  ASSERT_EQ(C.size(), size_t(c * p.m * p.n));
  for (int64_t b = 0; b < c; ++b)
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t j = 0; j < p.n; ++j) {
        double ref = bias ? in["bias"].data[size_t(j)] : 0.0;
        for (int64_t k = 0; k < p.k; ++k)
          ref += double(A[size_t((b * p.m + i) * p.k + k)]) *
                 double(B[size_t((b * p.k + k) * p.n + j)]);
        float got = C[size_t((b * p.m + i) * p.n + j)];
        ASSERT_NEAR(got, ref, 1e-3 + 1e-4 * std::fabs(ref))
            << "at [" << b << ", " << i << ", " << j << "]";
      }
}
} // namespace

TEST(SharedC, SplitKPartialSumsMayFillTheAccumulators) {
  HardwareDesc hw = starved();
  // Storage 512 KiB: S/2 for the partial sums (the whole 4 x 4 x 16 KiB
  // accumulators), S/4 when the init tile needs a region of its own.
  EXPECT_EQ(codegen::kernelTilingHardware(hw, false).accBufferBytes, 262144u);
  EXPECT_EQ(codegen::kernelTilingHardware(hw, true).accBufferBytes, 131072u);
  EXPECT_EQ(codegen::kernelTilingHardware(hw, false).aBufferBytes, 65536u);
  EXPECT_EQ(codegen::kernelTilingHardware(hw, false).bBufferBytes, 65536u);

  // 512x1024x512 on bandwidth-starved: a 256x256 split-K partition, which
  // the kernel realises as is with a shared C region.
  GemmProblem p{512, 1024, 512, 4, 1};
  TileDecision d = selectTiling(p, codegen::kernelTilingHardware(hw, false));
  ASSERT_TRUE(d.feasible);
  EXPECT_TRUE(d.needSplitK);
  EXPECT_EQ(d.partitionM, 256);
  EXPECT_EQ(d.partitionN, 256);
  EXPECT_EQ(d.partitionK, 64);
  codegen::GemmTiling t;
  ASSERT_TRUE(codegen::gemmTilingFromDecision(hw, d, p, false, t));
  EXPECT_TRUE(t.sharedC);
  EXPECT_EQ(t.peRows * int64_t(hw.pesPerCluster), 256);
  EXPECT_EQ(t.nc, 256);
  EXPECT_EQ(t.kc, 64);

  // Without a K split the C tile stays in each half (no shared region).
  GemmProblem shallow{512, 256, 512, 4, 1};
  Mapping noSplit{true, 64, 64, 256};
  TileDecision ns = decisionFromMapping(
      shallow, codegen::kernelTilingHardware(hw, false), noSplit);
  ASSERT_TRUE(ns.feasible);
  ASSERT_TRUE(codegen::gemmTilingFromDecision(hw, ns, shallow, false, t));
  EXPECT_FALSE(t.sharedC);
}

TEST(SharedC, DealtKernelNumbersWithRandomData) {
  HardwareDesc hw = starved();
  // Selected 256x256 split-K, with and without bias; non-divisible shapes
  // (remainder partitions and K chunks); a batch; outer n.
  expectMatmulNumbers(hw, {512, 1024, 512, 4, 1}, false, nullptr, true);
  expectMatmulNumbers(hw, {512, 1024, 512, 4, 1}, true, nullptr, true);
  expectMatmulNumbers(hw, {300, 700, 290, 4, 1}, true, nullptr, true);
  expectMatmulNumbers(hw, {260, 333, 270, 4, 2}, false, nullptr, true);
  Mapping outerN{false, 128, 256, 64};
  expectMatmulNumbers(hw, {320, 500, 520, 4, 1}, true, &outerN, true);
  // The default machine: compute-bound, its own choice.
  HardwareDesc def = defaultHardware();
  Mapping big{true, 256, 128, 64};
  expectMatmulNumbers(def, {512, 384, 512, 4, 1}, true, &big, true);
}

TEST(MachineSearch, RefinementUsesEveryClusterAndIsNeverWorse) {
  HardwareDesc hw = starved();
  TilingHardware th = codegen::kernelTilingHardware(hw, false);
  // One 256x256 partition (the spec's choice) keeps one cluster busy; the
  // refinement deals 128x128 partitions over all four.
  GemmProblem p{256, 1024, 256, 4, 1};
  TileDecision spec = selectTiling(p, th);
  ASSERT_EQ(spec.partitionM, 256);
  MachineSearchStats ms;
  TileDecision best = machineSearch(p, th, hw, spec, false, 3e5, &ms);
  EXPECT_GT(ms.tried, 0);
  EXPECT_LT(ms.bestCycles, 0.99 * ms.startCycles);
  EXPECT_EQ(machineCycles(p, th, hw, best).cycles, ms.bestCycles);
  TileDecision r = refineForMachine(p, th, hw, spec);
  EXPECT_EQ(r.partitionM, 128);
  EXPECT_EQ(r.partitionN, 128);
  // Never worse than the start, on a few shapes; the result is legal.
  for (GemmProblem q :
       {GemmProblem{512, 128, 784, 4, 1}, GemmProblem{4096, 1024, 1024, 4, 1},
        GemmProblem{128, 64, 128, 4, 16}}) {
    TileDecision s = selectTiling(q, th);
    TileDecision x = refineForMachine(q, th, hw, s);
    ASSERT_TRUE(x.feasible);
    EXPECT_LE(machineCycles(q, th, hw, x).cycles,
              machineCycles(q, th, hw, s).cycles);
  }
}
