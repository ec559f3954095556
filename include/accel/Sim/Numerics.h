//===- Numerics.h - f16 / bf16 rounding used by the simulator ---*- C++ -*-===//
//
// The simulator keeps every value in an f32 container; for f16 / bf16
// numerics it rounds values (round to nearest even) where the hardware would
// hold them in the narrower type.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SIM_NUMERICS_H
#define ACCEL_SIM_NUMERICS_H

#include "accel/Hardware/HardwareDesc.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace accel {

inline float halfBitsToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h >> 15);
  int exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  float f;
  if (exp == 0)
    f = std::ldexp(float(mant), -24);
  else if (exp == 31)
    f = mant ? NAN : INFINITY;
  else
    f = std::ldexp(float(mant | 0x400), exp - 25);
  return sign ? -f : f;
}

/// IEEE binary16 bits of `f`, round to nearest even (overflow -> inf).
inline uint16_t floatToHalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t mant = x & 0x7fffff;
  int exp = int((x >> 23) & 0xff);
  if (exp == 255)
    return uint16_t(sign | 0x7c00 | (mant ? 0x200 : 0));
  int e = exp - 127 + 15;
  if (e >= 31)
    return uint16_t(sign | 0x7c00);
  if (e <= 0) {
    if (e < -10)
      return uint16_t(sign);
    mant |= 0x800000;
    int shift = 14 - e;
    uint32_t h = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1)))
      ++h;
    return uint16_t(sign | h);
  }
  uint32_t h = sign | uint32_t(e) << 10 | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
    ++h; // a carry into the exponent is the correct rounding (up to inf)
  return uint16_t(h);
}

/// `x` rounded to bf16 (round to nearest even; NaN stays NaN).
inline float roundBf16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7f800000) == 0x7f800000 && (u & 0x7fffff))
    return x;
  u += 0x7fff + ((u >> 16) & 1);
  u &= 0xffff0000u;
  float r;
  std::memcpy(&r, &u, 4);
  return r;
}

/// `x` rounded to the float type `t` (f32: unchanged).
inline float roundTo(DType t, float x) {
  switch (t) {
  case DType::F16:
    return halfBitsToFloat(floatToHalfBits(x));
  case DType::BF16:
    return roundBf16(x);
  default:
    return x;
  }
}

inline void roundBuffer(DType t, float *p, uint64_t n) {
  if (t == DType::F32)
    return;
  for (uint64_t i = 0; i < n; ++i)
    p[i] = roundTo(t, p[i]);
}

} // namespace accel

#endif
