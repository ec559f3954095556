//===- StridedCopy.h - One row of a DMA box between host pointers -*- C++
//-*-===//
//
// The innermost dimension of a DMA box with element strides, copied element
// by element in order (so overlapping source and destination behave as the
// element-wise copy the DMA defines), with the common element sizes as
// plain loads and stores instead of a library call per element. Internal to
// lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_STRIDEDCOPY_H
#define ACCEL_LIB_SIM_STRIDEDCOPY_H

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "RowCopy.h"

namespace accel {
namespace sim {

namespace detail {
template <typename T>
inline void copyElems(uint8_t *dst, int64_t dstStep, const uint8_t *src,
                      int64_t srcStep, uint64_t n) {
  if (n == 0)
    return;
  T v;
  if (srcStep == 0) {
    // A broadcast (zero fills of padding) whose row does not touch its
    // source element: one load.
    const int64_t last = int64_t(n - 1) * dstStep;
    const uint8_t *lo = dst + std::min<int64_t>(0, last),
                  *hi = dst + std::max<int64_t>(0, last) + sizeof(T);
    if (src + sizeof(T) <= lo || src >= hi) {
      std::memcpy(&v, src, sizeof(T));
      for (uint64_t i = 0; i < n; ++i, dst += dstStep)
        std::memcpy(dst, &v, sizeof(T));
      return;
    }
  }
  // Pointers stepped, not indices multiplied: a third fewer instructions
  // per element (a MobileNetV3-Small run spent 22 % of its instructions
  // in these rows).
  for (uint64_t i = 0; i < n; ++i, src += srcStep, dst += dstStep) {
    // load, then store: an element overlapping its own source is fine
    std::memcpy(&v, src, sizeof(T));
    std::memcpy(dst, &v, sizeof(T));
  }
}
} // namespace detail

/// For i in [0, n): dst[i * dstStep .. + eb) = src[i * srcStep .. + eb)
/// (steps in bytes, either sign), in ascending i, each element read before
/// it is written.
inline void copyStridedRow(uint8_t *dst, int64_t dstStep, const uint8_t *src,
                           int64_t srcStep, uint64_t n, uint64_t eb) {
  // Every second float into a row (stride-2 windows): 3 host cycles per
  // element one by one, a permute per sixteen (docs/simulator.md,
  // "Thirteenth round").
  if (eb == 4 && srcStep == 8 && dstStep == 4 && n >= 4 &&
      copyEverySecondWord(dst, src, n))
    return;
  switch (eb) {
  case 4:
    return detail::copyElems<uint32_t>(dst, dstStep, src, srcStep, n);
  case 2:
    return detail::copyElems<uint16_t>(dst, dstStep, src, srcStep, n);
  case 8:
    return detail::copyElems<uint64_t>(dst, dstStep, src, srcStep, n);
  case 1:
    return detail::copyElems<uint8_t>(dst, dstStep, src, srcStep, n);
  default:
    for (uint64_t i = 0; i < n; ++i)
      std::memmove(dst + int64_t(i) * dstStep, src + int64_t(i) * srcStep, eb);
  }
}

/// The loop nest of a DMA box copy: shape and element strides of both sides,
/// outermost dimension first, the row (innermost) last.
struct BoxLoops {
  uint32_t shape[4];
  int64_t src[4], dst[4];
};

/// Whether a box side's elements are pairwise distinct: sorted by step, each
/// dimension's step exceeds the extent of all smaller ones (a sufficient
/// condition). Then a copy may visit the elements in any order.
inline bool distinctElements(const uint32_t *shape, const int64_t *stride) {
  int order[4] = {0, 1, 2, 3};
  auto mag = [&](int d) { return stride[d] < 0 ? -stride[d] : stride[d]; };
  for (int i = 1; i < 4; ++i) // insertion sort by |stride|
    for (int j = i; j > 0 && mag(order[j]) < mag(order[j - 1]); --j)
      std::swap(order[j], order[j - 1]);
  int64_t extent = 0; // largest offset of the dimensions so far
  for (int d : order) {
    if (shape[d] <= 1)
      continue;
    if (mag(d) <= extent)
      return false;
    extent += int64_t(shape[d] - 1) * mag(d);
  }
  return true;
}

/// When every element of the row lies in its own cache line of the source
/// (|step| x eb >= 64 bytes), makes the dimension with the smallest source
/// step the row instead, so the copy reads the source in order. Only valid
/// when the elements may be copied in any order (distinct destinations, no
/// source overwritten by the copy). Returns whether it changed the order.
inline bool rowAlongSource(BoxLoops &b, uint64_t eb) {
  auto mag = [](int64_t v) { return v < 0 ? -v : v; };
  if (b.shape[3] > 1 && uint64_t(mag(b.src[3])) * eb < 64)
    return false;
  int best = 3;
  for (int d = 0; d < 3; ++d)
    if (b.shape[d] > 1 &&
        (b.shape[best] <= 1 || mag(b.src[d]) < mag(b.src[best])))
      best = d;
  if (best == 3)
    return false;
  std::swap(b.shape[best], b.shape[3]);
  std::swap(b.src[best], b.src[3]);
  std::swap(b.dst[best], b.dst[3]);
  return true;
}

} // namespace sim
} // namespace accel

#endif
