//===- SimAgreementTest.cpp - Modelled vs simulated cycles of a matmul ----===//
//
// Issue 4, point 4: the simulator's cycle count for a lowered matmul
// (codegen::matmulLayerProgram = the graph.matmul lowering, run by
// accel::simulate) against the library's machine-level prediction
// (tiling::machineCycles). The agreement reached is stated in
// docs/tiling.md ("Model vs simulator") and enforced here.
//
//===----------------------------------------------------------------------===//
#include "TilingTestUtil.h"
#include "accel/Codegen/Kernels.h"
#include "accel/Sim/Simulator.h"
#include "accel/Tiling/TileSelection.h"
#include <cmath>
#include <cstdio>
#include <gtest/gtest.h>

using namespace accel;
using namespace accel::tiling;
using namespace accel::tiling::test;

namespace {
struct Case {
  const char *hw;
  int64_t m, k, n, count;
  bool bias;
  const char *baseline; ///< "" = selected
};

// Shapes: square / tall / wide, split-K and not, non-multiples of 64,
// batches, bias; the selected tiling and the naive baselines.
const Case kCases[] = {
    {"bandwidth-starved", 256, 1024, 256, 1, false, ""},
    {"bandwidth-starved", 256, 1024, 256, 1, false, "naive-order"},
    {"bandwidth-starved", 256, 1024, 256, 1, false, "naive-64"},
    {"bandwidth-starved", 256, 1024, 256, 1, false, "square-sk"},
    {"bandwidth-starved", 128, 1024, 128, 1, false, ""},
    {"bandwidth-starved", 512, 256, 512, 1, false, ""},
    {"bandwidth-starved", 512, 256, 512, 1, false, "naive-64"},
    {"bandwidth-starved", 200, 700, 300, 1, false, ""},
    {"bandwidth-starved", 200, 700, 300, 1, true, ""},
    {"bandwidth-starved", 128, 64, 512, 4, false, ""},
    {"bandwidth-starved", 64, 2048, 64, 1, false, ""},
    {"bandwidth-starved", 384, 512, 128, 1, false, "naive-order"},
    {"default", 256, 1024, 256, 1, false, ""},
    {"default", 512, 512, 512, 1, false, ""},
    {"default", 512, 512, 512, 1, false, "naive-64"},
    {"default", 200, 700, 300, 1, true, ""},
    {"default", 128, 64, 512, 8, false, ""},
    {"default", 1024, 256, 256, 1, false, ""},
    {"asymmetric", 256, 1024, 256, 1, false, ""},
    {"asymmetric", 300, 500, 200, 1, true, ""},
};

TileDecision decide(const HardwareDesc &hw, const GemmProblem &p, bool bias,
                    const std::string &baseline) {
  TilingHardware th = codegen::kernelTilingHardware(hw, bias);
  if (baseline == "naive-order")
    return baselineTiling(p, th, Baseline::FixedOrderNoSplit);
  if (baseline == "naive-64")
    return baselineTiling(p, th, Baseline::FixedBlockTiles);
  if (baseline == "square-sk")
    return baselineTiling(p, th, Baseline::SquareSplitK);
  return selectTiling(p, th);
}
} // namespace

TEST(TilingSimAgreement, MachineModelMatchesSimulator) {
  double worst = 0, sumAbs = 0;
  int n = 0;
  for (const Case &c : kCases) {
    HardwareDesc hw = presetHardware(c.hw);
    GemmProblem p{c.m, c.k, c.n, computeElemBytes(hw), c.count};
    TileDecision forcedDecision = decide(hw, p, c.bias, c.baseline);
    ASSERT_TRUE(forcedDecision.feasible);
    Mapping forced = forcedDecision.mapping();
    TileDecision used;
    Program prog = codegen::matmulLayerProgram(hw, p, c.bias, &forced, &used);
    ASSERT_EQ(used.mapping().partitionM, forced.partitionM);
    std::map<std::string, Tensor> in, out;
    in["a"] = {{c.count, c.m, c.k},
               std::vector<float>(size_t(c.count * c.m * c.k), 1.0f)};
    in["b"] = {{c.count, c.k, c.n},
               std::vector<float>(size_t(c.count * c.k * c.n), 0.5f)};
    if (c.bias)
      in["bias"] = {{c.n}, std::vector<float>(size_t(c.n), 2.0f)};
    SimOptions strict; // a missing WAIT / BARRIER fails the test
    strict.hazardsAreErrors = true;
    SimStats stats;
    std::string err;
    ASSERT_TRUE(simulate(prog, hw, in, strict, out, stats, err)) << err;
    // Numerics: every element is k * 0.5 (+ 2).
    float expect = float(c.k) * 0.5f + (c.bias ? 2.0f : 0.0f);
    const Tensor &C = out["c"];
    ASSERT_EQ(C.data.size(), size_t(c.count * c.m * c.n));
    for (float v : C.data)
      ASSERT_EQ(v, expect);
    TilingHardware th = codegen::kernelTilingHardware(hw, c.bias);
    // The simulator charges a DMA to the channel of its DRAM addresses: all
    // buffers of this kernel lie in one channel region, which then serves
    // every cluster.
    uint32_t dataChannel = hw.channelOfAddress(0);
    for (const Symbol &s : prog.symbols)
      ASSERT_EQ(hw.channelOfAddress(s.dramAddr + s.numElements() * 4 - 1),
                dataChannel)
          << s.name;
    std::vector<uint32_t> channels(hw.numClusters(), dataChannel);
    MachineEstimate est =
        machineCycles(p, th, hw, codegen::realisedDecision(hw, used, p, c.bias),
                      c.bias, &channels);
    double rel = (double(stats.cycles) - est.cycles) / double(stats.cycles);
    std::printf(
        "%-18s %5lld x %5lld x %5lld x%-2lld %-4s %-11s outer %s "
        "%4lld x %4lld x %4lld  model %10.0f  machine %10.0f  sim %10llu"
        "  %+6.2f %%  %s\n",
        c.hw, (long long)c.m, (long long)c.k, (long long)c.n,
        (long long)c.count, c.bias ? "bias" : "",
        *c.baseline ? c.baseline : "selected", used.outerRowMajor ? "m" : "n",
        (long long)used.partitionM, (long long)used.partitionN,
        (long long)used.partitionK, used.cycles, est.cycles,
        (unsigned long long)stats.cycles, 100 * rel,
        est.channelBound ? "channel" : "compute");
    worst = std::max(worst, std::fabs(rel));
    sumAbs += std::fabs(rel);
    ++n;
  }
  std::printf("agreement: %d shapes, mean |error| %.2f %%, max %.2f %%\n", n,
              100 * sumAbs / n, 100 * worst);
  // Reached (docs/tiling.md): mean 2.2 %, max 10.5 % on these 20 cases
  // (the prediction prices the tiles the kernel realises; the worst case is
  // compute-bound, where the model assumes perfect load / compute overlap).
  EXPECT_LE(worst, 0.12);
  EXPECT_LE(sumAbs / n, 0.03);
}
