//===- Sfu.cpp - SFU function table and arithmetic ------------------------===//
#include "accel/Target/Sfu.h"
#include <cmath>
#include <limits>

namespace accel {

namespace {
const SfuInfo kTable[] = {
#include "SfuTable.inc"
};
} // namespace

const SfuInfo *sfuInfo(uint8_t code) {
  for (const SfuInfo &i : kTable)
    if (uint8_t(i.func) == code)
      return &i;
  return nullptr;
}

const char *sfuFuncName(SfuFunc f) {
  const SfuInfo *i = sfuInfo(uint8_t(f));
  return i ? i->name : "?";
}

bool sfuAllowedInUnary(SfuFunc f) {
  const SfuInfo *i = sfuInfo(uint8_t(f));
  return i && (i->kind == SfuKind::Unary || i->kind == SfuKind::None);
}
bool sfuAllowedInBinary(SfuFunc f) {
  const SfuInfo *i = sfuInfo(uint8_t(f));
  return i && (i->kind == SfuKind::Binary || i->kind == SfuKind::RowBinary);
}
bool sfuAllowedInReduce(SfuFunc f) {
  return f == SfuFunc::None || f == SfuFunc::Add || f == SfuFunc::Mul ||
         f == SfuFunc::Max || f == SfuFunc::Min || f == SfuFunc::ArgMax ||
         f == SfuFunc::ArgMin;
}
bool sfuIsRowBinary(SfuFunc f) {
  const SfuInfo *i = sfuInfo(uint8_t(f));
  return i && i->kind == SfuKind::RowBinary;
}

float sfuUnary(SfuFunc f, float x, float imm) {
  switch (f) {
  case SfuFunc::None:
    return x;
  case SfuFunc::Relu:
    // `!(x <= 0)` rather than `x > 0`: NaN stays NaN (IEEE, as ONNX and
    // numpy), -0 becomes +0.
    return !(x <= 0) ? x : 0.0f;
  case SfuFunc::Scale:
    return x * imm;
  case SfuFunc::AddImm:
    return x + imm;
  case SfuFunc::MaxImm:
    return std::isnan(x) ? x : std::max(x, imm);
  case SfuFunc::MinImm:
    return std::isnan(x) ? x : std::min(x, imm);
  case SfuFunc::Fill:
    return imm;
  case SfuFunc::Neg:
    return -x;
  case SfuFunc::Abs:
    return std::fabs(x);
  case SfuFunc::Reciprocal:
    return 1.0f / x;
  case SfuFunc::Sqrt:
    return std::sqrt(x);
  case SfuFunc::Exp:
    return std::exp(x);
  case SfuFunc::Log:
    return std::log(x);
  case SfuFunc::Erf:
    return std::erf(x);
  case SfuFunc::Floor:
    return std::floor(x);
  case SfuFunc::Ceil:
    return std::ceil(x);
  case SfuFunc::Sign:
    return x > 0 ? 1.0f : x < 0 ? -1.0f : x;
  case SfuFunc::Sin:
    return std::sin(x);
  case SfuFunc::Cos:
    return std::cos(x);
  case SfuFunc::Tan:
    return std::tan(x);
  case SfuFunc::Sigmoid:
    return 1.0f / (1.0f + std::exp(-x));
  case SfuFunc::Tanh:
    return std::tanh(x);
  case SfuFunc::Softplus:
    return std::log1p(std::exp(x));
  case SfuFunc::Softsign:
    return x / (1.0f + std::fabs(x));
  case SfuFunc::LeakyRelu:
    return x < 0 ? imm * x : x;
  case SfuFunc::Elu:
    return x < 0 ? imm * (std::exp(x) - 1.0f) : x;
  case SfuFunc::Celu:
    if (std::isnan(x))
      return x; // std::max / std::min would drop the NaN
    return std::max(0.0f, x) + std::min(0.0f, imm * (std::exp(x / imm) - 1.0f));
  case SfuFunc::HardSwish:
    if (std::isnan(x))
      return x;
    return x * std::min(1.0f, std::max(0.0f, x / 6.0f + 0.5f));
  case SfuFunc::ThresholdedRelu:
    return !(x <= imm) ? x : 0.0f; // NaN stays NaN
  case SfuFunc::Round:
    return std::nearbyint(x);
  case SfuFunc::Square:
    return x * x;
  case SfuFunc::PowImm:
    return std::pow(x, imm);
  default:
    return std::numeric_limits<float>::quiet_NaN();
  }
}

float sfuBinary(SfuFunc f, float x, float y) {
  switch (f) {
  case SfuFunc::Add:
  case SfuFunc::AddRow:
    return x + y;
  case SfuFunc::Sub:
  case SfuFunc::SubRow:
    return x - y;
  case SfuFunc::Mul:
  case SfuFunc::MulRow:
    return x * y;
  case SfuFunc::Div:
  case SfuFunc::DivRow:
    return x / y;
  case SfuFunc::Max:
    return std::isnan(x) || std::isnan(y)
               ? std::numeric_limits<float>::quiet_NaN()
               : std::max(x, y);
  case SfuFunc::Min:
    return std::isnan(x) || std::isnan(y)
               ? std::numeric_limits<float>::quiet_NaN()
               : std::min(x, y);
  case SfuFunc::Pow:
    return std::pow(x, y);
  case SfuFunc::Prelu:
    return x < 0 ? y * x : x;
  case SfuFunc::Equal:
    return x == y ? 1.0f : 0.0f;
  case SfuFunc::Less:
    return x < y ? 1.0f : 0.0f;
  case SfuFunc::Greater:
    return x > y ? 1.0f : 0.0f;
  case SfuFunc::LessEqual:
    return x <= y ? 1.0f : 0.0f;
  case SfuFunc::GreaterEqual:
    return x >= y ? 1.0f : 0.0f;
  case SfuFunc::MaskKeep:
    return x != 0 ? y : 0.0f;
  case SfuFunc::MaskDrop:
    return x == 0 ? y : 0.0f;
  default:
    return std::numeric_limits<float>::quiet_NaN();
  }
}

float sfuReduce(SfuFunc f, const float *row, size_t n, float imm) {
  if (f == SfuFunc::ArgMax || f == SfuFunc::ArgMin) {
    // As numpy: the first NaN is both the maximum and the minimum.
    size_t best = 0;
    bool last = imm != 0.0f;
    for (size_t j = 1; j < n && !std::isnan(row[best]); ++j) {
      if (std::isnan(row[j])) {
        best = j;
        break;
      }
      bool better =
          f == SfuFunc::ArgMax ? row[j] > row[best] : row[j] < row[best];
      bool tie = row[j] == row[best];
      if (better || (last && tie))
        best = j;
    }
    return float(best);
  }
  float acc = row[0];
  for (size_t j = 1; j < n; ++j)
    acc = f == SfuFunc::None ? acc + row[j] : sfuBinary(f, acc, row[j]);
  return acc;
}

} // namespace accel
