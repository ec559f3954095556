//===- RqConvKernelTest.cpp - Regular conv on the rotating (RQ) queue ----===//
//
// planRqConv's limits (queue, input buffer, equal column chunks, no fit)
// and emitRqConvLayer's program: it validates, the simulator's numbers match
// a reference, the MAC rotates the queue through all taps with the scalar
// unit (scalarUnitOps), and a cluster's later output tiles reuse the queue
// contents (weightReloadsSkipped).
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/RqConv.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Sim/Simulator.h"
#include "accel/Target/Validate.h"

#include <gtest/gtest.h>

using namespace accel;
using namespace accel::codegen;

namespace {

/// A stride-1, undilated conv on an already padded NCHW input.
RqConvLayer layer(int64_t cin, int64_t cout, int64_t hp, int64_t wp,
                  int64_t k) {
  RqConvLayer l;
  l.N = 1;
  l.Cin = cin;
  l.Cout = cout;
  l.Hp = hp;
  l.Wp = wp;
  l.KH = l.KW = k;
  l.OH = hp - k + 1;
  l.OW = wp - k + 1;
  l.xsN = cin * hp * wp;
  l.xsC = hp * wp;
  l.xsH = wp;
  l.xsW = 1;
  return l;
}

} // namespace

TEST(RqConvKernel, PlanFitsQueueInputBufferAndEqualChunks) {
  HardwareDesc hw = defaultHardware();
  RqConvPlan p;
  std::string err;
  ASSERT_TRUE(planRqConv(hw, layer(64, 64, 58, 58, 3), p, err)) << err;
  EXPECT_EQ(p.T, 9);
  EXPECT_TRUE(p.compact);
  EXPECT_LE(p.T * p.cib * p.cob, int64_t(hw.weightQueueBytes / 4));
  EXPECT_LE(p.rowFloats, int64_t(hw.inputBufferBytes / 4));
  EXPECT_LE(p.owc * p.cob, int64_t(hw.accBufferBytes / 4));
  EXPECT_EQ(p.macPitch, 3 * 64); // sw * KH * Cin
  EXPECT_EQ(56 % p.owc, 0);      // equal column chunks
  // 256 input channels x 9 taps do not fit the queue with any useful
  // output block width in one piece: input-channel blocks.
  ASSERT_TRUE(planRqConv(hw, layer(256, 256, 16, 16, 3), p, err)) << err;
  EXPECT_GT(p.ciBlocks, 1);
  EXPECT_LE(p.T * p.cib * p.cob, int64_t(hw.weightQueueBytes / 4));
  // Dilation > 1 in W: im2col rows (T * Cin floats per output column).
  RqConvLayer d = layer(8, 8, 12, 12, 3);
  d.dw = 2;
  d.OW = 12 - 2 * 2;
  ASSERT_TRUE(planRqConv(hw, d, p, err)) << err;
  EXPECT_FALSE(p.compact);
  EXPECT_EQ(p.macPitch, 9 * 8);
  // One expanded row of 3 x 3 x 2048 floats does not fit the input buffer.
  EXPECT_FALSE(planRqConv(hw, layer(2048, 8, 5, 5, 3), p, err));
  EXPECT_NE(err.find("fits"), std::string::npos) << err;
}

TEST(RqConvKernel, RotatingQueueProgramMatchesReference) {
  HardwareDesc hw = defaultHardware();
  // 5 -> 6 channels, 3x3 on a padded 34 x 10 input -> 32 x 8: 8 groups of 4
  // output rows, 2 per cluster; bias, relu.
  RqConvLayer l = layer(5, 6, 34, 10, 3);
  l.hasBias = true;
  l.func = SfuFunc::Relu;
  const int64_t xN = 5 * 34 * 10, wN = 6 * 5 * 9, yN = 6 * 32 * 8;
  l.x = 0;
  l.w = uint64_t(xN * 4);
  l.bias = l.w + uint64_t(wN * 4);
  l.out = l.bias + 64;
  RqConvPlan plan;
  std::string err;
  ASSERT_TRUE(planRqConv(hw, l, plan, err)) << err;
  ASSERT_EQ(plan.ciBlocks, 1);
  ASSERT_EQ(plan.coBlocks, 1);
  ASSERT_EQ(plan.owc, 8);
  Program prog;
  StreamBuilder sb(prog, hw);
  emitRqConvLayer(sb, l, plan);
  auto sym = [](const char *n, bool in, std::vector<int64_t> shape,
                uint64_t addr) {
    Symbol s;
    s.name = n;
    s.isInput = in;
    s.shape = std::move(shape);
    s.dramAddr = addr;
    return s;
  };
  prog.symbols = {
      sym("x", true, {5, 34, 10}, l.x), sym("w", true, {6, 5, 3, 3}, l.w),
      sym("b", true, {6}, l.bias), sym("y", false, {6, 32, 8}, l.out)};
  prog.dramSize = l.out + uint64_t(yN * 4) + 64;
  ASSERT_TRUE(validateProgram(prog, hw, err)) << err;
  std::map<std::string, Tensor> in, out;
  in["x"].shape = {5, 34, 10};
  in["w"].shape = {6, 5, 3, 3};
  in["b"].shape = {6};
  for (int i = 0; i < xN; ++i)
    in["x"].data.push_back(float((i * 7) % 11) - 5.0f);
  for (int i = 0; i < wN; ++i)
    in["w"].data.push_back(float((i * 5) % 7) * 0.25f - 0.75f);
  in["b"].data = {0.5f, -1.0f, 2.0f, 0.0f, 1.5f, -0.25f};
  SimOptions strict; // a missing WAIT / BARRIER fails the test
  strict.hazardsAreErrors = true;
  SimStats st;
  ASSERT_TRUE(simulate(prog, hw, in, strict, out, st, err)) << err;
  const std::vector<float> &y = out["y"].data;
  ASSERT_EQ(int64_t(y.size()), yN);
  for (int o = 0; o < 6; ++o)
    for (int oh = 0; oh < 32; ++oh)
      for (int ow = 0; ow < 8; ++ow) {
        float want = in["b"].data[size_t(o)];
        for (int c = 0; c < 5; ++c)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
              want += in["w"].data[size_t(((o * 5 + c) * 3 + i) * 3 + j)] *
                      in["x"].data[size_t((c * 34 + oh + i) * 10 + ow + j)];
        want = std::max(want, 0.0f);
        EXPECT_NEAR(y[size_t((o * 32 + oh) * 8 + ow)], want, 1e-4)
            << "channel " << o << " (" << oh << ", " << ow << ")";
      }
  // 8 units, one MAC each, 9 taps advanced by the scalar unit.
  EXPECT_EQ(st.instructionCounts["MAC"], 8u * 9);
  EXPECT_EQ(st.scalarUnitOps, 8u * 9);
  // Each cluster's second unit reuses the rotated queue (same RQ record).
  EXPECT_EQ(st.weightReloadsSkipped, 4u);
}
