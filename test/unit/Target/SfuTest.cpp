//===- SfuTest.cpp - The SFU table agrees with the ISA dialect ------------===//
#include "accel/Target/Sfu.h"
#include "Isa/IsaDialect.h"
#include <cmath>
#include <gtest/gtest.h>

using namespace accel;

TEST(Sfu, TableMatchesIsaDialectEnum) {
  for (unsigned code = 0; code < 256; ++code) {
    const SfuInfo *info = sfuInfo(uint8_t(code));
    auto isa = isa::symbolizeSfuFunc(code);
    ASSERT_EQ(info != nullptr, isa.has_value()) << "code " << code;
    if (info) {
      EXPECT_EQ(std::string(info->name), isa::stringifySfuFunc(*isa).str());
    }
  }
}

TEST(Sfu, UnaryValues) {
  EXPECT_FLOAT_EQ(sfuUnary(SfuFunc::Sigmoid, 0.0f, 0), 0.5f);
  EXPECT_FLOAT_EQ(sfuUnary(SfuFunc::LeakyRelu, -2.0f, 0.1f), -0.2f);
  EXPECT_FLOAT_EQ(sfuUnary(SfuFunc::HardSwish, 1.0f, 0),
                  1.0f * (1.0f / 6 + 0.5f));
  EXPECT_FLOAT_EQ(sfuUnary(SfuFunc::ThresholdedRelu, 1.0f, 1.0f), 0.0f);
  EXPECT_FLOAT_EQ(sfuUnary(SfuFunc::Round, 2.5f, 0), 2.0f); // half to even
  EXPECT_FLOAT_EQ(sfuUnary(SfuFunc::Fill, 7.0f, -3.0f), -3.0f);
  EXPECT_TRUE(std::isnan(sfuUnary(SfuFunc::MaxImm, NAN, 0.0f)));
}

TEST(Sfu, BinaryAndRowValues) {
  EXPECT_FLOAT_EQ(sfuBinary(SfuFunc::Prelu, -2.0f, 0.25f), -0.5f);
  EXPECT_FLOAT_EQ(sfuBinary(SfuFunc::GreaterEqual, 1.0f, 1.0f), 1.0f);
  EXPECT_FLOAT_EQ(sfuBinary(SfuFunc::MaskKeep, 0.0f, INFINITY), 0.0f);
  EXPECT_FLOAT_EQ(sfuBinary(SfuFunc::DivRow, 6.0f, 3.0f), 2.0f);
  EXPECT_TRUE(sfuIsRowBinary(SfuFunc::SubRow));
  EXPECT_FALSE(sfuIsRowBinary(SfuFunc::Sub));
}

TEST(Sfu, Reductions) {
  const float row[] = {3, 1, 3, -2};
  EXPECT_FLOAT_EQ(sfuReduce(SfuFunc::Add, row, 4, 0), 5.0f);
  EXPECT_FLOAT_EQ(sfuReduce(SfuFunc::Mul, row, 4, 0), -18.0f);
  EXPECT_FLOAT_EQ(sfuReduce(SfuFunc::ArgMax, row, 4, 0), 0.0f);
  EXPECT_FLOAT_EQ(sfuReduce(SfuFunc::ArgMax, row, 4, 1), 2.0f); // last index
  EXPECT_FLOAT_EQ(sfuReduce(SfuFunc::ArgMin, row, 4, 0), 3.0f);
}

TEST(Sfu, KindsGateInstructions) {
  EXPECT_TRUE(sfuAllowedInUnary(SfuFunc::Exp));
  EXPECT_FALSE(sfuAllowedInUnary(SfuFunc::Add));
  EXPECT_TRUE(sfuAllowedInBinary(SfuFunc::Pow));
  EXPECT_FALSE(sfuAllowedInBinary(SfuFunc::ArgMax));
  EXPECT_TRUE(sfuAllowedInReduce(SfuFunc::ArgMin));
  EXPECT_FALSE(sfuAllowedInReduce(SfuFunc::Exp));
}
