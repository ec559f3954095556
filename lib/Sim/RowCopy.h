//===- RowCopy.h - The rows of a DMA box between host pointers --*- C++ -*-===//
//
// A DMA box whose rows are contiguous on both sides and lie in host memory
// the simulator holds in one piece (a storage unit, or a staged DRAM source)
// is a nest of short memmoves: MobileNetV3-Small's depthwise bands are
// 600 k local-copy rows of a dozen floats, where the library call and the
// loop around it cost more than the bytes moved. Internal to lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_ROWCOPY_H
#define ACCEL_LIB_SIM_ROWCOPY_H

#include <cstddef>
#include <cstdint>

namespace accel {
namespace sim {

/// For (i0, i1, i2) in row-major order over `shape`: memmove of `rowBytes`
/// bytes from src + Σ i_k srcStep[k] to dst + Σ i_k dstStep[k] (steps in
/// bytes, either sign). Every row is read whole before it is written, and
/// the rows follow one another, exactly as the loop of memmoves would.
void copyRows(uint8_t *dst, const int64_t dstStep[3], const uint8_t *src,
              const int64_t srcStep[3], const uint64_t shape[3],
              size_t rowBytes);

/// The same with memmove per row always (the definition; tests compare).
void copyRowsReference(uint8_t *dst, const int64_t dstStep[3],
                       const uint8_t *src, const int64_t srcStep[3],
                       const uint64_t shape[3], size_t rowBytes);

/// dst[i] = src[2 i] for i in [0, n), 4-byte elements (a stride-2 gather
/// into a contiguous row: the windows of stride-2 convolutions), when the
/// host has AVX-512 and the two ranges do not overlap; false (nothing
/// copied) otherwise. Reads no source byte past src[2 (n - 1)].
bool copyEverySecondWord(uint8_t *dst, const uint8_t *src, uint64_t n);

} // namespace sim
} // namespace accel

#endif
