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

// Pixel blocks of the bands (docs/mapping.md, "Pixel blocks of the bands").
// A 3 x 3 kernel, stride 1, over a 160-pixel-wide map (the FPN detector's
// 1/4-scale layers) in N tiles of 64 pixels: pieces of rows (64, 64, 32)
// have bands of 3 rows each, 166 band columns per output row.
TEST(ConvBandBlocks, CostOfPiecesOfRows) {
  const ConvWindow w{1, 1, 1, 1};
  BandBlockCost c = bandBlockCost(w, 3, 3, 10, 160, {1, 64});
  EXPECT_EQ(c.bandElems, 10 * 3 * (66 + 66 + 34));
  EXPECT_EQ(c.blocks, 30);
}

// The same map in blocks: rows of at least 16 pixels allow 4 x 16 (band
// 6 x 18 per 64 pixels: 43 200 elements over 160 rows, against 79 680 for
// the pieces of rows, 2 x 32's 54 400 and 3 x 21's 47 168), in 400 blocks
// where the pieces of rows took 480 tiles.
TEST(ConvBandBlocks, ChoosesTheBlockWithTheSmallestBands) {
  const ConvWindow w{1, 1, 1, 1};
  BandBlock b = chooseBandBlock(w, 3, 3, 160, 160, 64, 16, 480);
  EXPECT_EQ(b.rows, 4);
  EXPECT_EQ(b.cols, 16);
  EXPECT_EQ(bandBlockCost(w, 3, 3, 160, 160, b).bandElems, 43200);
  EXPECT_EQ(bandBlockCost(w, 3, 3, 160, 160, {2, 32}).bandElems, 54400);
  EXPECT_EQ(bandBlockCost(w, 3, 3, 160, 160, {3, 21}).bandElems, 47168);
  // Without the row minimum the square 8 x 8 (band 10 x 10) wins.
  b = chooseBandBlock(w, 3, 3, 160, 160, 64, 1, 480);
  EXPECT_EQ(b.rows, 8);
  EXPECT_EQ(b.cols, 8);
  EXPECT_EQ(bandBlockCost(w, 3, 3, 160, 160, b).bandElems, 40000);
}

// No more blocks than the row tiles: a 56-wide map (ResNet's 56 x 56) in
// tiles of 64 pixels is one whole row per tile (56 tiles for 56 rows);
// 3 x 21 would take 19 x 3 = 57 blocks, 4 x 16 takes 14 x 4 = 56 with
// bands of 84 x 64 elements (against 168 x 58 for the whole rows).
TEST(ConvBandBlocks, NoMoreBlocksThanRowTiles) {
  const ConvWindow w{1, 1, 1, 1};
  EXPECT_EQ(bandBlockCost(w, 3, 3, 56, 56, {3, 21}).blocks, 57);
  BandBlock b = chooseBandBlock(w, 3, 3, 56, 56, 64, 16, 56);
  EXPECT_EQ(b.rows, 4);
  EXPECT_EQ(b.cols, 16);
  EXPECT_EQ(bandBlockCost(w, 3, 3, 56, 56, b).bandElems, 84 * 64);
  EXPECT_EQ(bandBlockCost(w, 3, 3, 56, 56, {1, 56}).bandElems, 168 * 58);
}

// Strides count: a 3 x 3 kernel of stride 2 spans 2 * (n - 1) + 3 input
// rows (and columns) for n output rows (columns). 8 rows of 32 pixels in
// tiles of 32: 2 x 16 blocks (bands 5 x 33, 1 320 elements) beat whole
// rows (3 x 65 each, 1 560) in as many tiles; rows of at least 32 pixels
// leave only the whole rows.
TEST(ConvBandBlocks, StridedWindows) {
  const ConvWindow w{2, 2, 1, 1};
  BandBlockCost c = bandBlockCost(w, 3, 3, 8, 32, {2, 16});
  EXPECT_EQ(c.bandElems, (4 * 5) * (2 * 33));
  EXPECT_EQ(c.blocks, 8);
  EXPECT_EQ(bandBlockCost(w, 3, 3, 8, 32, {1, 32}).bandElems, 8 * 3 * 65);
  BandBlock b = chooseBandBlock(w, 3, 3, 8, 32, 32, 16, 8);
  EXPECT_EQ(b.rows, 2);
  EXPECT_EQ(b.cols, 16);
  b = chooseBandBlock(w, 3, 3, 8, 32, 32, 32, 8);
  EXPECT_EQ(b.rows, 1);
  EXPECT_EQ(b.cols, 32);
}

// Rows narrower than the tile: 20-pixel rows in tiles of 64 pixels were
// blocks of 3 whole rows (7 tiles for 20 rows); the choice keeps 3 whole
// rows (r = 3, c = 20), never one row per block (20 blocks > 7).
TEST(ConvBandBlocks, NarrowRowsKeepWholeRowBlocks) {
  const ConvWindow w{1, 1, 1, 1};
  BandBlock b = chooseBandBlock(w, 3, 3, 20, 20, 64, 16, 7);
  EXPECT_EQ(b.rows, 3);
  EXPECT_EQ(b.cols, 20);
  EXPECT_EQ(bandBlockCost(w, 3, 3, 20, 20, b).blocks, 7);
}

// Band groups (docs/mapping.md, "Band groups").
namespace {

/// Every element of `box`'s chunk tile read through its group's band is the
/// element its own band holds there.
void checkInGroup(const ConvWindow &win, const PixelBox &group,
                  const PixelBox &box, int64_t KH, int64_t KW, int64_t C) {
  SCOPED_TRACE(::testing::Message() << "box " << box.oh0 << "+" << box.ohc
                                    << " x " << box.ow0 << "+" << box.owc);
  const BandLayout own = convBandLayout(win, box.oh0, box.ohc, box.ow0, box.owc,
                                        0, KH - 1, 0, KW - 1, C);
  const BandLayout shared = convBandLayout(win, group.oh0, group.ohc, group.ow0,
                                           group.owc, 0, KH - 1, 0, KW - 1, C);
  const int64_t shift = bandOffsetInGroup(win, shared, group, box);
  for (int64_t kh = 0; kh < KH; ++kh)
    for (int64_t kw = 0; kw < KW; ++kw) {
      DramBox a = convBandTile(win, own, kh, 1, kw, 1, 0, C, box.ohc, box.owc);
      DramBox b =
          convBandTile(win, shared, kh, 1, kw, 1, 0, C, box.ohc, box.owc);
      ASSERT_EQ(a.rank, b.rank);
      std::array<int64_t, 4> idx{0, 0, 0, 0};
      int64_t total = 1;
      for (int d = 0; d < a.rank; ++d)
        total *= a.shape[d];
      for (int64_t flat = 0; flat < total; ++flat) {
        int64_t rem = flat, offA = int64_t(a.base),
                offB = int64_t(b.base) + shift;
        for (int d = a.rank - 1; d >= 0; --d) {
          idx[size_t(d)] = rem % a.shape[d];
          rem /= a.shape[d];
        }
        for (int d = 0; d < a.rank; ++d)
          offA += idx[size_t(d)] * a.stride[d],
              offB += idx[size_t(d)] * b.stride[d];
        ASSERT_GE(offB, 0);
        ASSERT_LT(offB, shared.elems());
        Elem want = bandElem(own, offA), got = bandElem(shared, offB);
        ASSERT_EQ(got.c, want.c);
        ASSERT_EQ(got.h, want.h);
        ASSERT_EQ(got.w, want.w);
      }
    }
}

/// Pieces of `piece` pixels over `rows` output rows of `OW` pixels.
std::vector<PixelBox> piecesOfRows(int64_t rows, int64_t OW, int64_t piece) {
  std::vector<PixelBox> v;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < OW; c += piece)
      v.push_back(PixelBox{r, 1, c, std::min(piece, OW - c)});
  return v;
}

} // namespace

// A 7 x 7 stride-2 stem over 3 channels, 20 output columns in pieces of 8,
// 8 and 4: a piece's band is 7 rows x (piece - 1) * 2 + 7 columns; a group
// of two output rows 9 x 45 x 3 = 1215 elements.
TEST(BandGroups, PiecesOfTwoRowsShareABand) {
  const ConvWindow win{2, 2, 1, 1};
  const std::vector<PixelBox> boxes = piecesOfRows(5, 20, 8);
  BandGroups g = groupBandBoxes(win, boxes, 0, 6, 0, 6, 3, 1215);
  ASSERT_EQ(g.box.size(), 3u);
  EXPECT_EQ(g.groupOf,
            (std::vector<size_t>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(g.box[1].oh0, 2);
  EXPECT_EQ(g.box[1].ohc, 2);
  EXPECT_EQ(g.box[1].ow0, 0);
  EXPECT_EQ(g.box[1].owc, 20);
  // The last group: one row, its band 7 x 45 x 3.
  EXPECT_EQ(g.box[2].ohc, 1);
  for (size_t i = 0; i < boxes.size(); ++i)
    checkInGroup(win, g.box[g.groupOf[i]], boxes[i], 7, 7, 3);
}

TEST(BandGroups, NoLimitOrTooSmallALimitKeepsABandPerTile) {
  const ConvWindow win{1, 1, 1, 1};
  const std::vector<PixelBox> boxes = piecesOfRows(3, 10, 4);
  for (int64_t limit : {int64_t(0), int64_t(-1), int64_t(3 * 6 * 2)}) {
    BandGroups g = groupBandBoxes(win, boxes, 0, 2, 0, 2, 2, limit);
    EXPECT_EQ(g.box.size(), boxes.size()) << "limit " << limit;
    for (size_t i = 0; i < boxes.size(); ++i)
      EXPECT_EQ(g.groupOf[i], i);
  }
}

// A piece that ends one row and one that starts the next: their union
// holds both rows' whole width, the columns between the pieces included.
TEST(BandGroups, UnionAcrossARowEnd) {
  const ConvWindow win{1, 1, 2, 2};
  const std::vector<PixelBox> boxes{{4, 1, 12, 6}, {5, 1, 0, 5}};
  BandGroups g = groupBandBoxes(win, boxes, 0, 2, 0, 2, 4, 1 << 20);
  ASSERT_EQ(g.box.size(), 1u);
  EXPECT_EQ(g.box[0].oh0, 4);
  EXPECT_EQ(g.box[0].ohc, 2);
  EXPECT_EQ(g.box[0].ow0, 0);
  EXPECT_EQ(g.box[0].owc, 18);
  for (const PixelBox &b : boxes)
    checkInGroup(win, g.box[0], b, 3, 3, 4);
}

TEST(BandGroups, RandomGroupsReadTheirTilesElements) {
  std::mt19937 rng(5);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 60; ++iter) {
    const ConvWindow win{pick(1, 3), pick(1, 3), pick(1, 2), pick(1, 2)};
    const int64_t KH = pick(1, 5), KW = pick(1, 5), C = pick(1, 3);
    const std::vector<PixelBox> boxes =
        piecesOfRows(pick(1, 5), pick(3, 17), pick(1, 9));
    BandGroups g =
        groupBandBoxes(win, boxes, 0, KH - 1, 0, KW - 1, C, pick(0, 2000));
    ASSERT_EQ(g.groupOf.size(), boxes.size());
    for (size_t i = 0; i < boxes.size(); ++i) {
      // Groups are runs of consecutive boxes.
      if (i > 0)
        ASSERT_LE(g.groupOf[i] - g.groupOf[i - 1], 1u);
      checkInGroup(win, g.box[g.groupOf[i]], boxes[i], KH, KW, C);
    }
  }
}
