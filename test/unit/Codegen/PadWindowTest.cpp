//===- PadWindowTest.cpp - Image tiles of a padded conv read in the window ===//
//
// Replays the pieces of padWindowPieces on a tile and compares it with the
// tile an implicit GEMM over the zero-padded input would load: every element
// written exactly once, input elements where the window is inside the input,
// zeros (from the zero source) elsewhere; and the DMA counts of the common
// cases.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/PadWindow.h"
#include <gtest/gtest.h>
#include <random>

using namespace accel;
using namespace accel::codegen;

namespace {

constexpr uint64_t kPlanes = 1 << 20, kZeros = 64;

/// Tile layout of the two forms: B (rows = K, row stride `rs` over the
/// pixels) and A (rows = pixels, row stride `rs` over K).
void layout(PadWindowTile &t, bool aForm, int64_t rs) {
  if (aForm) {
    t.posStride = t.cc, t.chanStride = 1, t.pixStride = rs;
  } else {
    t.posStride = t.cc * rs, t.chanStride = rs, t.pixStride = 1;
  }
}

/// Input element (c, h, w) holds 1 + its index; padding 0; -1 = unwritten.
void check(const PadWindowTile &t) {
  const int64_t pos = t.nkh * t.nkw;
  int64_t size = 0;
  for (int64_t p = 0; p < pos; ++p)
    for (int64_t c = 0; c < t.cc; ++c)
      for (int64_t q = 0; q < t.ohc * t.owc; ++q)
        size = std::max(size, p * t.posStride + c * t.chanStride +
                                  q * t.pixStride + 1);
  std::vector<double> tile(size_t(size), -1.0);
  std::vector<int> writes(size_t(size), 0);
  for (const TilePiece &pc : padWindowPieces(t)) {
    const DramBox &b = pc.src;
    ASSERT_GE(b.rank, 1);
    ASSERT_LE(b.rank, 4);
    const bool zero = b.base == kZeros;
    if (zero) {
      for (int d = 0; d < b.rank; ++d)
        ASSERT_EQ(b.stride[d], 0) << "the zero source is one f32";
    }
    int64_t idx[4] = {0, 0, 0, 0};
    for (;;) {
      int64_t off = pc.offset, src = 0;
      for (int d = 0; d < b.rank; ++d) {
        off += idx[d] * pc.suStrides[size_t(d)];
        src += idx[d] * b.stride[d];
      }
      ASSERT_GE(off, 0);
      ASSERT_LT(off, size);
      double v = 0.0;
      if (!zero) {
        int64_t e = int64_t(b.base - kPlanes) / 4 + src;
        ASSERT_GE(e, 0);
        ASSERT_LT(e, t.cc * t.H * t.W) << "reads outside the input";
        v = double(e + 1);
      }
      tile[size_t(off)] = v;
      ++writes[size_t(off)];
      int d = b.rank - 1;
      while (d >= 0 && ++idx[d] == b.shape[d])
        idx[d--] = 0;
      if (d < 0)
        break;
    }
  }
  for (int64_t ikh = 0; ikh < t.nkh; ++ikh)
    for (int64_t ikw = 0; ikw < t.nkw; ++ikw)
      for (int64_t c = 0; c < t.cc; ++c)
        for (int64_t i = 0; i < t.ohc; ++i)
          for (int64_t j = 0; j < t.owc; ++j) {
            int64_t h = (t.oh0 + i) * t.sh + (t.kh + ikh) * t.dh - t.padT;
            int64_t w = (t.ow0 + j) * t.sw + (t.kw + ikw) * t.dw - t.padL;
            double want = h >= 0 && h < t.H && w >= 0 && w < t.W
                              ? double(c * t.H * t.W + h * t.W + w + 1)
                              : 0.0;
            int64_t off = (ikh * t.nkw + ikw) * t.posStride + c * t.chanStride +
                          (i * t.owc + j) * t.pixStride;
            ASSERT_EQ(writes[size_t(off)], 1)
                << "position " << ikh << "," << ikw << " channel " << c
                << " pixel " << i << "," << j;
            ASSERT_EQ(tile[size_t(off)], want)
                << "position " << ikh << "," << ikw << " channel " << c
                << " pixel " << i << "," << j;
          }
}

PadWindowTile base3x3(int64_t H, int64_t W) {
  PadWindowTile t;
  t.planes = kPlanes, t.zeros = kZeros;
  t.H = H, t.W = W, t.padT = 1, t.padL = 1;
  t.cc = 8;
  return t;
}

TEST(PadWindow, InteriorRowsClipOnlyTheSideColumns) {
  // 3x3 pad 1, a block of 4 whole output rows in the middle of a 16x16
  // image: kw = 0 and kw = 2 need their input box and one zero DMA (the
  // first / last column of every row, one strided box), kw = 1 none.
  for (int64_t kw = 0; kw < 3; ++kw) {
    PadWindowTile t = base3x3(16, 16);
    t.kh = 1, t.kw = kw, t.oh0 = 6, t.ohc = 4, t.ow0 = 0, t.owc = 16;
    layout(t, false, 64);
    check(t);
    EXPECT_EQ(padWindowClips(t), kw != 1);
    if (kw != 1) {
      EXPECT_EQ(padWindowPieces(t).size(), 2u) << "kw " << kw;
    }
  }
}

TEST(PadWindow, CornerTileHasHeadRows) {
  PadWindowTile t = base3x3(16, 16);
  t.kh = 0, t.kw = 0, t.oh0 = 0, t.ohc = 4, t.ow0 = 0, t.owc = 16;
  layout(t, false, 64);
  check(t);
  // The input box, the head (row 0 and the first column of row 1) and the
  // first column of rows 2 and 3.
  EXPECT_EQ(padWindowPieces(t).size(), 3u);
}

TEST(PadWindow, WholeKernelRowOfOneOutputRow) {
  // A chunk of the three positions of kernel row 0 (a piece of one output
  // row): the zero runs of kw = 0 and kw = 2 are one element each.
  PadWindowTile t = base3x3(16, 16);
  t.kh = 0, t.nkh = 3, t.kw = 0, t.nkw = 3, t.oh0 = 5, t.ohc = 1;
  t.ow0 = 0, t.owc = 16;
  for (bool aForm : {false, true}) {
    layout(t, aForm, aForm ? 80 : 16);
    check(t);
  }
}

TEST(PadWindow, UnclippedTileIsOneBox) {
  PadWindowTile t = base3x3(16, 16);
  t.kh = 1, t.kw = 1, t.oh0 = 3, t.ohc = 2, t.ow0 = 0, t.owc = 16;
  layout(t, false, 32);
  EXPECT_FALSE(padWindowClips(t));
  check(t);
  EXPECT_EQ(padWindowPieces(t).size(), 1u);
}

TEST(PadWindow, WindowEntirelyInThePadding) {
  // Pads larger than the kernel reach: a position that reads only padding
  // is all zeros, one DMA.
  PadWindowTile t = base3x3(4, 4);
  t.padT = 3, t.padL = 3, t.kh = 0, t.kw = 0, t.oh0 = 0, t.ohc = 1;
  t.ow0 = 0, t.owc = 3;
  layout(t, false, 8);
  check(t);
  EXPECT_EQ(padWindowPieces(t).size(), 1u);
}

TEST(PadWindow, RandomGeometriesMatchThePaddedInput) {
  std::mt19937 rng(12);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 3000; ++iter) {
    PadWindowTile t;
    t.planes = kPlanes, t.zeros = kZeros;
    t.H = pick(1, 12), t.W = pick(1, 12);
    t.sh = pick(1, 3), t.sw = pick(1, 3), t.dh = pick(1, 3), t.dw = pick(1, 3);
    const int64_t KH = pick(1, 7), KW = pick(1, 7);
    t.padT = pick(0, 4), t.padL = pick(0, 4);
    const int64_t padB = pick(0, 4), padR = pick(0, 4);
    const int64_t OH = (t.H + t.padT + padB - (KH - 1) * t.dh - 1) / t.sh + 1;
    const int64_t OW = (t.W + t.padL + padR - (KW - 1) * t.dw - 1) / t.sw + 1;
    if (OH < 1 || OW < 1)
      continue;
    t.cc = pick(1, 3);
    t.kh = pick(0, KH - 1), t.nkh = pick(1, KH - t.kh);
    t.kw = pick(0, KW - 1), t.nkw = pick(1, KW - t.kw);
    t.oh0 = pick(0, OH - 1), t.ohc = pick(1, OH - t.oh0);
    if (t.ohc > 1 && pick(0, 1))
      t.ow0 = 0, t.owc = OW; // whole rows
    else
      t.ow0 = pick(0, OW - 1), t.owc = pick(1, OW - t.ow0);
    const bool aForm = pick(0, 1);
    const int64_t depth = t.nkh * t.nkw * t.cc, pixels = t.ohc * t.owc;
    layout(t, aForm, (aForm ? depth : pixels) + pick(0, 3));
    SCOPED_TRACE("iteration " + std::to_string(iter));
    check(t);
    if (HasFatalFailure())
      return;
  }
}

} // namespace
