//===- Transpose.h - Eight rows of a transposing DMA at once ----*- C++ -*-===//
//
// A load that transposes (a classifier's `trans_b` weights: each DRAM row of
// the source lands as a column of the storage tile) copied one source row
// at a time writes one float per destination cache line; the MobileNets'
// classifier loads took a third of their DMA time that way. Eight source
// rows at once write eight consecutive floats per destination row instead.
// Internal to lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_TRANSPOSE_H
#define ACCEL_LIB_SIM_TRANSPOSE_H

#include <cstdint>

namespace accel {
namespace sim {

/// For k < 8 and c < cols, the 4-byte element c of row k goes to
/// dst + c * dstStep + 4 * k (dstStep in bytes, either sign; any
/// alignment). The destination must not overlap the rows.
void transpose8Rows(uint8_t *dst, int64_t dstStep, const uint8_t *const rows[8],
                    uint64_t cols);

/// The same element by element (the definition; tests compare).
void transpose8RowsReference(uint8_t *dst, int64_t dstStep,
                             const uint8_t *const rows[8], uint64_t cols);

} // namespace sim
} // namespace accel

#endif
