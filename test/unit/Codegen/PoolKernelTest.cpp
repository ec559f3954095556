//===- PoolKernelTest.cpp - Pooling over input bands ----------------------===//
//
// planPool's band choice and fallbacks, and emitPoolLayer's program: it
// validates, runs with strict hazards, matches the direct definition of max
// and average pooling (padding, strides, dilation, windows past the input as
// in ceil mode, several bands per plane), and reads each input element from
// DRAM once.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/Pool.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Validate.h"

#include "../Sim/SimTestUtil.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>

using namespace accel;
using namespace accel::codegen;
using accel::test::sym;

namespace {

struct Geometry {
  int64_t planes, H, W, k, s, d, padT, padL, padB, padR;
  bool ceilMode = false;
  int64_t sw = 0; ///< column stride, 0 = s
};

PoolLayer layerOf(const Geometry &g, bool isMax) {
  PoolLayer l;
  l.planes = g.planes;
  l.H = g.H;
  l.W = g.W;
  l.KH = l.KW = g.k;
  l.sh = g.s;
  l.sw = g.sw ? g.sw : g.s;
  l.dh = l.dw = g.d;
  l.padT = g.padT;
  l.padL = g.padL;
  int64_t span = (g.k - 1) * g.d + 1;
  auto out = [&](int64_t n, int64_t lo, int64_t hi, int64_t s) {
    int64_t room = n + lo + hi - span;
    return (g.ceilMode ? (room + s - 1) / s : room / s) + 1;
  };
  l.OH = out(g.H, g.padT, g.padB, l.sh);
  l.OW = out(g.W, g.padL, g.padR, l.sw);
  l.isMax = isMax;
  return l;
}

/// The definition: max over the window's elements inside the input
/// (padding never wins), or their sum over the count of counted elements.
float reference(const PoolLayer &l, const std::vector<float> &x, int64_t p,
                int64_t oh, int64_t ow, bool countPad, int64_t padB,
                int64_t padR) {
  float best = -std::numeric_limits<float>::infinity(), sum = 0.0f;
  int64_t count = 0;
  for (int64_t i = 0; i < l.KH; ++i)
    for (int64_t j = 0; j < l.KW; ++j) {
      int64_t h = oh * l.sh + i * l.dh - l.padT;
      int64_t w = ow * l.sw + j * l.dw - l.padL;
      bool inside = h >= 0 && h < l.H && w >= 0 && w < l.W;
      bool counted = countPad ? (h >= -l.padT && h < l.H + padB &&
                                 w >= -l.padL && w < l.W + padR)
                              : inside;
      count += counted;
      if (inside) {
        float v = x[size_t((p * l.H + h) * l.W + w)];
        best = std::max(best, v);
        sum += v;
      }
    }
  return l.isMax ? best : (count ? sum / float(count) : 0.0f);
}

/// Builds, validates and simulates the layer; checks every output against
/// the definition and returns the simulator's statistics.
SimStats runAndCheck(const Geometry &g, bool isMax, bool countPad = false) {
  HardwareDesc hw = defaultHardware();
  PoolLayer l = layerOf(g, isMax);
  PoolPlan plan;
  std::string err;
  EXPECT_TRUE(planPool(hw, l, plan, err)) << err;
  const int64_t inN = l.planes * l.H * l.W, outN = l.planes * l.OH * l.OW;
  l.x = 0;
  l.out = uint64_t(roundUp(inN, 1024) * 4);
  l.padValue = l.out + uint64_t(roundUp(outN, 1024) * 4);
  l.invCount = l.padValue + 4096;
  Program prog;
  StreamBuilder sb(prog, hw);
  emitPoolLayer(sb, l, plan);
  // 1 / (elements each window counts), as the lowering computes it.
  std::vector<float> inv(size_t(l.OH * l.OW));
  for (int64_t oh = 0; oh < l.OH; ++oh)
    for (int64_t ow = 0; ow < l.OW; ++ow) {
      int64_t count = 0;
      for (int64_t i = 0; i < l.KH; ++i)
        for (int64_t j = 0; j < l.KW; ++j) {
          int64_t h = oh * l.sh + i * l.dh - l.padT;
          int64_t w = ow * l.sw + j * l.dw - l.padL;
          count += countPad ? (h >= -l.padT && h < l.H + g.padB &&
                               w >= -l.padL && w < l.W + g.padR)
                            : (h >= 0 && h < l.H && w >= 0 && w < l.W);
        }
      inv[size_t(oh * l.OW + ow)] = count ? 1.0f / float(count) : 0.0f;
    }
  prog.symbols = {sym("x", true, {l.planes, l.H, l.W}, l.x),
                  sym("pad", true, {1}, l.padValue),
                  sym("inv", true, {l.OH, l.OW}, l.invCount),
                  sym("y", false, {l.planes, l.OH, l.OW}, l.out)};
  prog.dramSize = l.invCount + uint64_t(roundUp(l.OH * l.OW, 1024) * 4);
  EXPECT_TRUE(validateProgram(prog, hw, err)) << err;

  std::map<std::string, Tensor> in, out;
  in["x"].shape = {l.planes, l.H, l.W};
  for (int64_t i = 0; i < inN; ++i)
    in["x"].data.push_back(float((i * 7) % 23) - 15.0f); // all < 0 some
  in["pad"].shape = {1};
  in["pad"].data = {isMax ? -std::numeric_limits<float>::infinity() : 0.0f};
  in["inv"].shape = {l.OH, l.OW};
  in["inv"].data = inv;
  SimStats st;
  EXPECT_TRUE(accel::test::simulateStrict(prog, hw, in, out, err, &st)) << err;
  const std::vector<float> &y = out["y"].data;
  EXPECT_EQ(int64_t(y.size()), outN);
  for (int64_t p = 0; p < l.planes && int64_t(y.size()) == outN; ++p)
    for (int64_t oh = 0; oh < l.OH; ++oh)
      for (int64_t ow = 0; ow < l.OW; ++ow)
        EXPECT_NEAR(
            y[size_t((p * l.OH + oh) * l.OW + ow)],
            reference(l, in["x"].data, p, oh, ow, countPad, g.padB, g.padR),
            1e-5)
            << "plane " << p << " (" << oh << ", " << ow << ")";
  return st;
}

} // namespace

TEST(PoolKernel, PlanTakesWholePlanesAndSplitsLargeOnes) {
  HardwareDesc hw = defaultHardware();
  PoolPlan p;
  std::string err;
  // ResNet's stem pool: 64 planes of 112 x 112, 3x3 stride 2 pad 1 -> 56 x
  // 56. No window reads the right padding column, so band rows are 1 + 112
  // floats; a whole plane (113 band rows + the 56 x 56 output) fits a
  // 256 KiB half.
  PoolLayer r = layerOf({64, 112, 112, 3, 2, 1, 1, 1, 1, 1}, true);
  ASSERT_TRUE(planPool(hw, r, p, err)) << err;
  EXPECT_EQ(p.Wn, 113);
  EXPECT_EQ(p.bandRows, 56);
  EXPECT_EQ(p.inRows, 113);
  EXPECT_EQ(p.peRows, 14);
  EXPECT_EQ(p.tiles, 64);
  // 320 x 320 planes (the FPN detector's pool): a plane does not fit, bands
  // of a multiple of 4 rows do.
  PoolLayer f = layerOf({64, 320, 320, 3, 2, 1, 1, 1, 1, 1}, true);
  ASSERT_TRUE(planPool(hw, f, p, err)) << err;
  EXPECT_LT(p.bandRows, 160);
  EXPECT_EQ(p.bandRows % 4, 0);
  EXPECT_LE(p.inRows * p.Wn + p.bandRows * 160, int64_t(hw.storageBytes / 8));
  // One plane: bands so that every cluster gets two tiles.
  PoolLayer one = layerOf({1, 64, 64, 2, 2, 1, 0, 0, 0, 0}, true);
  ASSERT_TRUE(planPool(hw, one, p, err)) << err;
  EXPECT_EQ(p.bandRows, 4);
  EXPECT_EQ(p.tiles, 8);
  // CRNN's 2x2 stride 2 pool over 64 planes of 32 x 100: windows do not
  // overlap, so whole planes share a tile (64 planes / 8 tiles), bands of
  // OH*sh = 32 rows a plane.
  PoolLayer crnn = layerOf({64, 32, 100, 2, 2, 1, 0, 0, 0, 0}, true);
  ASSERT_TRUE(planPool(hw, crnn, p, err)) << err;
  EXPECT_EQ(p.bandRows, 16);
  EXPECT_EQ(p.planesPerTile, 8);
  EXPECT_EQ(p.inRows, 32);
  EXPECT_EQ(p.peRows, 32);
  EXPECT_EQ(p.tiles, 8);
  // 3x3 stride 2 windows overlap: one plane per tile.
  EXPECT_EQ(r.planes, 64);
  ASSERT_TRUE(planPool(hw, r, p, err)) << err;
  EXPECT_EQ(p.planesPerTile, 1);
  // 7x7 average: 49 taps need 100 instructions, more than a buffer's 64.
  PoolLayer big = layerOf({8, 14, 14, 7, 1, 1, 0, 0, 0, 0}, false);
  EXPECT_FALSE(planPool(hw, big, p, err));
  EXPECT_NE(err.find("instructions"), std::string::npos) << err;
  // Empty tensors: no band (the per-tap layers emit nothing for them).
  PoolLayer empty = layerOf({0, 4, 4, 2, 2, 1, 0, 0, 0, 0}, true);
  EXPECT_FALSE(planPool(hw, empty, p, err));
  // A row too long for a PE's operand (8192 floats).
  PoolLayer wide = layerOf({1, 4, 40000, 2, 2, 1, 0, 0, 0, 0}, true);
  EXPECT_FALSE(planPool(hw, wide, p, err));
  EXPECT_NE(err.find("does not fit"), std::string::npos) << err;
}

TEST(PoolKernel, MaxWithPaddingMatchesDefinition) {
  SimStats st = runAndCheck({6, 17, 15, 3, 2, 1, 1, 1, 1, 1}, true);
  // Every input element crosses a memory channel once (plus the one-float
  // padding fills): the per-tap layers read it 9 times.
  EXPECT_LT(st.dramBytesRead, uint64_t(6 * 17 * 15 * 4 * 3 / 2));
}

TEST(PoolKernel, MaxDilatedAndCeilWindowsMatchDefinition) {
  runAndCheck({3, 12, 13, 2, 2, 2, 0, 0, 0, 0}, true);
  // Ceil mode: the last window starts inside and reaches past the input.
  runAndCheck({2, 10, 11, 3, 2, 1, 0, 0, 1, 1, /*ceilMode=*/true}, true);
}

TEST(PoolKernel, MaxSeveralBandsPerPlane) {
  // 2 planes < 2 tiles per cluster: bands of a few rows each.
  runAndCheck({2, 40, 9, 3, 1, 1, 1, 1, 1, 1}, true);
}

TEST(PoolKernel, SeveralPlanesPerTile) {
  // 2x2 stride 2 over 40 planes: 5 planes per tile; odd sizes leave an
  // unread last row / column; padding on top and left fills every plane.
  HardwareDesc hw = defaultHardware();
  PoolPlan p;
  std::string err;
  Geometry g{40, 7, 9, 2, 2, 1, 1, 1, 0, 0};
  ASSERT_TRUE(planPool(hw, layerOf(g, true), p, err)) << err;
  EXPECT_EQ(p.planesPerTile, 5);
  runAndCheck(g, true);
  runAndCheck(g, false, /*countPad=*/true);
  // Stride 2 rows, stride 1 columns (CRNN's later pools).
  runAndCheck({24, 6, 9, 2, 2, 1, 0, 1, 0, 1, false, /*sw=*/1}, true);
}

TEST(PoolKernel, AverageExcludingAndCountingPadding) {
  runAndCheck({4, 9, 10, 3, 2, 1, 1, 1, 1, 1}, false, /*countPad=*/false);
  runAndCheck({4, 9, 10, 3, 2, 1, 1, 1, 1, 1}, false, /*countPad=*/true);
}
