//===- DmaFastPathTest.cpp - DMA rows between host pointers ---------------===//
//
// Simulator speed: a DMA row whose sides each lie in one place (storage, or
// one 64 KiB DRAM page) is copied between host pointers (PagedMemory spans,
// copyStridedRow); rows that straddle a page keep the element-wise copy.
// Both must give the element-wise result, including overlap, negative and
// zero steps, and untouched DRAM reading as zeros. Whole pages of constants
// are shared with the program until written (copy on write).
//
//===----------------------------------------------------------------------===//
#include "../../../lib/Sim/PagedMemory.h"
#include "../../../lib/Sim/RowCopy.h"
#include "../../../lib/Sim/StridedCopy.h"
#include "../../../lib/Sim/Transpose.h"
#include "SimTestUtil.h"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <random>
#include <sys/mman.h>
#include <unistd.h>

using namespace accel;
using namespace accel::test;

namespace {
constexpr uint64_t kPage = sim::PagedMemory::kPageBytes;

/// `t` is the R x C matrix `m` transposed (C x R).
void expectTransposed(const std::vector<float> &t, const std::vector<float> &m,
                      uint32_t R, uint32_t C) {
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t j = 0; j < C; ++j)
      ASSERT_EQ(t[j * R + r], m[r * C + j]) << r << "," << j;
}
} // namespace

TEST(PagedMemorySpans, InsideOnePageOnly) {
  sim::PagedMemory m;
  m.reset(4 * kPage);
  // Untouched: a span of zeros, nothing allocated.
  const uint8_t *z = m.readSpan(kPage + 10, 100);
  ASSERT_NE(z, nullptr);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(z[i], 0);
  EXPECT_EQ(m.pagesTouched(), 0u);
  // Crossing a page boundary, or empty: no span.
  EXPECT_EQ(m.readSpan(kPage - 4, 8), nullptr);
  EXPECT_EQ(m.writeSpan(2 * kPage - 1, 2), nullptr);
  EXPECT_EQ(m.readSpan(0, 0), nullptr);
  EXPECT_EQ(m.pagesTouched(), 0u);
  // A write span allocates its page; the bytes are read back by read().
  uint8_t *w = m.writeSpan(2 * kPage + 6, 3);
  ASSERT_NE(w, nullptr);
  w[0] = 7;
  w[2] = 9;
  EXPECT_EQ(m.pagesTouched(), 1u);
  uint8_t back[5] = {1, 1, 1, 1, 1};
  m.read(2 * kPage + 5, back, 5);
  EXPECT_EQ(back[0], 0);
  EXPECT_EQ(back[1], 7);
  EXPECT_EQ(back[2], 0);
  EXPECT_EQ(back[3], 9);
  EXPECT_EQ(back[4], 0);
  EXPECT_EQ(m.readSpan(2 * kPage + 6, 1)[0], 7);
}

TEST(PagedMemorySpans, SharedPagesAreCopiedOnWrite) {
  // 2.5 pages of source bytes from 100 bytes before a page boundary: the
  // partial pages at both ends get copies, the two whole pages in between
  // read the source in place until written; the source never changes.
  std::vector<uint8_t> src(2 * kPage + kPage / 2);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = uint8_t(i * 7 + 1);
  const std::vector<uint8_t> orig = src;
  sim::PagedMemory m;
  m.reset(8 * kPage);
  const uint64_t at = kPage - 100;
  m.writeShared(at, src.data(), src.size());
  EXPECT_EQ(m.pagesTouched(), 4u);
  EXPECT_EQ(m.readSpan(kPage, 4), src.data() + 100); // in place
  std::vector<uint8_t> back(src.size());
  m.read(at, back.data(), back.size());
  EXPECT_EQ(back, src);
  // A write into a shared page: that page gets its own copy first.
  const uint8_t v[3] = {0xAA, 0xBB, 0xCC};
  m.write(kPage + 10, v, 3);
  uint8_t *w = m.writeSpan(2 * kPage + 5, 1);
  ASSERT_NE(w, nullptr);
  *w = 0xDD;
  EXPECT_EQ(src, orig);
  m.read(at, back.data(), back.size());
  std::vector<uint8_t> want = orig;
  want[100 + 10] = 0xAA;
  want[100 + 11] = 0xBB;
  want[100 + 12] = 0xCC;
  want[100 + kPage + 5] = 0xDD;
  EXPECT_EQ(back, want);
  EXPECT_NE(m.readSpan(kPage, 4), src.data() + 100); // its own copy now
  // Sharing again over written pages replaces them whole.
  m.writeShared(kPage, orig.data() + 100, kPage);
  m.read(kPage, back.data(), kPage);
  EXPECT_TRUE(
      std::equal(back.begin(), back.begin() + kPage, orig.begin() + 100));
}

TEST(StridedCopy, MatchesElementwiseMemmove) {
  // Every element size, positive / negative / zero steps, source and
  // destination in the same buffer (overlapping rows copy in element order).
  std::mt19937 rng(9);
  for (uint64_t eb : {1, 2, 3, 4, 8})
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<uint8_t> buf(1024);
      for (uint8_t &b : buf)
        b = uint8_t(rng());
      std::vector<uint8_t> ref = buf;
      const uint64_t n = 1 + rng() % 12;
      const int64_t ss = (int64_t(rng() % 7) - 3) * int64_t(eb);
      const int64_t ds = (int64_t(rng() % 7) - 3) * int64_t(eb) +
                         (trial % 5 == 0 ? 1 : 0); // misaligned steps too
      const int64_t so = 400 + int64_t(rng() % 40);
      const int64_t dof = 400 + int64_t(rng() % 40);
      for (uint64_t i = 0; i < n; ++i)
        std::memmove(ref.data() + dof + int64_t(i) * ds,
                     ref.data() + so + int64_t(i) * ss, eb);
      sim::copyStridedRow(buf.data() + dof, ds, buf.data() + so, ss, n, eb);
      ASSERT_EQ(buf, ref) << "eb " << eb << " n " << n << " steps " << ss
                          << ", " << ds;
    }
}

TEST(StridedCopy, EverySecondFloatWithoutReadingPastTheRow) {
  // The stride-2 gather (copyEverySecondWord, a permute per 16 words): every
  // length across the 16-word blocks and their tails, the source's last
  // element the last float before an inaccessible page (no read past the
  // row), and source / destination overlapping in the same buffer (the
  // element-wise copy then, in its order).
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  uint8_t *map =
      static_cast<uint8_t *>(mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE,
                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(map, MAP_FAILED);
  ASSERT_EQ(mprotect(map + page, page, PROT_NONE), 0);
  std::mt19937 rng(4);
  for (uint64_t n = 1; n <= 70; ++n) {
    float *src = reinterpret_cast<float *>(map + page) - (2 * (n - 1) + 1);
    for (uint64_t k = 0; k < 2 * (n - 1) + 1; ++k)
      src[k] = float(rng() % 1000) - 500.0f;
    std::vector<float> got(n + 2, -1.0f), want(n + 2, -1.0f);
    for (uint64_t i = 0; i < n; ++i)
      want[1 + i] = src[2 * i];
    sim::copyStridedRow(reinterpret_cast<uint8_t *>(got.data() + 1), 4,
                        reinterpret_cast<const uint8_t *>(src), 8, n, 4);
    ASSERT_EQ(got, want) << "n " << n;
  }
  munmap(map, 2 * page);
  for (int64_t shift : {-8, -4, 0, 4, 8, 40}) {
    std::vector<float> buf(200), ref;
    for (size_t k = 0; k < buf.size(); ++k)
      buf[k] = float(k);
    ref = buf;
    uint8_t *b = reinterpret_cast<uint8_t *>(buf.data());
    uint8_t *r = reinterpret_cast<uint8_t *>(ref.data());
    for (uint64_t i = 0; i < 40; ++i)
      std::memmove(r + 200 + shift + 4 * int64_t(i), r + 200 + 8 * int64_t(i),
                   4);
    sim::copyStridedRow(b + 200 + shift, 4, b + 200, 8, 40, 4);
    ASSERT_EQ(buf, ref) << "overlap shift " << shift;
  }
}

TEST(RowCopy, MatchesAMemmovePerRow) {
  // Rows of 1 to 200 bytes (the vector path takes up to 128, in one or two
  // masked vectors), steps of either sign, rows that overlap their own
  // source and rows that overwrite later rows' sources: the rows must come
  // out as the loop of memmoves gives them, in order.
  std::mt19937 rng(21);
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> buf(8192);
    for (uint8_t &b : buf)
      b = uint8_t(rng());
    std::vector<uint8_t> ref = buf;
    const size_t rowBytes = 1 + rng() % (trial % 3 == 0 ? 200 : 130);
    uint64_t shape[3];
    int64_t ss[3], ds[3];
    for (int k = 0; k < 3; ++k) {
      shape[k] = 1 + rng() % 4;
      ss[k] = int64_t(rng() % 301) - 150;
      ds[k] = int64_t(rng() % 301) - 150;
    }
    const int64_t so = 3000 + int64_t(rng() % 2000);
    const int64_t dof = 3000 + int64_t(rng() % 2000);
    sim::copyRowsReference(ref.data() + dof, ds, ref.data() + so, ss, shape,
                           rowBytes);
    sim::copyRows(buf.data() + dof, ds, buf.data() + so, ss, shape, rowBytes);
    ASSERT_EQ(buf, ref) << "trial " << trial << " row " << rowBytes;
  }
}

TEST(RowCopy, DefinitionIsAMemmovePerRowInOrder) {
  // Two rows of 8 bytes, the second reading what the first wrote.
  std::vector<uint8_t> buf(32);
  for (size_t i = 0; i < buf.size(); ++i)
    buf[i] = uint8_t(i);
  const uint64_t shape[3] = {1, 1, 2};
  const int64_t ss[3] = {0, 0, 8}, ds[3] = {0, 0, 8};
  sim::copyRows(buf.data() + 4, ds, buf.data(), ss, shape, 8);
  // Row 0: bytes 0..7 -> 4..11; row 1 then reads 8..15 (8..11 rewritten).
  std::vector<uint8_t> want{0, 1, 2, 3, 0,  1,  2,  3,  4,  5,  6,  7,
                            4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23};
  want.resize(32);
  for (size_t i = 24; i < 32; ++i)
    want[i] = uint8_t(i);
  EXPECT_EQ(buf, want);
}

TEST(StridedCopy, DmaRowsInAndAcrossDramPages) {
  // A 20 x 16 matrix placed so that one source row straddles the first page
  // boundary, transposed DRAM -> DRAM to where all but two destination rows
  // straddle the third: fast rows and element-wise rows in one DMA. Then a
  // strided load from untouched DRAM (zeros) over a stored tile.
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 5 * kPage);
  const uint32_t R = 20, C = 16;
  const uint64_t mA = kPage - 200, tA = 3 * kPage - 1210, zA = 2 * kPage + 64;
  p.symbols = {sym("m", true, {R, C}, mA), sym("mt", false, {C, R}, tA),
               sym("z", false, {4, 6}, zA)};
  auto &c = p.clusters[0].commands;
  c.push_back(dma(DmaDir::DramCopy, 0, mA, tA, {1, 1, R, C}, {0, 0, C, 1},
                  {0, 0, 1, R}));
  // z: 4 x 6 of ones from storage, then a 4 x 3 strided load of untouched
  // DRAM (zeros, a page nothing touches) over every other column, stored
  // back.
  c.push_back(dma2d(DmaDir::Load, 1, 3 * kPage + 4096, 0, 4, 6, 6, 6));
  c.push_back(waitCmd(0b11));
  c.push_back(dma(DmaDir::Load, 2, 4 * kPage + 512, 0, {1, 1, 4, 3},
                  {0, 0, 3, 1}, {0, 0, 6, 2}));
  c.push_back(waitCmd(0b100));
  c.push_back(dma2d(DmaDir::Store, 3, 0, zA, 4, 6, 6, 6));
  c.push_back(waitCmd(0b1000));
  ConstSegment ones{3 * kPage + 4096, bytesOf(std::vector<float>(24, 1.0f))};
  p.constants = {ones};
  std::map<std::string, Tensor> in{{"m", tensor({R, C}, 21)}}, out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  const auto &m = in["m"].data;
  expectTransposed(out["mt"].data, m, R, C);
  for (int r = 0; r < 4; ++r)
    for (int j = 0; j < 6; ++j)
      EXPECT_EQ(out["z"].data[r * 6 + j], j % 2 ? 1.0f : 0.0f) << r << "," << j;
}

TEST(Transpose, EightRowsMatchTheElementLoop) {
  // 0 to 40 columns (whole 8 x 8 blocks and the rest), destination steps
  // of either sign and any byte alignment, bit patterns that are NaNs with
  // payloads: the bits arrive as the element loop moves them.
  std::mt19937 rng(5);
  for (int trial = 0; trial < 2000; ++trial) {
    const uint64_t cols = rng() % 41;
    std::vector<uint8_t> src(8 * 41 * 4 + 64);
    for (uint8_t &b : src)
      b = uint8_t(rng());
    const uint8_t *rows[8];
    for (int k = 0; k < 8; ++k)
      rows[k] = src.data() + 1 + size_t(rng() % (src.size() - 41 * 4 - 1));
    const int64_t step = (32 + int64_t(rng() % 64)) * (trial % 2 ? 1 : -1);
    std::vector<uint8_t> got(size_t(41 * 96 + 64), 0xA5), want = got;
    const int64_t at = step < 0 ? int64_t(got.size()) - 40 : 3;
    sim::transpose8Rows(got.data() + at, step, rows, cols);
    sim::transpose8RowsReference(want.data() + at, step, rows, cols);
    ASSERT_EQ(got, want) << "trial " << trial << " cols " << cols;
  }
}

TEST(StridedCopy, TransposingLoadsEightRowsAtATime) {
  // A 19 x 20 DRAM matrix loaded transposed into storage (two blocks of
  // eight source rows and three rows alone; one source row straddles a
  // page boundary, so its block goes row by row), then a storage ->
  // storage transposing copy back: both equal the element-wise result.
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 5 * kPage);
  const uint32_t R = 19, C = 20;
  const uint64_t mA = kPage - 10 * C * 4 - 8; // row 10 straddles
  const uint64_t tA = 2 * kPage, bA = 3 * kPage;
  p.symbols = {sym("m", true, {R, C}, mA), sym("mt", false, {C, R}, tA),
               sym("back", false, {R, C}, bA)};
  auto &c = p.clusters[0].commands;
  // mt[j][r] = m[r][j]: source rows of C floats, destination columns.
  c.push_back(
      dma(DmaDir::Load, 0, mA, 0, {1, 1, R, C}, {0, 0, C, 1}, {0, 0, 1, R}));
  c.push_back(waitCmd(0b1));
  c.push_back(dma(DmaDir::LocalCopy, 1, 0, 4096, {1, 1, C, R}, {0, 0, R, 1},
                  {0, 0, 1, C}));
  c.push_back(waitCmd(0b10));
  c.push_back(dma2d(DmaDir::Store, 2, 0, tA, C, R, R, R));
  c.push_back(dma2d(DmaDir::Store, 3, 4096, bA, R, C, C, C));
  c.push_back(waitCmd(0b1100));
  std::map<std::string, Tensor> in{{"m", tensor({R, C}, 8)}}, out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  const auto &m = in["m"].data;
  expectTransposed(out["mt"].data, m, R, C);
  EXPECT_EQ(out["back"].data, m);
}

TEST(StridedCopy, ContiguousLoadsAndStoresInOrAcrossPages) {
  // Contiguous rows between storage and DRAM: a box whose DRAM side lies in
  // one 64 KiB page is copied between host pointers in one loop nest, one
  // that straddles a page row by row. Both ways, loads and stores, with
  // rows of 80 and 320 bytes (the vector rows and memmove).
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 5 * kPage);
  const uint32_t R = 8, C = 20, W = 80;
  // a straddles the first page boundary, b lies inside page 2; c inside
  // page 3, d straddles the fourth boundary.
  const uint64_t aA = kPage - 200, bA = 2 * kPage + 128, cA = 3 * kPage + 64,
                 dA = 4 * kPage - 100 * 4;
  p.symbols = {sym("a", true, {R, C}, aA), sym("b", false, {R, C}, bA),
               sym("c", true, {2, W}, cA), sym("d", false, {2, W}, dA)};
  auto &k = p.clusters[0].commands;
  k.push_back(dma2d(DmaDir::Load, 0, aA, 0, R, C, C, C));    // across
  k.push_back(dma2d(DmaDir::Load, 1, cA, 1024, 2, W, W, W)); // in a page
  k.push_back(waitCmd(0b11));
  k.push_back(dma2d(DmaDir::Store, 2, 0, bA, R, C, C, C));    // in a page
  k.push_back(dma2d(DmaDir::Store, 3, 1024, dA, 2, W, W, W)); // across
  k.push_back(waitCmd(0b1100));
  std::map<std::string, Tensor> in{{"a", tensor({R, C}, 3)},
                                   {"c", tensor({2, W}, 4)}},
      out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  EXPECT_EQ(out["b"].data, in["a"].data);
  EXPECT_EQ(out["d"].data, in["c"].data);
}

TEST(StridedCopy, DistinctElementsNeedsNestedSteps) {
  const uint32_t s1[4] = {1, 2, 3, 4};
  const int64_t dense[4] = {0, 12, 4, 1}, transposed[4] = {0, 12, 1, 3},
                negative[4] = {0, -12, 4, -1}, broadcast[4] = {0, 12, 0, 1},
                overlap[4] = {0, 12, 2, 1}, gap[4] = {0, 100, 5, 1};
  EXPECT_TRUE(sim::distinctElements(s1, dense));
  EXPECT_TRUE(sim::distinctElements(s1, transposed));
  EXPECT_TRUE(sim::distinctElements(s1, negative));
  EXPECT_TRUE(sim::distinctElements(s1, gap));
  EXPECT_FALSE(sim::distinctElements(s1, broadcast)); // stride 0, shape 3
  EXPECT_FALSE(sim::distinctElements(s1, overlap));   // 2 <= extent 3
  // A dimension of extent 1 never collides, whatever its stride.
  const uint32_t s2[4] = {1, 1, 5, 4};
  const int64_t zeroOuter[4] = {0, 0, 4, 1};
  EXPECT_TRUE(sim::distinctElements(s2, zeroOuter));
}

TEST(StridedCopy, RowFollowsTheSourceOnlyWhenElementsAreLinesApart) {
  // Source inner step 9 floats (36 B): rows stay (adjacent elements share
  // cache lines). Step 49 floats: the dimension with source step 1 becomes
  // the row, its strides move with it.
  sim::BoxLoops near{{1, 64, 21, 3}, {0, 147, 1, 9}, {0, 63, 3, 1}};
  EXPECT_FALSE(sim::rowAlongSource(near, 4));
  sim::BoxLoops far{{1, 64, 21, 3}, {0, 147, 1, 49}, {0, 63, 3, 1}};
  ASSERT_TRUE(sim::rowAlongSource(far, 4));
  EXPECT_EQ(far.shape[3], 21u);
  EXPECT_EQ(far.src[3], 1);
  EXPECT_EQ(far.dst[3], 3);
  EXPECT_EQ(far.shape[2], 3u);
  EXPECT_EQ(far.src[2], 49);
  EXPECT_EQ(far.dst[2], 1);
}

TEST(StridedCopy, ReorderedLoadAndOrderedBroadcastMatchTheDefinition) {
  // m (12 x 20) loaded transposed into storage reading the source column by
  // column (source step 20 floats = 80 B: the copy reads it row by row
  // instead), stored back densely. Then a destination with step 0 (every
  // element of a row to one place): not distinct, copied in order, so the
  // last element of each row wins.
  HardwareDesc hw = tinyHardware();
  Program p = makeProgram(hw, 8192);
  const uint32_t R = 12, C = 20;
  p.symbols = {sym("m", true, {R, C}, 0), sym("mt", false, {C, R}, 2048),
               sym("last", false, {R}, 4096)};
  auto &c = p.clusters[0].commands;
  c.push_back(
      dma(DmaDir::Load, 0, 0, 0, {1, 1, C, R}, {0, 0, 1, C}, {0, 0, R, 1}));
  c.push_back(
      dma(DmaDir::Load, 1, 0, 4096, {1, 1, R, C}, {0, 0, C, 1}, {0, 0, 1, 0}));
  c.push_back(waitCmd(0b11));
  c.push_back(dma2d(DmaDir::Store, 2, 0, 2048, C, R, R, R));
  c.push_back(dma2d(DmaDir::Store, 2, 4096, 4096, 1, R, 0, 0));
  c.push_back(waitCmd(0b100));
  std::map<std::string, Tensor> in{{"m", tensor({R, C}, 5)}}, out;
  SimStats st;
  ASSERT_EQ(run(p, hw, in, out, st), "");
  const auto &m = in["m"].data;
  for (uint32_t r = 0; r < R; ++r) {
    for (uint32_t j = 0; j < C; ++j)
      ASSERT_EQ(out["mt"].data[j * R + r], m[r * C + j]) << r << "," << j;
    EXPECT_EQ(out["last"].data[r], m[r * C + C - 1]) << r;
  }
}
