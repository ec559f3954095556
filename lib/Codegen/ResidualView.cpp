//===- ResidualView.cpp - A fused residual read through a view ------------===//
//
// The C tile is walked as runs along its innermost box dimension. A run
// that is contiguous in the output is cut where the view's innermost index
// wraps; each segment is one strided row of the residual. Segments, then
// the pieces they form, are merged while their shapes match and their
// offsets step evenly (a row of repeated pairs, two rows reading the same
// residual row, rows stepping one residual row, ...). An outer box
// dimension along which every piece just moves by the same offsets becomes
// one more dimension of each piece; for that the pieces below it are built
// with a dimension to spare, and the spare is given up when it buys
// nothing.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/ResidualView.h"
#include <algorithm>
#include <stdexcept>

using namespace accel;
using namespace accel::codegen;

int64_t accel::codegen::residualOffset(const ResidualView &v, int64_t index) {
  int64_t off = 0;
  for (size_t d = v.shape.size(); d-- > 0;) {
    off += (index % v.shape[d]) * v.strides[d];
    index /= v.shape[d];
  }
  return off;
}

namespace {
/// One dimension of a piece: count, residual stride, tile stride.
struct Dim {
  int64_t count, src, dst;
  bool operator==(const Dim &o) const {
    return count == o.count && src == o.src && dst == o.dst;
  }
};
/// A piece's dimensions, outermost first: at most a DMA box's four, held
/// inline (the builder makes and drops many pieces per tile; a heap vector
/// each was a sixth of the FPN detector's compile time in malloc / free).
class Dims {
public:
  static constexpr size_t kMax = 4;
  size_t size() const { return n; }
  bool empty() const { return n == 0; }
  const Dim *begin() const { return d; }
  const Dim *end() const { return d + n; }
  Dim &front() { return d[0]; }
  const Dim &operator[](size_t i) const { return d[i]; }
  bool operator==(const Dims &o) const {
    return n == o.n && std::equal(begin(), end(), o.begin());
  }
  void push_back(const Dim &x) {
    check();
    d[n++] = x;
  }
  void push_front(const Dim &x) {
    check();
    std::copy_backward(d, d + n, d + n + 1);
    d[0] = x;
    ++n;
  }

private:
  void check() const {
    if (n == kMax)
      throw std::logic_error("viewTilePieces: a piece with more than four "
                             "dimensions");
  }
  Dim d[kMax];
  size_t n = 0;
};

/// A piece: element offsets of its first element in the residual and the
/// tile, dimensions outermost first (none: a single element).
struct Piece {
  int64_t src = 0, dst = 0;
  Dims dims;
};
using Pieces = std::vector<Piece>;

/// Merges `p` into `q` when `p` is `q`'s shape again at an even step (a new
/// outer dimension of 2) or `q`'s outer dimension once more.
bool mergeInto(Piece &q, const Piece &p, size_t maxRank) {
  if (q.dims == p.dims && q.dims.size() < maxRank) {
    q.dims.push_front(Dim{2, p.src - q.src, p.dst - q.dst});
    return true;
  }
  if (q.dims.size() != p.dims.size() + 1 ||
      !std::equal(q.dims.begin() + 1, q.dims.end(), p.dims.begin()))
    return false;
  Dim &outer = q.dims.front();
  if (p.src != q.src + outer.count * outer.src ||
      p.dst != q.dst + outer.count * outer.dst)
    return false;
  ++outer.count;
  return true;
}

void append(Pieces &out, const Piece &p, size_t maxRank) {
  if (out.empty() || !mergeInto(out.back(), p, maxRank))
    out.push_back(p);
}

/// Merges neighbours until nothing changes (pieces into pairs, pairs into
/// runs of pairs, ...).
Pieces mergeAll(Pieces in, size_t maxRank) {
  for (bool changed = true; changed;) {
    Pieces out;
    for (const Piece &p : in)
      append(out, p, maxRank);
    changed = out.size() != in.size();
    in = std::move(out);
  }
  return in;
}

/// The view with unit dimensions dropped and dimensions that step as one
/// merged (a dense view becomes one dimension).
ResidualView canonical(const ResidualView &v) {
  ResidualView c = v;
  c.shape.clear();
  c.strides.clear();
  for (size_t d = 0; d < v.shape.size(); ++d) {
    if (v.shape[d] == 1)
      continue;
    if (!c.shape.empty() && c.strides.back() == v.strides[d] * v.shape[d]) {
      c.shape.back() *= v.shape[d];
      c.strides.back() = v.strides[d];
      continue;
    }
    c.shape.push_back(v.shape[d]);
    c.strides.push_back(v.strides[d]);
  }
  if (c.shape.empty()) {
    c.shape = {1};
    c.strides = {0};
  }
  return c;
}

/// An index of the view's space as its digits (row-major, the outermost
/// taken modulo its extent, as residualOffset does), so that stepping
/// through the space is additions with carries instead of a division per
/// dimension and element.
class ViewCursor {
public:
  ViewCursor(const ResidualView &v, int64_t index) : v(v) {
    if (v.shape.size() > kMaxRank)
      throw std::logic_error("viewTilePieces: a view of more than eight "
                             "dimensions");
    for (size_t d = v.shape.size(); d-- > 0;) {
      digit[d] = index % v.shape[d];
      index /= v.shape[d];
    }
  }
  /// Adds the index `by` stands for.
  void advance(const ViewCursor &by) {
    int64_t carry = 0;
    for (size_t d = v.shape.size(); d-- > 0;) {
      digit[d] += by.digit[d] + carry;
      carry = digit[d] >= v.shape[d];
      if (carry)
        digit[d] -= v.shape[d];
    }
  }
  /// residualOffset of the index.
  int64_t offset() const {
    int64_t off = 0;
    for (size_t d = 0; d < v.shape.size(); ++d)
      off += digit[d] * v.strides[d];
    return off;
  }

private:
  static constexpr size_t kMaxRank = 8;
  const ResidualView &v;
  int64_t digit[kMaxRank] = {};
};

struct Builder {
  const DramBox &box;
  const ResidualView &view; // canonical
  int64_t tileStride[4];

  /// Elements [index, index + n * step) of the output (tile offsets from
  /// `dst` at `dstStep`).
  Pieces run(int64_t index, int64_t dst, int64_t n, int64_t step,
             int64_t dstStep, size_t maxRank) const {
    Pieces out;
    if (step != 1) {
      ViewCursor at(view, index), by(view, step);
      for (int64_t j = 0; j < n; ++j, at.advance(by))
        append(out, Piece{at.offset(), dst + j * dstStep, {}}, maxRank);
      return mergeAll(std::move(out), maxRank);
    }
    const int64_t inner = view.shape.back();
    while (n > 0) {
      int64_t seg = std::min(n, inner - index % inner);
      Piece p{residualOffset(view, index), dst, {}};
      if (seg > 1)
        p.dims.push_back(Dim{seg, view.strides.back(), dstStep});
      append(out, p, maxRank);
      index += seg;
      dst += seg * dstStep;
      n -= seg;
    }
    return mergeAll(std::move(out), maxRank);
  }

  /// The pieces of box dimensions d.. at output element `index`, tile
  /// offset `dst`, each of at most maxRank dimensions.
  Pieces build(int d, int64_t index, int64_t dst, size_t maxRank) const {
    if (d == box.rank - 1)
      return run(index, dst, box.shape[d], box.stride[d], tileStride[d],
                 maxRank);
    const int64_t n = box.shape[d];
    auto at = [&](int64_t i, size_t rank) {
      return build(d + 1, index + i * box.stride[d], dst + i * tileStride[d],
                   rank);
    };
    // Every index along d on its own, merged where they line up.
    auto each = [&] {
      Pieces full;
      for (int64_t i = 0; i < n; ++i) {
        Pieces p = at(i, maxRank);
        full.insert(full.end(), p.begin(), p.end());
      }
      return mergeAll(std::move(full), maxRank);
    };
    if (n == 1)
      return at(0, maxRank);
    if (maxRank > 1) {
      // Along d, does every piece only move? Then d is one more dimension.
      Pieces first = at(0, maxRank - 1), all = first;
      Pieces second = at(1, maxRank - 1);
      bool uniform = second.size() == first.size();
      int64_t ds = uniform && !first.empty() ? second[0].src - first[0].src : 0;
      int64_t dd = uniform && !first.empty() ? second[0].dst - first[0].dst : 0;
      for (int64_t i = 1; i < n; ++i) {
        Pieces p = i == 1 ? second : at(i, maxRank - 1);
        uniform = uniform && p.size() == first.size();
        for (size_t j = 0; uniform && j < p.size(); ++j)
          uniform = p[j].dims == first[j].dims &&
                    p[j].src == first[j].src + i * ds &&
                    p[j].dst == first[j].dst + i * dd;
        all.insert(all.end(), p.begin(), p.end());
      }
      if (uniform) {
        for (Piece &p : first)
          p.dims.push_front(Dim{n, ds, dd});
        return first;
      }
      Pieces spare = mergeAll(std::move(all), maxRank), full = each();
      return spare.size() <= full.size() ? spare : full;
    }
    return each();
  }
};

} // namespace

std::vector<TilePiece> accel::codegen::viewTilePieces(const DramBox &cTile,
                                                      int64_t rowStride,
                                                      const ResidualView &v) {
  if (cTile.rank < 1 || v.shape.size() != v.strides.size() || v.shape.empty())
    throw std::logic_error("viewTilePieces: needs a box and one view stride "
                           "per dimension");
  if (cTile.base < v.output || (cTile.base - v.output) % 4 != 0)
    throw std::logic_error("viewTilePieces: the C tile is not in the output");
  ResidualView c = canonical(v);
  Builder b{cTile, c, {0, 0, 0, 0}};
  // The dense tile's strides, as StreamBuilder::dmaLoad writes it.
  TilePiece dense = denseTilePiece(cTile, rowStride);
  for (int d = 0; d < cTile.rank; ++d)
    b.tileStride[d] = dense.suStrides[size_t(d)];
  int64_t first = int64_t((cTile.base - v.output) / 4);
  std::vector<TilePiece> out;
  for (const Piece &p : b.build(0, first, 0, 4)) {
    TilePiece t;
    t.offset = p.dst;
    t.src.base = v.base + uint64_t(p.src) * 4;
    if (p.dims.empty())
      t.src.dim(1, 1);
    for (size_t i = 0; i < p.dims.size(); ++i) {
      t.src.dim(p.dims[i].count, p.dims[i].src);
      t.suStrides[i] = p.dims[i].dst;
    }
    if (p.dims.empty())
      t.suStrides[0] = 1;
    out.push_back(t);
  }
  return out;
}

int64_t accel::codegen::repeatFactor(const ResidualView &v) {
  int64_t f = 1;
  for (size_t d = 0; d < v.shape.size() && d < v.strides.size(); ++d)
    if (v.strides[d] == 0)
      f *= v.shape[d];
  return f;
}

StagedResidual
accel::codegen::stageRepeatedReads(const std::vector<TilePiece> &pieces) {
  StagedResidual out;
  for (const TilePiece &p : pieces) {
    const DramBox &b = p.src;
    auto repeated = [&](int d) { return b.stride[d] == 0 && b.shape[d] > 1; };
    bool any = false;
    for (int d = 0; d < b.rank; ++d)
      any |= repeated(d);
    if (!any || p.zero) {
      out.direct.push_back(p);
      continue;
    }
    // The staging strides: dense over the dimensions that are not repeated,
    // innermost fastest; 0 along the repeats.
    int64_t staged[4] = {0, 0, 0, 0}, elems = 1;
    for (int d = b.rank; d-- > 0;)
      if (!repeated(d)) {
        staged[d] = elems;
        elems *= b.shape[d];
      }
    TilePiece load;
    load.src.base = b.base;
    load.offset = out.stagingElems;
    TilePiece copy;
    copy.src.base = uint64_t(out.stagingElems);
    copy.offset = p.offset;
    copy.suStrides = p.suStrides;
    for (int d = 0; d < b.rank; ++d) {
      copy.src.dim(b.shape[d], staged[d]);
      if (repeated(d))
        continue;
      load.suStrides[size_t(load.src.rank)] = staged[d];
      load.src.dim(b.shape[d], b.stride[d]);
    }
    if (load.src.rank == 0) { // every dimension repeats one element
      load.src.dim(1, 1);
      load.suStrides[0] = 1;
    }
    out.compact.push_back(load);
    out.expand.push_back(copy);
    out.stagingElems += elems;
  }
  return out;
}
