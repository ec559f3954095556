//===- TileRows.h - A storage tile's rows as each PE sees them ------------===//
//
// What LD / ST need to move a tile between the storage unit and the PE
// buffers, copied out of the operand record: the record lives in an
// instruction buffer that later EXECUTE patches rewrite, while the copy
// may run later on another data lane (DataLanes.h). Internal to
// lib/Sim.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_TILEROWS_H
#define ACCEL_LIB_SIM_TILEROWS_H

#include "PeKernels.h"
#include "StridedCopy.h"
#include "accel/Target/Program.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace accel {
namespace sim {

struct TileRows {
  uint8_t *storage = nullptr; ///< the cluster's storage unit
  uint32_t addr = 0;
  int32_t rowStride = 0, colStride = 1;
  uint64_t rows = 0, cols = 0;
  uint32_t peRows = 0;
  SfuFunc func = SfuFunc::None; ///< ST's chained function
  float imm = 0.0f;
  std::vector<uint32_t> peAddrs; ///< empty: derived from addr and peRows

  TileRows() = default;
  TileRows(uint8_t *storage, const OperandRecord &r)
      : storage(storage), addr(r.addr), rowStride(r.rowStride),
        colStride(r.colStride), rows(r.rows), cols(r.cols), peRows(r.peRows),
        func(r.func), imm(r.imm), peAddrs(r.peAddrs) {}

  /// Rows [r0, r1) of the tile that PE `pe` owns (all of them when the
  /// tile is broadcast, peRows = 0).
  void peRange(uint64_t pe, uint64_t &r0, uint64_t &r1) const {
    if (!peRows) {
      r0 = 0;
      r1 = rows;
      return;
    }
    r0 = std::min<uint64_t>(pe * peRows, rows);
    r1 = std::min<uint64_t>(r0 + peRows, rows);
  }

  /// Storage byte address of tile row `row` as PE `pe` (owning rows from
  /// r0) sees it: derived by the parser (addr) or precomputed (peAddrs).
  int64_t rowAddr(uint64_t pe, uint64_t r0, uint64_t row) const {
    if (peAddrs.empty())
      return int64_t(addr) + int64_t(row) * rowStride * 4;
    return int64_t(peAddrs[pe]) + int64_t(row - r0) * rowStride * 4;
  }

  /// Gathers rows [g0, g1) (of the rows [r0, ..) PE `pe` owns) into dense
  /// `dst`.
  void gather(uint64_t pe, uint64_t r0, uint64_t g0, uint64_t g1,
              float *dst) const {
    for (uint64_t row = g0; row < g1; ++row) {
      const uint8_t *s = storage + rowAddr(pe, r0, row);
      float *d = dst + (row - g0) * cols;
      if (colStride == 1)
        std::memcpy(d, s, cols * 4);
      else // the PE buffers and the storage unit never overlap
        copyStridedRow(reinterpret_cast<uint8_t *>(d), 4, s,
                       int64_t(colStride) * 4, cols, 4);
    }
  }

  /// Scatters PE `pe`'s dense rows [r0, r1) into the tile, applying the
  /// chained SFU function (`tmp`: a row of scratch).
  void scatter(uint64_t pe, uint64_t r0, uint64_t r1, const float *src,
               std::vector<float> &tmp) const {
    tmp.resize(cols);
    for (uint64_t row = r0; row < r1; ++row) {
      uint8_t *s = storage + rowAddr(pe, r0, row);
      const float *srow = src + (row - r0) * cols;
      if (func != SfuFunc::None) {
        sfuUnaryRow(func, srow, tmp.data(), cols, imm);
        srow = tmp.data();
      }
      if (colStride == 1)
        std::memcpy(s, srow, cols * 4);
      else
        copyStridedRow(s, int64_t(colStride) * 4,
                       reinterpret_cast<const uint8_t *>(srow), 4, cols, 4);
    }
  }
};

} // namespace sim
} // namespace accel

#endif
