//===- ConvBandTest.cpp - Input bands of the implicit-GEMM convolution ----===//
//
// For random windows (strides, dilations), pixel boxes and K chunks: every
// element of a chunk's tile read through convBandTile from the band of
// convBandLayout is the padded-input element the implicit GEMM reads for it
// (channel, kernel position, output pixel), and every address lies inside
// the band.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/ConvBand.h"
#include <gtest/gtest.h>
#include <random>

using namespace accel;
using namespace accel::codegen;

namespace {

struct Elem {
  int64_t c, h, w;
};

/// The band element at `offset`: (channel, padded row, padded column).
Elem bandElem(const BandLayout &b, int64_t offset) {
  Elem e;
  e.c = offset / (b.rows * b.cols);
  e.h = b.r0 + offset % (b.rows * b.cols) / b.cols;
  e.w = b.c0 + offset % b.cols;
  return e;
}

void check(const ConvWindow &win, int64_t oh0, int64_t ohc, int64_t ow0,
           int64_t owc, int64_t khLo, int64_t khHi, int64_t kwLo, int64_t kwHi,
           int64_t channels, int64_t kh, int64_t nkh, int64_t kw, int64_t nkw,
           int64_t c, int64_t cc) {
  SCOPED_TRACE(::testing::Message()
               << "stride " << win.sh << "x" << win.sw << " dilation " << win.dh
               << "x" << win.dw << " pixels " << oh0 << "+" << ohc << " x "
               << ow0 << "+" << owc << " chunk kh " << kh << "+" << nkh
               << " kw " << kw << "+" << nkw << " c " << c << "+" << cc);
  BandLayout b =
      convBandLayout(win, oh0, ohc, ow0, owc, khLo, khHi, kwLo, kwHi, channels);
  DramBox t =
      convBandTile(win, b, kh - khLo, nkh, kw - kwLo, nkw, c, cc, ohc, owc);
  ASSERT_LE(t.rank, 4);
  ASSERT_EQ(t.rows(), nkh * nkw * cc);
  ASSERT_EQ(t.cols(), ohc * owc);
  std::array<int64_t, 4> idx{0, 0, 0, 0};
  int64_t total = 1;
  for (int d = 0; d < t.rank; ++d)
    total *= t.shape[d];
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rem = flat;
    for (int d = t.rank - 1; d >= 0; --d) {
      idx[size_t(d)] = rem % t.shape[d];
      rem /= t.shape[d];
    }
    int64_t off = int64_t(t.base);
    for (int d = 0; d < t.rank; ++d)
      off += idx[size_t(d)] * t.stride[d];
    ASSERT_GE(off, 0);
    ASSERT_LT(off, b.elems());
    // The implicit GEMM's element: row = (ikh, ikw, ic), column = (i, j).
    int64_t row = flat / (ohc * owc), col = flat % (ohc * owc);
    int64_t ic = row % cc, pos = row / cc;
    int64_t ikw = pos % nkw, ikh = pos / nkw;
    int64_t i = col / owc, j = col % owc;
    Elem want{c + ic, (oh0 + i) * win.sh + (kh + ikh) * win.dh,
              (ow0 + j) * win.sw + (kw + ikw) * win.dw};
    Elem got = bandElem(b, off);
    ASSERT_EQ(got.c, want.c) << "element " << flat;
    ASSERT_EQ(got.h, want.h) << "element " << flat;
    ASSERT_EQ(got.w, want.w) << "element " << flat;
  }
}

} // namespace

TEST(ConvBand, ThreeByThreeOneRow) {
  // A piece of one output row, one kernel position per chunk.
  ConvWindow win;
  for (int64_t kh = 0; kh < 3; ++kh)
    for (int64_t kw = 0; kw < 3; ++kw)
      check(win, 5, 1, 2, 7, 0, 2, 0, 2, 16, kh, 1, kw, 1, 4, 8);
  BandLayout b = convBandLayout(win, 5, 1, 2, 7, 0, 2, 0, 2, 16);
  EXPECT_EQ(b.rows, 3);
  EXPECT_EQ(b.cols, 9);
  EXPECT_EQ(b.r0, 5);
  EXPECT_EQ(b.c0, 2);
}

TEST(ConvBand, StridedDilatedBlocks) {
  // Several output rows; stride 2, dilation 2; kernel rows 1..2 only (a K
  // slice that starts inside the kernel).
  ConvWindow win{2, 2, 2, 2};
  BandLayout b = convBandLayout(win, 3, 4, 0, 6, 1, 2, 0, 2, 8);
  EXPECT_EQ(b.rows, 3 * 2 + 1 * 2 + 1);
  EXPECT_EQ(b.cols, 5 * 2 + 2 * 2 + 1);
  for (int64_t kh = 1; kh < 3; ++kh)
    for (int64_t kw = 0; kw < 3; ++kw)
      check(win, 3, 4, 0, 6, 1, 2, 0, 2, 8, kh, 1, kw, 1, 2, 5);
}

TEST(ConvBand, WholePositionChunks) {
  // Few channels: a chunk holds a run of kernel columns, or whole kernel
  // rows (pixel box one output row).
  ConvWindow win{2, 2, 1, 1};
  check(win, 0, 1, 4, 9, 0, 6, 0, 6, 3, 0, 1, 0, 4, 0, 3);
  check(win, 0, 1, 4, 9, 0, 6, 0, 6, 3, 2, 3, 0, 7, 0, 3);
  check(win, 2, 3, 0, 11, 0, 6, 0, 6, 3, 4, 1, 4, 3, 0, 3);
}

TEST(ConvBand, Random) {
  std::mt19937 rng(12);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 300; ++iter) {
    ConvWindow win{pick(1, 3), pick(1, 3), pick(1, 3), pick(1, 3)};
    int64_t KH = pick(1, 5), KW = pick(1, 5), C = pick(1, 9);
    int64_t khLo = pick(0, KH - 1), khHi = pick(khLo, KH - 1);
    int64_t kwLo = pick(0, KW - 1), kwHi = pick(kwLo, KW - 1);
    int64_t ohc = pick(1, 4), owc = pick(1, 12);
    int64_t kh = pick(khLo, khHi), nkh = pick(1, khHi - kh + 1);
    int64_t kw = pick(kwLo, kwHi), nkw = pick(1, kwHi - kw + 1);
    if (nkh > 1 && nkw > 1 && ohc > 1)
      ohc = 1; // the 4-D limit of the DMA (chunksMaySpanKernelRows)
    int64_t c = pick(0, C - 1), cc = pick(1, C - c);
    check(win, pick(0, 20), ohc, pick(0, 20), owc, khLo, khHi, kwLo, kwHi, C,
          kh, nkh, kw, nkw, c, cc);
  }
}
