//===- SfuRowTest.cpp - The SFU's row loops against sfuUnary --------------===//
//
// sfuUnaryRow (lib/Sim/PeKernels.h) runs the common unary SFU functions as
// plain loops; every function must give sfuUnary's bits on every value,
// including NaN, signed zeros, infinities and subnormals, in place too.
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/PeKernels.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

using namespace accel;

TEST(SfuRow, EveryUnaryFunctionMatchesSfuUnaryBitForBit) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> in = {
      0.0f,   -0.0f, 1.0f, -1.0f, 2.5f,
      -3.0f,  3.0f,  6.0f, -6.0f, 1e30f,
      -1e30f, inf,   -inf, nan,   std::numeric_limits<float>::denorm_min(),
      0.5f};
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-8.0f, 8.0f);
  for (int i = 0; i < 100; ++i)
    in.push_back(u(rng));
  int checked = 0;
  for (unsigned fi = 0; fi < 64; ++fi) {
    SfuFunc f = SfuFunc(fi);
    if (!sfuAllowedInUnary(f))
      continue;
    for (float imm : {0.0f, 0.25f, -2.0f, 6.0f}) {
      std::vector<float> out(in.size()), inPlace = in;
      sim::sfuUnaryRow(f, in.data(), out.data(), in.size(), imm);
      sim::sfuUnaryRow(f, inPlace.data(), inPlace.data(), in.size(), imm);
      for (size_t i = 0; i < in.size(); ++i) {
        const float want = sfuUnary(f, in[i], imm);
        if (std::isnan(want)) {
          EXPECT_TRUE(std::isnan(out[i])) << sfuFuncName(f) << " " << in[i];
          EXPECT_TRUE(std::isnan(inPlace[i]));
          continue;
        }
        EXPECT_EQ(0, std::memcmp(&want, &out[i], 4))
            << sfuFuncName(f) << "(" << in[i] << ", imm " << imm
            << "): " << out[i] << " vs " << want;
        EXPECT_EQ(0, std::memcmp(&want, &inPlace[i], 4)) << sfuFuncName(f);
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 7); // at least the loops and some per-element ones
}
