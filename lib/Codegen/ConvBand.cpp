//===- ConvBand.cpp - Input bands of the implicit-GEMM convolution --------===//
//
// See ConvBand.h and docs/mapping.md, "Convolution input bands".
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/ConvBand.h"
#include <algorithm>
#include <tuple>

using namespace accel;
using namespace accel::codegen;

BandLayout accel::codegen::convBandLayout(const ConvWindow &w, int64_t oh0,
                                          int64_t ohc, int64_t ow0, int64_t owc,
                                          int64_t khLo, int64_t khHi,
                                          int64_t kwLo, int64_t kwHi,
                                          int64_t channels) {
  BandLayout b;
  b.r0 = oh0 * w.sh + khLo * w.dh;
  b.c0 = ow0 * w.sw + kwLo * w.dw;
  b.rows = (ohc - 1) * w.sh + (khHi - khLo) * w.dh + 1;
  b.cols = (owc - 1) * w.sw + (kwHi - kwLo) * w.dw + 1;
  b.channels = channels;
  return b;
}

DramBox accel::codegen::convBandTile(const ConvWindow &w, const BandLayout &b,
                                     int64_t kh, int64_t nkh, int64_t kw,
                                     int64_t nkw, int64_t c, int64_t cc,
                                     int64_t ohc, int64_t owc) {
  // Pixel (i, j) of kernel position (kh, kw) (relative to the band's first
  // kernel row / column) reads band row i * sh + kh * dh, column j * sw +
  // kw * dw: the band starts at the pixel box's first window row / column.
  DramBox t;
  int dims = 0;
  if (nkh > 1)
    t.dim(nkh, w.dh * b.cols), ++dims;
  if (nkw > 1)
    t.dim(nkw, w.dw), ++dims;
  t.dim(cc, b.rows * b.cols), ++dims;
  t.rowDims = dims;
  if (ohc > 1)
    t.dim(ohc, w.sh * b.cols);
  t.dim(owc, w.sw);
  t.base = uint64_t((c * b.rows + kh * w.dh) * b.cols + kw * w.dw);
  return t;
}

namespace {
/// Σ over the pieces of `extent` in steps of `step` of the band extent a
/// piece's windows span: (piece - 1) * stride + (kernel - 1) * dilation + 1.
int64_t spanSum(int64_t extent, int64_t step, int64_t stride, int64_t kernel,
                int64_t dilation) {
  int64_t sum = 0;
  for (int64_t at = 0; at < extent; at += step) {
    const int64_t piece = std::min(step, extent - at);
    sum += (piece - 1) * stride + (kernel - 1) * dilation + 1;
  }
  return sum;
}
} // namespace

BandBlockCost accel::codegen::bandBlockCost(const ConvWindow &w, int64_t KH,
                                            int64_t KW, int64_t outRows,
                                            int64_t OW, BandBlock b) {
  // Rows and columns of blocks are independent: Σ_i Σ_j rows_i * cols_j.
  BandBlockCost c;
  c.bandElems = spanSum(outRows, b.rows, w.sh, KH, w.dh) *
                spanSum(OW, b.cols, w.sw, KW, w.dw);
  c.blocks = ceilDiv(outRows, b.rows) * ceilDiv(OW, b.cols);
  return c;
}

BandBlock accel::codegen::chooseBandBlock(const ConvWindow &w, int64_t KH,
                                          int64_t KW, int64_t outRows,
                                          int64_t OW, int64_t nc,
                                          int64_t minCols, int64_t rowTiles) {
  // One piece of a row per block when no block meets the limits (the
  // pieces of rows themselves always do: r = nc / OW whole rows, or r = 1).
  BandBlock best{1, std::min(OW, std::max<int64_t>(nc, 1))};
  bool found = false;
  BandBlockCost bestCost;
  const auto key = [](const BandBlockCost &k, const BandBlock &bb) {
    return std::make_tuple(k.bandElems, k.blocks, -bb.cols);
  };
  for (int64_t r = 1; r <= std::min(outRows, nc); ++r) {
    const BandBlock b{r, std::min(OW, nc / r)};
    if (b.cols < 1 || (b.cols < OW && b.cols < minCols))
      break;
    const BandBlockCost c = bandBlockCost(w, KH, KW, outRows, OW, b);
    if (c.blocks > rowTiles)
      continue;
    if (!found || key(c, b) < key(bestCost, best))
      best = b, bestCost = c, found = true;
  }
  return best;
}

namespace {
PixelBox unionOf(const PixelBox &a, const PixelBox &b) {
  PixelBox u;
  u.oh0 = std::min(a.oh0, b.oh0);
  u.ow0 = std::min(a.ow0, b.ow0);
  u.ohc = std::max(a.oh0 + a.ohc, b.oh0 + b.ohc) - u.oh0;
  u.owc = std::max(a.ow0 + a.owc, b.ow0 + b.owc) - u.ow0;
  return u;
}
} // namespace

BandGroups accel::codegen::groupBandBoxes(const ConvWindow &w,
                                          const std::vector<PixelBox> &boxes,
                                          int64_t khLo, int64_t khHi,
                                          int64_t kwLo, int64_t kwHi,
                                          int64_t channels, int64_t maxElems) {
  auto elems = [&](const PixelBox &b) {
    return convBandLayout(w, b.oh0, b.ohc, b.ow0, b.owc, khLo, khHi, kwLo, kwHi,
                          channels)
        .elems();
  };
  BandGroups g;
  for (const PixelBox &b : boxes) {
    if (!g.box.empty() && maxElems > 0) {
      const PixelBox u = unionOf(g.box.back(), b);
      if (elems(u) <= maxElems) {
        g.box.back() = u;
        g.groupOf.push_back(g.box.size() - 1);
        continue;
      }
    }
    g.box.push_back(b);
    g.groupOf.push_back(g.box.size() - 1);
  }
  return g;
}

int64_t accel::codegen::bandOffsetInGroup(const ConvWindow &w,
                                          const BandLayout &group,
                                          const PixelBox &groupBox,
                                          const PixelBox &box) {
  return (box.oh0 - groupBox.oh0) * w.sh * group.cols +
         (box.ow0 - groupBox.ow0) * w.sw;
}
