//===- DepthwiseKernelTest.cpp - Depthwise conv on the SW weight queue ----===//
//
// planDepthwise's choices (G output rows per MAC, the slide overlap, the
// fallback conditions) and emitDepthwiseLayer's program: it validates, the
// simulator's numbers match a reference, and the SW queue really keeps the
// overlapping rows (SimStats::slidingRowsReused).
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Depthwise.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Validate.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

using namespace accel;
using namespace accel::codegen;

namespace {

DepthwiseLayer layer(int64_t planes, int64_t Hp, int64_t Wp, int64_t k,
                     int64_t s) {
  DepthwiseLayer l;
  l.planes = planes;
  l.C = planes;
  l.Hp = Hp;
  l.Wp = Wp;
  l.H = Hp; // already padded
  l.W = Wp;
  l.KH = l.KW = k;
  l.sh = l.sw = s;
  l.OH = (Hp - k) / s + 1;
  l.OW = (Wp - k) / s + 1;
  return l;
}

} // namespace

TEST(DepthwiseKernel, PlanUsesOutputRowsPerPeWhileWindowsOverlap) {
  HardwareDesc hw = defaultHardware();
  DepthwisePlan p;
  std::string err;
  // 3x3 stride 1: a = 3 < K = 9, 4 PEs -> G = 4, Kbig = 3*3 + 9 = 18, a
  // slide keeps 18 - 4*3 = 6 queue rows.
  ASSERT_TRUE(planDepthwise(hw, layer(8, 58, 58, 3, 1), p, err)) << err;
  EXPECT_EQ(p.K, 9);
  EXPECT_EQ(p.a, 3);
  EXPECT_EQ(p.G, 4);
  EXPECT_EQ(p.Kbig, 18);
  EXPECT_EQ(p.slideKeep, 6);
  EXPECT_EQ(p.owc, 56);
  EXPECT_EQ(p.bandRows, 56); // a whole 56 x 56 plane fits a storage half
  EXPECT_EQ(p.zeroElems, 2 * 9 + 9);
  // Stride 3 with a 3x3 kernel: windows do not overlap (a = K), extra PEs
  // would only add zero taps -> G = 1, no slide.
  ASSERT_TRUE(planDepthwise(hw, layer(8, 30, 30, 3, 3), p, err)) << err;
  EXPECT_EQ(p.G, 1);
  EXPECT_EQ(p.slideKeep, 0);
  // A window larger than the input buffer / queue: no plan.
  EXPECT_FALSE(planDepthwise(hw, layer(1, 300, 300, 200, 1), p, err));
  EXPECT_NE(err.find("does not fit"), std::string::npos) << err;
}

// Lane rows (docs/depthwise.md, "Small planes"): a 14 x 14 plane under a
// 3x3 window, G = 4 PEs -> laneRows ceil(14 / 4) = 4, the queue's columns
// 4 blocks of 14, one group per plane; the guards of LaneRows::Auto.
TEST(DepthwiseKernel, LaneRowsPackSmallPlanesWhereTheyHelp) {
  HardwareDesc hw = defaultHardware();
  DepthwisePlan p;
  std::string err;
  // 640 planes = 160 per cluster of the 2 x 2 grid: packed.
  ASSERT_TRUE(planDepthwise(hw, layer(640, 16, 16, 3, 1), p, err)) << err;
  EXPECT_EQ(p.G, 4);
  EXPECT_EQ(p.laneRows, 4);
  EXPECT_EQ(p.owc, 14);
  EXPECT_EQ(p.bandRows, 14);
  EXPECT_EQ(p.coveredRows(), 16); // 2 rows computed past OH, not stored
  EXPECT_EQ(p.slideKeep, 0);
  // Off: one output row per MAC row, the sliding queue.
  ASSERT_TRUE(
      planDepthwise(hw, layer(640, 16, 16, 3, 1), p, err, LaneRows::Off));
  EXPECT_EQ(p.laneRows, 1);
  EXPECT_EQ(p.slideKeep, 6);
  // Too few planes per cluster (16 planes, 4 each): auto keeps rows per
  // MAC row, on packs anyway.
  ASSERT_TRUE(planDepthwise(hw, layer(16, 16, 16, 3, 1), p, err)) << err;
  EXPECT_EQ(p.laneRows, 1);
  ASSERT_TRUE(planDepthwise(hw, layer(16, 16, 16, 3, 1), p, err, LaneRows::On));
  EXPECT_EQ(p.laneRows, 4);
  // A DRAM-bound layer (a channel of 1 byte per cycle): not faster packed.
  HardwareDesc slow = hw;
  for (MemoryChannel &ch : slow.channels)
    ch.bytesPerCycle = 1;
  ASSERT_TRUE(planDepthwise(slow, layer(640, 16, 16, 3, 1), p, err)) << err;
  EXPECT_EQ(p.laneRows, 1);
  // A plane wider than half the MAC lanes (56 > 32) is never packed.
  ASSERT_TRUE(
      planDepthwise(hw, layer(640, 58, 58, 3, 1), p, err, LaneRows::On));
  EXPECT_EQ(p.laneRows, 1);
}

TEST(DepthwiseKernel, SlidingWindowProgramMatchesReference) {
  HardwareDesc hw = defaultHardware();
  // 3 planes of 10 x 9 (already padded), 3x3, stride 1 -> 8 x 7, bias, relu.
  DepthwiseLayer l = layer(3, 10, 9, 3, 1);
  l.hasBias = true;
  l.func = SfuFunc::Relu;
  l.x = 0;
  l.w = 4096;
  l.bias = 8192;
  l.out = 12288;
  l.zeros = 16384;
  DepthwisePlan plan;
  std::string err;
  ASSERT_TRUE(planDepthwise(hw, l, plan, err)) << err;
  ASSERT_EQ(plan.G, 4);
  Program prog;
  StreamBuilder sb(prog, hw);
  emitDepthwiseLayer(sb, l, plan);
  auto sym = [](const char *n, bool in, std::vector<int64_t> shape,
                uint64_t addr) {
    Symbol s;
    s.name = n;
    s.isInput = in;
    s.shape = std::move(shape);
    s.dramAddr = addr;
    return s;
  };
  prog.symbols = {sym("x", true, {3, 10, 9}, l.x),
                  sym("w", true, {3, 3, 3}, l.w), sym("b", true, {3}, l.bias),
                  sym("y", false, {3, 8, 7}, l.out)};
  prog.dramSize = 1 << 16;
  ASSERT_TRUE(validateProgram(prog, hw, err)) << err;

  std::map<std::string, Tensor> in, out;
  in["x"].shape = {3, 10, 9};
  in["w"].shape = {3, 3, 3};
  in["b"].shape = {3};
  for (int i = 0; i < 270; ++i)
    in["x"].data.push_back(float((i * 7) % 11) - 5.0f);
  for (int i = 0; i < 27; ++i)
    in["w"].data.push_back(float((i * 5) % 7) * 0.25f - 0.75f);
  in["b"].data = {0.5f, -1.0f, 2.0f};
  SimOptions strict; // a missing WAIT / BARRIER fails the test
  strict.hazardsAreErrors = true;
  SimStats st;
  ASSERT_TRUE(simulate(prog, hw, in, strict, out, st, err)) << err;
  const std::vector<float> &y = out["y"].data;
  ASSERT_EQ(y.size(), 3u * 8 * 7);
  for (int p = 0; p < 3; ++p)
    for (int oh = 0; oh < 8; ++oh)
      for (int ow = 0; ow < 7; ++ow) {
        float want = in["b"].data[p];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            want += in["w"].data[p * 9 + i * 3 + j] *
                    in["x"].data[(p * 10 + oh + i) * 9 + ow + j];
        want = std::max(want, 0.0f);
        EXPECT_NEAR(y[(p * 8 + oh) * 7 + ow], want, 1e-4)
            << "plane " << p << " (" << oh << ", " << ow << ")";
      }
  // Per plane: 2 groups of 4 rows; the second slides the queue by 12 of its
  // 18 rows and keeps 6.
  EXPECT_EQ(st.slidingRowsReused, 3u * 6);
  // LD weights and ST acc advance (type 2) in each of the 6 group EXECUTEs.
  EXPECT_EQ(st.scalarUnitOps, 3u * 2 * 2);
}
