//===- DmaCopy.cpp - The bytes of one DMA ---------------------------------===//
//
// The functional half of a DMA (Simulator.cpp's doDma is the other): the
// fast paths of docs/simulator.md "Simulator speed" (rows between host
// pointers, one loop nest for contiguous rows, rows along the source).
//
//===----------------------------------------------------------------------===//
#include "DmaCopy.h"
#include "RowCopy.h"
#include "StridedCopy.h"
#include "Transpose.h"

#include <cstring>

namespace accel {
namespace sim {

void DmaCopy::operator()() const {
  const DmaDesc &d = *desc;
  const bool srcDram = !srcStorage, dstDram = !dstStorage;
  // Functional copy. Overlapping DRAM->DRAM copies read the whole source box
  // before writing.
  const uint64_t eb = d.elemBytes;
  std::vector<uint8_t> staged;
  const uint8_t *srcPlain = srcStorage;
  int64_t srcOrigin = int64_t(d.src);
  if (srcDram && dstDram && src.overlaps(dst)) {
    staged.resize(size_t(src.hi - src.lo));
    dram->read(uint64_t(src.lo), staged.data(), staged.size());
    srcPlain = staged.data();
    srcOrigin = int64_t(d.src) - int64_t(src.lo);
  }
  std::vector<uint8_t> bounce; // DRAM -> DRAM rows
  auto copy = [&](int64_t dof, int64_t so, size_t n) {
    if (!dstDram) {
      if (srcPlain)
        std::memmove(dstStorage + dof, srcPlain + so, n);
      else
        dram->read(uint64_t(so), dstStorage + dof, n);
    } else if (srcPlain) {
      dram->write(uint64_t(dof), srcPlain + so, n);
    } else {
      bounce.resize(n);
      dram->read(uint64_t(so), bounce.data(), n);
      dram->write(uint64_t(dof), bounce.data(), n);
    }
  };
  // The loop nest; when the elements may be copied in any order (distinct
  // destinations, no source the copy overwrites), its row follows the
  // source so that a transposing load reads DRAM in order.
  BoxLoops box;
  for (int i = 0; i < 4; ++i) {
    box.shape[i] = d.shape[i];
    // The steps of an extent-1 dimension are never taken (any value is
    // valid there, the validator ignores them): zero, so that no product
    // below overflows.
    box.src[i] = d.shape[i] > 1 ? d.srcStride[i] : 0;
    box.dst[i] = d.shape[i] > 1 ? d.dstStride[i] : 0;
  }
  const bool sameMemory = srcDram ? dstDram && staged.empty()
                                  : !dstDram && srcStorage == dstStorage;
  const bool anyOrder = distinctElements(box.shape, box.dst) &&
                        !(sameMemory && src.overlaps(dst));
  if (anyOrder)
    rowAlongSource(box, eb);
  const bool contiguous = box.src[3] == 1 && box.dst[3] == 1;
  // A strided row whose two sides each lie in one place (storage, or one
  // DRAM page) is copied between host pointers; false = the caller copies
  // it element by element.
  auto stridedRow = [&](int64_t dof, int64_t so) {
    const uint64_t n = box.shape[3];
    const int64_t ss = box.src[3] * int64_t(eb);
    const int64_t ds = box.dst[3] * int64_t(eb);
    auto span = [&](int64_t at, int64_t step, int64_t &lo) {
      const int64_t ext = int64_t(n - 1) * step;
      lo = at + std::min<int64_t>(0, ext);
      return size_t(std::abs(ext)) + eb;
    };
    int64_t slo, dlo;
    const size_t sn = span(so, ss, slo), dn = span(dof, ds, dlo);
    const uint8_t *sp =
        srcPlain ? srcPlain + slo : dram->readSpan(uint64_t(slo), sn);
    uint8_t *dp =
        !dstDram ? dstStorage + dlo : dram->writeSpan(uint64_t(dlo), dn);
    if (!sp || !dp)
      return false;
    copyStridedRow(dp + (dof - dlo), ds, sp + (so - slo), ss, n, eb);
    return true;
  };
  // Byte offsets stepped per dimension, not multiplied out per row: the
  // local copies of the small networks are hundreds of thousands of rows of
  // a dozen elements, where the row's address arithmetic cost as much as
  // its copy. Only for a box with elements: its range checks above bound
  // every step (an empty box's strides may be anything).
  int64_t sStep[3] = {0, 0, 0}, dStep[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    sStep[k] = box.src[k] * int64_t(eb);
    dStep[k] = box.dst[k] * int64_t(eb);
  }
  const size_t rowBytes = size_t(box.shape[3]) * eb;
  const int64_t dStep3 = box.dst[3] * int64_t(eb);
  auto copyRow = [&](int64_t dof, int64_t so) {
    if (contiguous) {
      copy(dof, so, rowBytes);
    } else if (!stridedRow(dof, so)) {
      for (uint64_t i3 = 0; i3 < box.shape[3]; ++i3)
        copy(dof + int64_t(i3) * box.dst[3] * int64_t(eb),
             so + int64_t(i3) * box.src[3] * int64_t(eb), eb);
    }
  };
  int64_t so0 = srcOrigin, do0 = int64_t(d.dst);
  // Contiguous rows with host pointers on both sides are copied by one loop
  // nest: storage, a staged source, or the one 64 KiB DRAM page a load's
  // source or a store's destination lies in (PagedMemory spans). `base`
  // holds the byte at offset `at` of its memory.
  const uint8_t *srcBase = srcPlain;
  uint8_t *dstBase = dstStorage;
  int64_t srcAt = 0, dstAt = 0;
  if (contiguous && srcDram != dstDram) {
    if (srcDram) {
      srcBase = dram->readSpan(uint64_t(src.lo), size_t(src.hi - src.lo));
      srcAt = int64_t(src.lo);
    } else {
      dstBase = dram->writeSpan(uint64_t(dst.lo), size_t(dst.hi - dst.lo));
      dstAt = int64_t(dst.lo);
    }
  }
  const bool hostRows = contiguous && srcBase && dstBase;
  if (hostRows) {
    const uint64_t rows[3] = {box.shape[0], box.shape[1], box.shape[2]};
    copyRows(dstBase + (do0 - dstAt), dStep, srcBase + (so0 - srcAt), sStep,
             rows, rowBytes);
  }
  // Source rows that land as destination columns, the columns' elements
  // next to each other: eight rows at a time (Transpose.h).
  const bool transposing = anyOrder && !hostRows && eb == 4 && !dstDram &&
                           box.src[3] == 1 && box.dst[2] == 1 &&
                           box.shape[2] >= 8;
  // A block with a row outside one DRAM page, and the rows short of a
  // block, go row by row.
  auto rowsOfPlane = [&](int64_t dof, int64_t so) {
    auto oneByOne = [&](uint64_t from, uint64_t to) {
      for (uint64_t r = from; r < to; ++r)
        copyRow(dof + int64_t(r) * dStep[2], so + int64_t(r) * sStep[2]);
    };
    uint64_t r = 0;
    for (; r + 8 <= box.shape[2]; r += 8) {
      const uint8_t *rows[8];
      bool inHost = true;
      for (int k = 0; k < 8 && inHost; ++k) {
        const int64_t at = so + int64_t(r + uint64_t(k)) * sStep[2];
        rows[k] =
            srcPlain ? srcPlain + at : dram->readSpan(uint64_t(at), rowBytes);
        inHost = rows[k] != nullptr;
      }
      if (inHost)
        transpose8Rows(dstStorage + dof + int64_t(r) * dStep[2], dStep3, rows,
                       box.shape[3]);
      else
        oneByOne(r, r + 8);
    }
    oneByOne(r, box.shape[2]);
  };
  for (uint64_t i0 = 0; !hostRows && i0 < box.shape[0];
       ++i0, so0 += sStep[0], do0 += dStep[0]) {
    int64_t so1 = so0, do1 = do0;
    for (uint64_t i1 = 0; i1 < box.shape[1];
         ++i1, so1 += sStep[1], do1 += dStep[1]) {
      if (transposing) {
        rowsOfPlane(do1, so1);
        continue;
      }
      int64_t so = so1, dof = do1;
      for (uint64_t i2 = 0; i2 < box.shape[2];
           ++i2, so += sStep[2], dof += dStep[2])
        copyRow(dof, so);
    }
  }
}

} // namespace sim
} // namespace accel
