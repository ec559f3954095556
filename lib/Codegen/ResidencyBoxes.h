//===- ResidencyBoxes.h - Byte bounds of DMA boxes (residency) --*- C++ -*-===//
//
// Private to lib/Codegen: the byte ranges of a DMA's sides, shared by the
// residency planner (Residency.cpp), its box splitting (ResidencySplit.cpp)
// and its piece refinement (ResidencyRefine.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_CODEGEN_RESIDENCYBOXES_H
#define ACCEL_LIB_CODEGEN_RESIDENCYBOXES_H

#include "accel/Target/Program.h"
#include <cstdint>

namespace accel::codegen::detail {

/// [lo, hi) of a strided box of `elemBytes`-byte elements at `base`.
inline void boxBounds(uint64_t base, const uint32_t *shape,
                      const int64_t *stride, int rank, uint64_t elemBytes,
                      uint64_t &lo, uint64_t &hi) {
  int64_t below = 0, above = 0;
  for (int i = 0; i < rank; ++i) {
    int64_t span = int64_t(shape[i] - 1) * stride[i];
    (span < 0 ? below : above) += span;
  }
  lo = base + uint64_t(below) * elemBytes; // below <= 0: wraps back
  hi = base + uint64_t(above) * elemBytes + elemBytes;
}

inline void dmaSide(const DmaDesc &d, bool srcSide, uint64_t &lo,
                    uint64_t &hi) {
  boxBounds(srcSide ? d.src : d.dst, d.shape,
            srcSide ? d.srcStride : d.dstStride, 4, d.elemBytes, lo, hi);
}

} // namespace accel::codegen::detail

#endif
