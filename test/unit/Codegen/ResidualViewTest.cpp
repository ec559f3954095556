//===- ResidualViewTest.cpp - viewTilePieces
//--------------------------------===//
//
// Every case replays the pieces as the DMA engine would (element by element
// into a tile, counting writes) and compares with the definition: tile
// element e holds the residual element that its output element reads.
//
//===----------------------------------------------------------------------===//
#include "accel/Codegen/ResidualView.h"
#include <gtest/gtest.h>
#include <random>

using namespace accel::codegen;

namespace {
constexpr uint64_t kOut = 1 << 20, kRes = 1 << 24;

/// The nearest upsampling of a [C, H/fh, W/fw] residual to [C, H, W] as
/// the fused add sees it: shape [C, H/fh, fh, W/fw, fw], zero strides on
/// the repeats.
ResidualView upsample(int64_t C, int64_t H, int64_t W, int64_t fh, int64_t fw) {
  int64_t h = H / fh, w = W / fw;
  ResidualView v;
  v.base = kRes;
  v.output = kOut;
  v.shape = {1, C, h, fh, w, fw};
  v.strides = {C * h * w, h * w, w, 0, 1, 0};
  return v;
}

/// Channels [c0, c0 + mc) x the pixel range [p0, p0 + n) of a C x HW
/// output: the C tile of a 1 x 1 convolution's GEMM (rows = channels).
DramBox pixelRange(int64_t HW, int64_t c0, int64_t mc, int64_t p0, int64_t n) {
  DramBox b;
  b.base = kOut + uint64_t(c0 * HW + p0) * 4;
  b.dim(mc, HW).dim(n, 1);
  b.rowDims = 1;
  return b;
}

/// Calls `f(dst, src)` for every element of a piece: its offset in the
/// destination (p.offset + i . suStrides) and in its source (i . src.stride).
template <typename F> void forEachElement(const TilePiece &p, F f) {
  int64_t n[4] = {1, 1, 1, 1};
  for (int d = 0; d < p.src.rank; ++d)
    n[d] = p.src.shape[d];
  for (int64_t a = 0; a < n[0]; ++a)
    for (int64_t b = 0; b < n[1]; ++b)
      for (int64_t c = 0; c < n[2]; ++c)
        for (int64_t e = 0; e < n[3]; ++e) {
          int64_t i[4] = {a, b, c, e}, src = 0, dst = p.offset;
          for (int d = 0; d < p.src.rank; ++d) {
            src += i[d] * p.src.stride[d];
            dst += i[d] * p.suStrides[size_t(d)];
          }
          f(dst, src);
        }
}

/// A tile of residual element offsets (-1: not written) and the number of
/// writes of each element.
struct Tile {
  std::vector<int64_t> value;
  std::vector<int> writes;
  explicit Tile(size_t n) : value(n, -1), writes(n, 0) {}
};

/// Replays DRAM pieces into `tile` as the DMA engine would.
void replayLoads(const std::vector<TilePiece> &pieces, const ResidualView &v,
                 Tile &tile) {
  for (const TilePiece &p : pieces) {
    ASSERT_GE(p.src.rank, 1);
    ASSERT_LE(p.src.rank, 4);
    forEachElement(p, [&](int64_t dst, int64_t src) {
      ASSERT_GE(dst, 0);
      ASSERT_LT(dst, int64_t(tile.value.size()));
      tile.value[size_t(dst)] = int64_t(p.src.base - v.base) / 4 + src;
      ++tile.writes[size_t(dst)];
    });
  }
}

/// Checks every element of `box` in the tile of row stride `rowStride`
/// against the view, each written once, and nothing else written.
void expectTile(const DramBox &box, int64_t rowStride, const ResidualView &v,
                const Tile &tile) {
  int64_t rows = box.rows(), cols = box.cols();
  ASSERT_EQ(tile.value.size(), size_t(rows * rowStride));
  // The box's elements in order: output index and tile offset.
  int64_t first = int64_t(box.base - v.output) / 4;
  int64_t n[4] = {1, 1, 1, 1};
  for (int d = 0; d < box.rank; ++d)
    n[d] = box.shape[d];
  int64_t count = 0;
  for (int64_t a = 0; a < n[0]; ++a)
    for (int64_t b = 0; b < n[1]; ++b)
      for (int64_t c = 0; c < n[2]; ++c)
        for (int64_t e = 0; e < n[3]; ++e, ++count) {
          int64_t i[4] = {a, b, c, e}, out = first;
          for (int d = 0; d < box.rank; ++d)
            out += i[d] * box.stride[d];
          int64_t row = count / cols, col = count % cols;
          size_t t = size_t(row * rowStride + col);
          ASSERT_EQ(tile.writes[t], 1) << "tile element " << t;
          ASSERT_EQ(tile.value[t], residualOffset(v, out))
              << "tile element " << t;
        }
  int total = 0;
  for (int w : tile.writes)
    total += w;
  EXPECT_EQ(total, rows * cols) << "writes outside the box's elements";
}

/// Replays `pieces` into a tile of row stride `rowStride` and checks it.
void expectLoads(const DramBox &box, int64_t rowStride, const ResidualView &v,
                 const std::vector<TilePiece> &pieces) {
  Tile tile(size_t(box.rows() * rowStride));
  replayLoads(pieces, v, tile);
  expectTile(box, rowStride, v, tile);
}

/// Replays stageRepeatedReads(pieces): the direct pieces into the tile, the
/// compact ones into the staging region (each staging element written once,
/// all of them), the expansions from the staging region into the tile; then
/// checks the tile as expectLoads does. Returns the staged form.
StagedResidual expectStagedLoads(const DramBox &box, int64_t rowStride,
                                 const ResidualView &v,
                                 const std::vector<TilePiece> &pieces) {
  StagedResidual staged = stageRepeatedReads(pieces);
  EXPECT_EQ(staged.compact.size(), staged.expand.size());
  Tile tile(size_t(box.rows() * rowStride));
  Tile staging(size_t(staged.stagingElems));
  replayLoads(staged.direct, v, tile);
  replayLoads(staged.compact, v, staging);
  for (int w : staging.writes)
    EXPECT_EQ(w, 1) << "a staging element written " << w << " times";
  for (const TilePiece &e : staged.expand) {
    EXPECT_LE(e.src.rank, 4);
    forEachElement(e, [&](int64_t dst, int64_t src) {
      const int64_t at = int64_t(e.src.base) + src;
      ASSERT_GE(at, 0);
      ASSERT_LT(at, staged.stagingElems);
      ASSERT_GE(dst, 0);
      ASSERT_LT(dst, int64_t(tile.value.size()));
      tile.value[size_t(dst)] = staging.value[size_t(at)];
      ++tile.writes[size_t(dst)];
    });
  }
  expectTile(box, rowStride, v, tile);
  return staged;
}
/// Random draws of the randomised tests: integers, and upsampled views.
struct Draws {
  std::mt19937 rng;
  explicit Draws(unsigned seed) : rng(seed) {}
  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  /// A view of `C` in [minC, maxC] channels upsampled by 1-3 along each
  /// axis to an output plane of `HW` elements.
  ResidualView upsampled(int64_t minC, int64_t maxC, int64_t &C, int64_t &HW) {
    C = pick(minC, maxC);
    const int64_t h = pick(1, 4), w = pick(1, 5);
    const int64_t fh = pick(1, 3), fw = pick(1, 3);
    HW = h * fh * w * fw;
    return upsample(C, h * fh, w * fw, fh, fw);
  }
};

} // namespace

TEST(ResidualView, OffsetOfAnUpsampledElement) {
  ResidualView v = upsample(2, 4, 6, 2, 2); // residual [2, 2, 3]
  // Output (c=1, y=3, x=5) reads residual (1, 1, 2) = 6 + 3 + 2.
  EXPECT_EQ(residualOffset(v, 1 * 24 + 3 * 6 + 5), 11);
  EXPECT_EQ(residualOffset(v, 0), 0);
  EXPECT_EQ(residualOffset(v, 7), 0); // (0, 1, 1) -> (0, 0, 0)
}

// The FPN's /neck/out2: a 160-wide map, 2x nearest. A tile of 64 channels x
// 448 pixels (rows 2 and 3 and 128 pixels of row 4) is two DMAs, each with
// the channel dimension outermost and the repeats as zero strides: row 2,
// then rows 3 and 4 (row 4's residual row follows row 3's in memory, so its
// columns continue row 3's).
TEST(ResidualView, PyramidTileIsTwoDmas) {
  ResidualView v = upsample(256, 160, 160, 2, 2);
  DramBox box = pixelRange(160 * 160, 64, 64, 2 * 160, 448);
  std::vector<TilePiece> pieces = viewTilePieces(box, 448, v);
  expectLoads(box, 448, v, pieces);
  ASSERT_EQ(pieces.size(), 2u);
  for (const TilePiece &p : pieces) {
    EXPECT_EQ(p.src.rank, 3);
    EXPECT_EQ(p.src.shape[0], 64);
    EXPECT_EQ(p.src.stride[0], 80 * 80);
    EXPECT_EQ(p.suStrides[0], 448);
    EXPECT_EQ(p.src.stride[2], 0);
  }
  EXPECT_EQ(pieces[0].src.shape[1], 80);
  EXPECT_EQ(pieces[1].src.shape[1], 80 + 64);
  EXPECT_EQ(pieces[0].src.base, kRes + uint64_t(64 * 6400 + 80) * 4);
  EXPECT_EQ(pieces[1].offset, 160);
}

TEST(ResidualView, UnalignedPixelRanges) {
  ResidualView v = upsample(6, 12, 10, 2, 2);
  for (int64_t p0 : {0, 1, 5, 9, 10, 11, 33})
    for (int64_t n : {1, 2, 3, 9, 10, 19, 21, 47}) {
      if (p0 + n > 120)
        continue;
      DramBox box = pixelRange(120, 1, 4, p0, n);
      SCOPED_TRACE("p0 " + std::to_string(p0) + " n " + std::to_string(n));
      expectLoads(box, n + 3, v, viewTilePieces(box, n + 3, v));
    }
}

// Pixel blocks (docs/mapping.md, "Pixel blocks of the bands"): rows x
// columns of the map per N tile.
TEST(ResidualView, PixelBlocks) {
  ResidualView v = upsample(8, 16, 24, 2, 2);
  for (int64_t y0 : {0, 1, 4})
    for (int64_t x0 : {0, 3, 8})
      for (int64_t ny : {1, 2, 5})
        for (int64_t nx : {2, 7, 16}) {
          DramBox box;
          box.base = kOut + uint64_t(2 * 384 + y0 * 24 + x0) * 4;
          box.dim(3, 384).dim(ny, 24).dim(nx, 1);
          box.rowDims = 1;
          std::vector<TilePiece> pieces = viewTilePieces(box, ny * nx, v);
          expectLoads(box, ny * nx, v, pieces);
          if (y0 % 2 == 0 && ny % 2 == 0 && x0 % 2 == 0 && nx % 2 == 0) {
            EXPECT_LE(pieces.size(), 2u) << y0 << " " << x0;
          }
        }
}

TEST(ResidualView, OtherFactorsAndPerChannelValues) {
  for (auto [fh, fw] : {std::pair<int64_t, int64_t>{3, 3}, {2, 1}, {1, 4}}) {
    ResidualView v = upsample(4, 12, 12, fh, fw);
    DramBox box = pixelRange(144, 0, 4, 7, 100);
    expectLoads(box, 100, v, viewTilePieces(box, 100, v));
  }
  // A [1, C, 1, 1] tensor broadcast over the map: one value per channel.
  ResidualView v;
  v.base = kRes;
  v.output = kOut;
  v.shape = {1, 5, 7, 7};
  v.strides = {0, 1, 0, 0};
  DramBox box = pixelRange(49, 1, 4, 3, 40);
  std::vector<TilePiece> pieces = viewTilePieces(box, 40, v);
  expectLoads(box, 40, v, pieces);
  EXPECT_EQ(pieces.size(), 1u);
}

// A tile whose rows are pixels and columns channels (the transposed GEMM
// layout), and a box whose innermost dimension is not contiguous.
TEST(ResidualView, StridedInnermostDimension) {
  ResidualView v = upsample(6, 8, 8, 2, 2);
  DramBox box;
  box.base = kOut + uint64_t(64 + 3) * 4;
  box.dim(20, 1).dim(5, 64); // 20 pixels x 5 channels
  box.rowDims = 1;
  expectLoads(box, 8, v, viewTilePieces(box, 8, v));
}

TEST(ResidualView, RandomViewsAndBoxes) {
  Draws draw(12);
  auto pick = [&](int64_t lo, int64_t hi) { return draw.pick(lo, hi); };
  for (int iter = 0; iter < 300; ++iter) {
    int64_t C, HW;
    ResidualView v = draw.upsampled(1, 5, C, HW);
    const int64_t total = C * HW;
    int64_t mc = pick(1, C), c0 = pick(0, C - mc);
    int64_t n = pick(1, HW), p0 = pick(0, HW - n);
    DramBox box = pixelRange(HW, c0, mc, p0, n);
    if (iter % 3 == 1) { // rank 1: one contiguous range of the whole output
      int64_t len = pick(1, total), start = pick(0, total - len);
      box = DramBox{};
      box.base = kOut + uint64_t(start) * 4;
      box.dim(len, 1);
      box.rowDims = 1;
    }
    int64_t rowStride = box.cols() + pick(0, 3);
    SCOPED_TRACE("iteration " + std::to_string(iter));
    std::vector<TilePiece> pieces = viewTilePieces(box, rowStride, v);
    expectLoads(box, rowStride, v, pieces);
    // The same loads staged (loadResidual's on-chip expansion): the same
    // tile, never more DRAM elements than it has.
    StagedResidual staged = expectStagedLoads(box, rowStride, v, pieces);
    EXPECT_LE(staged.stagingElems, box.rows() * box.cols());
  }
}

TEST(ResidualView, RandomBoxesSteppingOverTheView) {
  // Boxes whose innermost dimension steps over channels (a whole plane) or
  // over every other pixel: the walk crosses the view's dimensions with
  // carries, and must land on the same residual elements.
  Draws draw(31);
  auto pick = [&](int64_t lo, int64_t hi) { return draw.pick(lo, hi); };
  for (int iter = 0; iter < 300; ++iter) {
    int64_t C, HW;
    ResidualView v = draw.upsampled(2, 6, C, HW);
    DramBox box;
    if (iter % 2 == 0) { // pixels x channels, channels innermost
      int64_t mc = pick(2, C), c0 = pick(0, C - mc);
      int64_t n = pick(1, HW), p0 = pick(0, HW - n);
      box.base = kOut + uint64_t(c0 * HW + p0) * 4;
      box.dim(n, 1).dim(mc, HW);
    } else { // channels x every other pixel
      int64_t mc = pick(1, C), c0 = pick(0, C - mc);
      int64_t n = pick(1, (HW + 1) / 2), p0 = pick(0, HW - (2 * n - 1));
      box.base = kOut + uint64_t(c0 * HW + p0) * 4;
      box.dim(mc, HW).dim(n, 2);
    }
    box.rowDims = 1;
    const int64_t rowStride = box.cols() + pick(0, 3);
    SCOPED_TRACE("iteration " + std::to_string(iter));
    expectLoads(box, rowStride, v, viewTilePieces(box, rowStride, v));
  }
}

TEST(ResidualView, TileOutsideTheOutputIsAnError) {
  ResidualView v = upsample(2, 4, 4, 2, 2);
  DramBox box = pixelRange(16, 0, 1, 0, 4);
  box.base = kOut - 4;
  EXPECT_THROW(viewTilePieces(box, 4, v), std::logic_error);
  ResidualView bad = v;
  bad.strides.pop_back();
  EXPECT_THROW(viewTilePieces(pixelRange(16, 0, 1, 0, 4), 4, bad),
               std::logic_error);
}

// stageRepeatedReads (loadResidual's on-chip expansion): the FPN's tile of
// 64 channels x 448 pixels of a 2x nearest upsampling loads 64 x 224
// residual elements compact instead of 64 x 448 with zero strides, and the
// local copies rebuild the same tile.
TEST(ResidualView, StagedPyramidTileReadsEachElementOnce) {
  ResidualView v = upsample(256, 160, 160, 2, 2);
  DramBox box = pixelRange(160 * 160, 64, 64, 2 * 160, 448);
  StagedResidual staged =
      expectStagedLoads(box, 448, v, viewTilePieces(box, 448, v));
  EXPECT_TRUE(staged.direct.empty());
  ASSERT_EQ(staged.compact.size(), 2u);
  // Row 2 (80 residual elements) and rows 3-4 (80 + 64) per channel.
  EXPECT_EQ(staged.stagingElems, 64 * (80 + 80 + 64));
  for (const TilePiece &c : staged.compact)
    for (int d = 0; d < c.src.rank; ++d)
      EXPECT_NE(c.src.stride[d], 0) << "a compact load repeats";
  EXPECT_EQ(repeatFactor(v), 4);
}

// A view without repeats (a plain residual) stays direct.
TEST(ResidualView, StagingLeavesPiecesWithoutRepeats) {
  ResidualView v = upsample(3, 6, 6, 1, 1);
  EXPECT_EQ(repeatFactor(v), 1);
  DramBox box = pixelRange(36, 0, 3, 5, 20);
  StagedResidual staged =
      expectStagedLoads(box, 20, v, viewTilePieces(box, 20, v));
  EXPECT_TRUE(staged.compact.empty());
  EXPECT_EQ(staged.stagingElems, 0);
  EXPECT_FALSE(staged.direct.empty());
}
