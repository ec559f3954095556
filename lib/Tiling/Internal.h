//===- Internal.h - Helpers shared by the AccelTiling sources ---*- C++ -*-===//
#ifndef ACCEL_LIB_TILING_INTERNAL_H
#define ACCEL_LIB_TILING_INTERNAL_H

#include "accel/Tiling/TileSelection.h"
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace accel::tiling::detail {

using u128 = unsigned __int128;

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Largest legal size <= limit along a dimension `dim`: the dimension itself
/// when it fits, else the largest multiple of the block (0 when not even one
/// block fits).
inline int64_t alignDown(uint64_t limit, int64_t dim, int64_t blk) {
  if (uint64_t(dim) <= limit)
    return dim;
  return int64_t(limit / uint64_t(blk)) * blk;
}

/// A size is legal along `dim` when it is the dimension or a positive block
/// multiple below it.
inline bool aligned(int64_t size, int64_t dim, int64_t blk) {
  return size == dim || (size > 0 && size < dim && size % blk == 0);
}

/// a * b * c <= limit without overflow.
inline bool fits(uint64_t a, uint64_t b, uint64_t c, uint64_t limit) {
  return u128(a) * b * c <= u128(limit);
}

inline unsigned accElem(const GemmProblem &p, const TilingHardware &hw) {
  return hw.accElemBytes ? hw.accElemBytes : p.elemBytes;
}

/// Relative equality of two utilisations / cycle counts.
inline bool nearlyEqual(double a, double b, double rel = 1e-9) {
  return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

/// Checks the problem; false + err on empty or oversized shapes.
bool validateProblem(const GemmProblem &p, std::string &err);

} // namespace accel::tiling::detail

#endif
