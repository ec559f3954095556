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

// IEEE NaN semantics, as ONNX and numpy: every arithmetic function of a NaN
// is NaN (Relu(NaN) once gave 0), comparisons of a NaN are false, and NaN is
// the maximum and the minimum of a reduction.
TEST(Sfu, UnaryFunctionsPropagateNaN) {
  const float imms[] = {0.0f, 1.0f, -1.0f, 0.5f};
  for (unsigned code = 0; code < 256; ++code) {
    const SfuInfo *info = sfuInfo(uint8_t(code));
    if (!info || !sfuAllowedInUnary(info->func) || info->func == SfuFunc::Fill)
      continue;
    for (float imm : imms) {
      if (info->func == SfuFunc::PowImm && imm == 0.0f)
        continue; // pow(NaN, 0) = 1 (IEEE 754, numpy)
      EXPECT_TRUE(std::isnan(sfuUnary(info->func, NAN, imm)))
          << info->name << "(NaN) with imm " << imm;
    }
  }
  EXPECT_EQ(sfuUnary(SfuFunc::PowImm, NAN, 0.0f), 1.0f);
  // Spelled out for the functions that clamp, where NaN used to be lost.
  EXPECT_TRUE(std::isnan(sfuUnary(SfuFunc::Relu, NAN, 0)));
  EXPECT_TRUE(std::isnan(sfuUnary(SfuFunc::ThresholdedRelu, NAN, 1.0f)));
  EXPECT_TRUE(std::isnan(sfuUnary(SfuFunc::Celu, NAN, 1.0f)));
  EXPECT_TRUE(std::isnan(sfuUnary(SfuFunc::HardSwish, NAN, 0)));
  EXPECT_TRUE(std::isnan(sfuUnary(SfuFunc::MinImm, NAN, 6.0f)));
  EXPECT_EQ(sfuUnary(SfuFunc::Fill, NAN, 2.0f), 2.0f);
  // Relu keeps its other values: -0 and negatives become +0.
  EXPECT_EQ(sfuUnary(SfuFunc::Relu, -3.0f, 0), 0.0f);
  EXPECT_FALSE(std::signbit(sfuUnary(SfuFunc::Relu, -0.0f, 0)));
  EXPECT_EQ(sfuUnary(SfuFunc::Relu, 2.5f, 0), 2.5f);
}

TEST(Sfu, BinaryFunctionsPropagateNaN) {
  const SfuFunc arithmetic[] = {
      SfuFunc::Add,    SfuFunc::Sub,    SfuFunc::Mul,    SfuFunc::Div,
      SfuFunc::Max,    SfuFunc::Min,    SfuFunc::Pow,    SfuFunc::Prelu,
      SfuFunc::AddRow, SfuFunc::SubRow, SfuFunc::MulRow, SfuFunc::DivRow};
  for (SfuFunc f : arithmetic) {
    EXPECT_TRUE(std::isnan(sfuBinary(f, NAN, 2.0f))) << sfuFuncName(f);
    EXPECT_TRUE(std::isnan(sfuBinary(f, -2.0f, NAN))) << sfuFuncName(f);
  }
  const SfuFunc comparisons[] = {SfuFunc::Equal, SfuFunc::Less,
                                 SfuFunc::Greater, SfuFunc::LessEqual,
                                 SfuFunc::GreaterEqual};
  for (SfuFunc f : comparisons) {
    EXPECT_EQ(sfuBinary(f, NAN, 1.0f), 0.0f) << sfuFuncName(f);
    EXPECT_EQ(sfuBinary(f, 1.0f, NAN), 0.0f) << sfuFuncName(f);
    EXPECT_EQ(sfuBinary(f, NAN, NAN), 0.0f) << sfuFuncName(f);
  }
  // A selected NaN passes through a mask; a NaN mask counts as set.
  EXPECT_TRUE(std::isnan(sfuBinary(SfuFunc::MaskKeep, 1.0f, NAN)));
  EXPECT_TRUE(std::isnan(sfuBinary(SfuFunc::MaskDrop, 0.0f, NAN)));
  EXPECT_EQ(sfuBinary(SfuFunc::MaskKeep, NAN, 3.0f), 3.0f);
}

TEST(Sfu, ReductionsPropagateNaN) {
  const float row[] = {3, NAN, 5, NAN};
  for (SfuFunc f :
       {SfuFunc::None, SfuFunc::Add, SfuFunc::Mul, SfuFunc::Max, SfuFunc::Min})
    EXPECT_TRUE(std::isnan(sfuReduce(f, row, 4, 0))) << sfuFuncName(f);
  // numpy.argmax / argmin: the index of the first NaN.
  EXPECT_EQ(sfuReduce(SfuFunc::ArgMax, row, 4, 0), 1.0f);
  EXPECT_EQ(sfuReduce(SfuFunc::ArgMin, row, 4, 0), 1.0f);
  EXPECT_EQ(sfuReduce(SfuFunc::ArgMax, row, 4, 1), 1.0f);
  const float first[] = {NAN, 9, 1};
  EXPECT_EQ(sfuReduce(SfuFunc::ArgMax, first, 3, 0), 0.0f);
  EXPECT_EQ(sfuReduce(SfuFunc::ArgMin, first, 3, 1), 0.0f);
}
