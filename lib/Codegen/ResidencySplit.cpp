//===- ResidencySplit.cpp - DMA boxes cut at piece and unit ends ----------===//
//
// On-chip residency rewrites a DMA only where each part of it lies in one
// piece (splitAtPieces) or one strided unit (splitAtUnits): a part's DRAM
// bytes then map to one storage box (docs/passes.md, "On-chip residency",
// "Strided units").
//
//===----------------------------------------------------------------------===//
#include "ResidencyBoxes.h"
#include "accel/Codegen/Residency.h"
#include <functional>

using namespace accel;
using namespace accel::codegen;
using accel::codegen::detail::dmaSide;

namespace {

/// A DMA box cut along one dimension: slices [from, from + n).
DmaDesc sliceOf(const DmaDesc &x, int dim, uint32_t from, uint32_t n) {
  DmaDesc y = x;
  y.shape[dim] = n;
  y.src =
      x.src + uint64_t(int64_t(from) * x.srcStride[dim] * int64_t(x.elemBytes));
  y.dst =
      x.dst + uint64_t(int64_t(from) * x.dstStride[dim] * int64_t(x.elemBytes));
  return y;
}

/// Splits `d` along its outer dimensions into parts for which `fits` holds:
/// runs of consecutive slices with the same `keyOf` become one part, a
/// slice that does not fit is split further. False beyond `maxParts` or
/// when one element does not fit. `sameKeyFits`: a run of fitting slices
/// with one key fits (no need to check each grown run).
template <typename Fits, typename Key>
bool splitOuterFirst(const DmaDesc &d, size_t maxParts,
                     std::vector<DmaDesc> &out, const Fits &fits,
                     const Key &keyOf, bool sameKeyFits = false) {
  std::function<bool(const DmaDesc &, int)> split = [&](const DmaDesc &x,
                                                        int dim) {
    if (fits(x)) {
      out.push_back(x);
      return out.size() <= maxParts;
    }
    while (dim < 4 && x.shape[dim] == 1)
      ++dim;
    if (dim >= 4)
      return false; // one element across a piece end
    uint32_t runStart = 0, runLen = 0;
    int64_t runKey = -2;
    auto flush = [&]() {
      if (runLen == 0)
        return true;
      out.push_back(sliceOf(x, dim, runStart, runLen));
      runLen = 0;
      return out.size() <= maxParts;
    };
    for (uint32_t i = 0; i < x.shape[dim]; ++i) {
      DmaDesc one = sliceOf(x, dim, i, 1);
      if (!fits(one)) {
        if (!flush() || !split(one, dim + 1))
          return false;
        continue;
      }
      int64_t k = keyOf(one);
      // Still one box only if every DRAM side of the grown run fits.
      if (runLen > 0 && k == runKey &&
          (sameKeyFits || fits(sliceOf(x, dim, runStart, runLen + 1)))) {
        ++runLen;
        continue;
      }
      if (!flush())
        return false;
      runStart = i;
      runLen = 1;
      runKey = k;
    }
    return flush();
  };
  out.clear();
  return split(d, 0);
}

/// Whether a DRAM side of `x` lies in one unit as one box there: inside one
/// run, or stepping from run to run along the dimensions whose strides are
/// multiples of the period (the others inside a run); or in no piece.
bool sideInOneUnit(const DmaDesc &x, bool srcSide,
                   const std::vector<DramBuffer> &pieces, BufferLookup &pieceOf,
                   const std::vector<int64_t> &unitOf,
                   const std::vector<PieceUnit> &units) {
  uint64_t lo, hi;
  dmaSide(x, srcSide, lo, hi);
  const int64_t b = pieceOf(lo);
  if (b < 0)
    return pieceOf(hi - 1) < 0;
  const DramBuffer &run = pieces[size_t(b)];
  if (hi <= run.addr + run.bytes)
    return true;
  const PieceUnit &u = units[size_t(unitOf[size_t(b)])];
  if (u.count < 2)
    return false;
  const int64_t *stride = srcSide ? x.srcStride : x.dstStride;
  const int64_t eb = int64_t(x.elemBytes), period = int64_t(u.period);
  uint64_t innerSpan = x.elemBytes, runSteps = 0;
  for (int i = 0; i < 4; ++i) {
    if (x.shape[i] <= 1)
      continue;
    const int64_t bytes = stride[i] * eb;
    if (bytes < 0)
      return false;
    if (u.stepsRuns(x.shape[i], bytes)) {
      if ((bytes / period * int64_t(u.runBytes)) % eb != 0)
        return false;
      runSteps += uint64_t(x.shape[i] - 1) * uint64_t(bytes / period);
    } else {
      innerSpan += uint64_t(x.shape[i] - 1) * uint64_t(bytes);
    }
  }
  const uint64_t first = (run.addr - u.addr) / u.period;
  return lo - run.addr + innerSpan <= u.runBytes && first + runSteps < u.count;
}

} // namespace

bool accel::codegen::splitAtPieces(const DmaDesc &d,
                                   const std::vector<DramBuffer> &pieces,
                                   size_t maxParts, std::vector<DmaDesc> &out) {
  BufferLookup lookup(pieces);
  // Whether every DRAM side of `x` lies inside one piece (or in none).
  auto fits = [&](const DmaDesc &x) {
    for (int s = 0; s < 2; ++s) {
      if (!dramSide(x.dir, s == 0))
        continue;
      uint64_t lo, hi;
      dmaSide(x, s == 0, lo, hi);
      int64_t b = lookup(lo);
      if (b < 0 ? lookup(hi - 1) >= 0
                : hi > pieces[size_t(b)].addr + pieces[size_t(b)].bytes)
        return false;
    }
    return true;
  };
  // The piece of the first DRAM side's first byte (the run key).
  auto pieceOf = [&](const DmaDesc &x) {
    uint64_t lo, hi;
    dmaSide(x, readsDram(x.dir), lo, hi);
    return lookup(lo);
  };
  // With one DRAM side (the key's side), slices inside one piece form a
  // run inside it: the run's byte range is the hull of theirs. (Slices in
  // no piece have both ends outside every piece, and so has their run.)
  return splitOuterFirst(d, maxParts, out, fits, pieceOf,
                         d.dir != DmaDir::DramCopy);
}

bool accel::codegen::splitAtUnits(const DmaDesc &d,
                                  const std::vector<DramBuffer> &pieces,
                                  const std::vector<int64_t> &unitOf,
                                  const std::vector<PieceUnit> &units,
                                  size_t maxParts, std::vector<DmaDesc> &out) {
  BufferLookup lookup(pieces);
  auto fits = [&](const DmaDesc &x) {
    for (int s = 0; s < 2; ++s)
      if (dramSide(x.dir, s == 0) &&
          !sideInOneUnit(x, s == 0, pieces, lookup, unitOf, units))
        return false;
    return true;
  };
  out.clear();
  if (fits(d)) {
    out.push_back(d);
    return true;
  }
  // Cuts along one dimension, the others whole: the fewest parts.
  std::vector<DmaDesc> best, parts;
  for (int dim = 0; dim < 4; ++dim) {
    if (d.shape[dim] <= 1)
      continue;
    parts.clear();
    bool ok = true;
    for (uint32_t i = 0; ok && i < d.shape[dim];) {
      uint32_t n = 1;
      ok = fits(sliceOf(d, dim, i, 1));
      while (ok && i + n < d.shape[dim] && fits(sliceOf(d, dim, i, n + 1)))
        ++n;
      parts.push_back(sliceOf(d, dim, i, n));
      ok = ok && parts.size() <= maxParts &&
           (best.empty() || parts.size() < best.size());
      i += n;
    }
    if (ok)
      best.swap(parts);
  }
  if (!best.empty()) {
    out = std::move(best);
    return true;
  }
  auto unitOfSide = [&](const DmaDesc &x) {
    uint64_t lo, hi;
    dmaSide(x, readsDram(x.dir), lo, hi);
    int64_t b = lookup(lo);
    return b < 0 ? int64_t(-1) : unitOf[size_t(b)];
  };
  return splitOuterFirst(d, maxParts, out, fits, unitOfSide);
}
