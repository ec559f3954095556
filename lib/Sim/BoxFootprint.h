//===- BoxFootprint.h - The bytes a strided DMA box touches -----*- C++ -*-===//
//
// The hazard check keeps one byte range per access: the bounding range of a
// DMA's box. Boxes of one matrix that different clusters write column block
// by column block (a GEMM whose output columns are dealt over 16 clusters)
// have overlapping bounding ranges but disjoint bytes. When two bounding
// ranges overlap, the check asks here whether the boxes share a byte.
// Pure C++: no simulator state.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_BOXFOOTPRINT_H
#define ACCEL_LIB_SIM_BOXFOOTPRINT_H

#include <cstddef>
#include <cstdint>

namespace accel::sim {

/// One side of a DMA: element (i0..i3) is at
/// origin + sum(i_d * stride_d) * elemBytes. elemBytes 0 = not a box (the
/// access is only known by its bounding range).
struct BoxFootprint {
  int64_t origin = 0;
  uint32_t shape[4] = {1, 1, 1, 1};
  int64_t stride[4] = {0, 0, 0, 0};
  uint32_t elemBytes = 0;
  bool known() const { return elemBytes != 0; }
};

/// Whether boxes `a` and `b` may share a byte. Exact when both are known
/// and each has at most `maxRuns` contiguous runs (its elements outside the
/// innermost unit-stride dimension); true (conservative) otherwise.
bool footprintsMayIntersect(const BoxFootprint &a, const BoxFootprint &b,
                            size_t maxRuns = size_t(1) << 16);

} // namespace accel::sim

#endif
