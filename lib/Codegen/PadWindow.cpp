//===- PadWindow.cpp - Zero padding inside a convolution's window ---------===//
//
// Per kernel position of the chunk the pixels whose window lies inside the
// input are a rectangle [a0, a1) x [b0, b1) of the pixel box (the strided
// window of an output row / column meets the input rows / columns in one
// interval). In the row-major pixel order of the tile its complement is a
// run of runs: a head [0, a0*owc + b0), a gap of owc - b1 + b0 pixels after
// every valid row but the last, a tail. Equal runs at an even step become
// one DMA dimension, so a position clipped on one side only costs one zero
// DMA besides its input box, whatever the number of rows; then boxes of
// equal shape at evenly stepping offsets (the positions of a kernel row
// clipped alike, then such kernel rows) are merged into one DMA while it
// has a free dimension.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/PadWindow.h"
#include "GemmCommon.h"
#include <algorithm>

using namespace accel;
using namespace accel::codegen;

namespace {

/// Indices i in [0, n) with 0 <= r0 + i * s < L: one interval [lo, hi).
struct Span {
  int64_t lo = 0, hi = 0;
  bool full(int64_t n) const { return lo == 0 && hi == n; }
};
Span validSpan(int64_t r0, int64_t s, int64_t L, int64_t n) {
  Span v;
  v.lo = std::clamp<int64_t>(r0 >= 0 ? 0 : ceilDiv(-r0, s), 0, n);
  v.hi = std::clamp<int64_t>(L - r0 > 0 ? ceilDiv(L - r0, s) : 0, v.lo, n);
  return v;
}

/// The valid rows and columns of position (ikh, ikw) of the chunk.
struct Clip {
  Span rows, cols;
  int64_t r0 = 0, c0 = 0; ///< input row / column of pixel (0, 0)
  bool operator==(const Clip &o) const {
    return rows.lo == o.rows.lo && rows.hi == o.rows.hi &&
           cols.lo == o.cols.lo && cols.hi == o.cols.hi;
  }
};
Clip clipOf(const PadWindowTile &t, int64_t ikh, int64_t ikw) {
  Clip c;
  c.r0 = t.oh0 * t.sh + (t.kh + ikh) * t.dh - t.padT;
  c.c0 = t.ow0 * t.sw + (t.kw + ikw) * t.dw - t.padL;
  c.rows = validSpan(c.r0, t.sh, t.H, t.ohc);
  c.cols = validSpan(c.c0, t.sw, t.W, t.owc);
  return c;
}

/// Appends a dimension unless its extent is 1.
void addDim(TilePiece &p, int64_t extent, int64_t srcStride, int64_t suStride) {
  if (extent == 1)
    return;
  p.suStrides[size_t(p.src.rank)] = suStride;
  p.src.dim(extent, srcStride);
}

/// Folds neighbouring dimensions that walk memory as one (on both sides)
/// and gives a piece of one element a dimension.
void canonicalize(TilePiece &p) {
  DramBox &b = p.src;
  for (int d = b.rank - 2; d >= 0; --d) {
    if (b.stride[d] != b.shape[d + 1] * b.stride[d + 1] ||
        p.suStrides[size_t(d)] != b.shape[d + 1] * p.suStrides[size_t(d + 1)])
      continue;
    b.shape[d + 1] *= b.shape[d];
    for (int e = d; e + 1 < b.rank; ++e) {
      b.shape[e] = b.shape[e + 1];
      b.stride[e] = b.stride[e + 1];
      p.suStrides[size_t(e)] = p.suStrides[size_t(e + 1)];
    }
    --b.rank;
    b.shape[b.rank] = 1, b.stride[b.rank] = 0, p.suStrides[size_t(b.rank)] = 0;
  }
  if (b.rank == 0)
    b.dim(1, 0);
  b.rowDims = 1;
}

bool sameShape(const TilePiece &a, const TilePiece &b) {
  if (a.src.rank != b.src.rank || a.zero != b.zero)
    return false;
  for (int d = 0; d < a.src.rank; ++d)
    if (a.src.shape[d] != b.src.shape[d] ||
        a.src.stride[d] != b.src.stride[d] ||
        a.suStrides[size_t(d)] != b.suStrides[size_t(d)])
      return false;
  return true;
}

/// Merges runs of consecutive pieces of one shape whose source and tile
/// offsets step evenly into one piece with a new outer dimension.
std::vector<TilePiece> mergeRuns(const std::vector<TilePiece> &in) {
  std::vector<TilePiece> out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size();) {
    const TilePiece &first = in[i];
    size_t j = i + 1;
    int64_t dSrc = 0, dOff = 0;
    if (first.src.rank < 4 && j < in.size() && sameShape(first, in[j])) {
      const int64_t bytes = int64_t(in[j].src.base - first.src.base);
      dSrc = bytes / 4;
      dOff = in[j].offset - first.offset;
      if (bytes % 4 == 0)
        while (j < in.size() && sameShape(first, in[j]) &&
               int64_t(in[j].src.base - first.src.base) ==
                   int64_t(j - i) * bytes &&
               in[j].offset - first.offset == int64_t(j - i) * dOff)
          ++j;
      else
        j = i + 1;
    }
    TilePiece p = first;
    if (j - i > 1) {
      TilePiece m;
      m.zero = first.zero;
      m.src.base = first.src.base;
      m.offset = first.offset;
      m.src.dim(int64_t(j - i), dSrc);
      m.suStrides[0] = dOff;
      for (int d = 0; d < first.src.rank; ++d) {
        m.suStrides[size_t(m.src.rank)] = first.suStrides[size_t(d)];
        m.src.dim(first.src.shape[d], first.src.stride[d]);
      }
      p = m;
      canonicalize(p);
    }
    out.push_back(p);
    i = j;
  }
  return out;
}

/// Orders pieces by shape (rank, then extents and strides of both sides,
/// dimension by dimension), then by tile offset, for grouping.
bool shapeThenOffsetLess(const TilePiece &a, const TilePiece &b) {
  if (a.src.rank != b.src.rank)
    return a.src.rank < b.src.rank;
  for (int d = 0; d < a.src.rank; ++d) {
    const int64_t ka[3] = {a.src.shape[d], a.src.stride[d],
                           a.suStrides[size_t(d)]};
    const int64_t kb[3] = {b.src.shape[d], b.src.stride[d],
                           b.suStrides[size_t(d)]};
    if (!std::equal(ka, ka + 3, kb))
      return std::lexicographical_compare(ka, ka + 3, kb, kb + 3);
  }
  return a.offset < b.offset;
}

/// mergeRuns over the pieces grouped by shape and ordered by tile offset,
/// until nothing merges: the pieces write disjoint elements, so their order
/// does not matter, and a merged piece may merge again (the positions of
/// one kernel row, then those kernel rows).
std::vector<TilePiece> mergeAll(std::vector<TilePiece> v) {
  for (;;) {
    std::stable_sort(v.begin(), v.end(), shapeThenOffsetLess);
    std::vector<TilePiece> merged = mergeRuns(v);
    if (merged.size() == v.size())
      return merged;
    v = std::move(merged);
  }
}

/// The zero runs [start, start + len) of the pixel order outside the
/// valid rectangle of `c` in an ohc x owc box.
std::vector<std::pair<int64_t, int64_t>> zeroRuns(const Clip &c, int64_t ohc,
                                                  int64_t owc) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  runs.reserve(size_t(std::max<int64_t>(0, c.rows.hi - c.rows.lo)) + 1);
  auto add = [&](int64_t a, int64_t b) {
    if (b > a)
      runs.push_back({a, b - a});
  };
  const Span &r = c.rows, &k = c.cols;
  if (r.hi <= r.lo || k.hi <= k.lo) {
    add(0, ohc * owc);
    return runs;
  }
  add(0, r.lo * owc + k.lo);
  for (int64_t i = r.lo; i + 1 < r.hi; ++i)
    add(i * owc + k.hi, (i + 1) * owc + k.lo);
  add((r.hi - 1) * owc + k.hi, ohc * owc);
  return runs;
}

} // namespace

bool accel::codegen::padWindowClips(const PadWindowTile &t) {
  for (int64_t ikh = 0; ikh < t.nkh; ++ikh)
    for (int64_t ikw = 0; ikw < t.nkw; ++ikw) {
      Clip c = clipOf(t, ikh, ikw);
      if (!c.rows.full(t.ohc) || !c.cols.full(t.owc))
        return true;
    }
  return false;
}

std::vector<TilePiece> accel::codegen::padWindowPieces(const PadWindowTile &t) {
  // Each position gives at most one box and its zero runs merge into at
  // most three pieces (head, gaps, tail).
  const size_t positions = size_t(std::max<int64_t>(0, t.nkh * t.nkw));
  std::vector<TilePiece> valid, zeros, runs;
  valid.reserve(positions);
  zeros.reserve(3 * positions);
  for (int64_t ikh = 0; ikh < t.nkh; ++ikh)
    for (int64_t ikw = 0; ikw < t.nkw; ++ikw) {
      const Clip c = clipOf(t, ikh, ikw);
      const int64_t pos = (ikh * t.nkw + ikw) * t.posStride;
      if (c.rows.hi > c.rows.lo && c.cols.hi > c.cols.lo) {
        TilePiece p;
        p.src.base = t.planes + uint64_t(((c.r0 + c.rows.lo * t.sh) * t.W +
                                          c.c0 + c.cols.lo * t.sw) *
                                         4);
        p.offset = pos + (c.rows.lo * t.owc + c.cols.lo) * t.pixStride;
        addDim(p, t.cc, t.H * t.W, t.chanStride);
        addDim(p, c.rows.hi - c.rows.lo, t.sh * t.W, t.owc * t.pixStride);
        addDim(p, c.cols.hi - c.cols.lo, t.sw, t.pixStride);
        canonicalize(p);
        valid.push_back(p);
      }
      runs.clear();
      for (auto [start, len] : zeroRuns(c, t.ohc, t.owc)) {
        TilePiece p;
        p.zero = true;
        p.src.base = t.zeros;
        p.offset = pos + start * t.pixStride;
        addDim(p, t.cc, 0, t.chanStride);
        addDim(p, len, 0, t.pixStride);
        canonicalize(p);
        runs.push_back(p);
      }
      for (const TilePiece &p : mergeRuns(runs))
        zeros.push_back(p);
    }
  std::vector<TilePiece> out = mergeAll(std::move(valid));
  std::vector<TilePiece> zeroPieces = mergeAll(std::move(zeros));
  out.insert(out.end(), zeroPieces.begin(), zeroPieces.end());
  return out;
}

namespace {
/// Storage bytes [lo, hi) a piece writes relative to its tile.
std::pair<int64_t, int64_t> pieceBytes(const TilePiece &p) {
  int64_t lo = p.offset, hi = p.offset;
  for (int d = 0; d < p.src.rank; ++d) {
    const int64_t span = (p.src.shape[d] - 1) * p.suStrides[size_t(d)];
    (span < 0 ? lo : hi) += span;
  }
  return {lo * 4, (hi + 1) * 4};
}

bool samePiece(const TilePiece &a, const TilePiece &b) {
  return a.offset == b.offset && a.src.base == b.src.base && sameShape(a, b);
}
} // namespace

std::vector<TilePiece>
detail::HeldZeros::toLoad(uint32_t addr, const std::vector<TilePiece> &pieces) {
  std::vector<TilePiece> zeros, rest;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const TilePiece &p : pieces) {
    (p.zero ? zeros : rest).push_back(p);
    auto [a, b] = pieceBytes(p);
    lo = std::min(lo, a), hi = std::max(hi, b);
  }
  if (pieces.empty())
    return pieces;
  auto it = std::find_if(held_.begin(), held_.end(),
                         [&](const Held &h) { return h.addr == addr; });
  const bool keep =
      it != held_.end() && it->zeros.size() == zeros.size() &&
      std::equal(zeros.begin(), zeros.end(), it->zeros.begin(), samePiece);
  const uint64_t blo = uint64_t(int64_t(addr) + lo),
                 bhi = uint64_t(int64_t(addr) + hi);
  // Other regions this load overlaps lose what they held.
  held_.erase(std::remove_if(held_.begin(), held_.end(),
                             [&](const Held &h) {
                               return h.addr != addr && h.lo < bhi &&
                                      blo < h.hi;
                             }),
              held_.end());
  it = std::find_if(held_.begin(), held_.end(),
                    [&](const Held &h) { return h.addr == addr; });
  if (it == held_.end())
    held_.push_back({addr, blo, bhi, zeros});
  else
    *it = {addr, std::min(it->lo, blo), std::max(it->hi, bhi), zeros};
  return keep ? rest : pieces;
}

void detail::HeldZeros::wrote(uint64_t lo, uint64_t hi) {
  held_.erase(
      std::remove_if(held_.begin(), held_.end(),
                     [&](const Held &h) { return h.lo < hi && lo < h.hi; }),
      held_.end());
}

void detail::HeldZeros::wroteBox(uint32_t addr, const DramBox &box,
                                 int64_t rowStride) {
  auto [lo, hi] = pieceBytes(denseTilePiece(box, rowStride));
  wrote(uint64_t(int64_t(addr) + lo), uint64_t(int64_t(addr) + hi));
}
