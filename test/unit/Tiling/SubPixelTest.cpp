//===- SubPixelTest.cpp - Phase convolutions of a nearest upsampling
//-------===//

#include "accel/Tiling/SubPixel.h"
#include "TilingTestUtil.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace accel::tiling;
using accel::tiling::test::randomData;

namespace {

/// Reference: conv(nearest_up(y)) with stride 1, zero pads, C x H x W input,
/// weights [O, C, KH, KW]; the result is [O, s H, s W].
std::vector<double> convOfUpsampled(const std::vector<float> &y, int64_t C,
                                    int64_t H, int64_t W,
                                    const std::vector<float> &w, int64_t O,
                                    int64_t KH, int64_t KW, int64_t pt,
                                    int64_t pl, int64_t s) {
  const int64_t OH = s * H, OW = s * W;
  std::vector<double> out(size_t(O * OH * OW), 0.0);
  for (int64_t o = 0; o < O; ++o)
    for (int64_t i = 0; i < OH; ++i)
      for (int64_t j = 0; j < OW; ++j) {
        double acc = 0;
        for (int64_t c = 0; c < C; ++c)
          for (int64_t u = 0; u < KH; ++u)
            for (int64_t v = 0; v < KW; ++v) {
              const int64_t r = i - pt + u, q = j - pl + v;
              if (r < 0 || r >= OH || q < 0 || q >= OW)
                continue;
              acc += double(w[size_t(((o * C + c) * KH + u) * KW + v)]) *
                     double(y[size_t((c * H + r / s) * W + q / s)]);
            }
        out[size_t((o * OH + i) * OW + j)] = acc;
      }
  return out;
}

/// The same through the phases: one convolution of y with the phase
/// kernels and pads, each phase's window of rows / columns interleaved.
std::vector<double> viaPhases(const std::vector<float> &y, int64_t C, int64_t H,
                              int64_t W, const std::vector<float> &w, int64_t O,
                              int64_t KH, int64_t KW, const SubPixelAxis &rows,
                              const SubPixelAxis &cols) {
  const std::vector<float> k = subPixelKernels(w, O, C, KH, KW, rows, cols);
  const int64_t s = rows.factor, R = rows.window, S = cols.window;
  const int64_t PH = rows.phaseOutSize(H), PW = cols.phaseOutSize(W);
  std::vector<double> out(size_t(O * s * H * s * W), 0.0);
  for (int64_t a = 0; a < s; ++a)
    for (int64_t b = 0; b < s; ++b)
      for (int64_t o = 0; o < O; ++o)
        for (int64_t q = 0; q < H; ++q)
          for (int64_t p = 0; p < W; ++p) {
            // Phase-conv output (row, col) = (q + offset[a], p + offset[b]).
            const int64_t pr = q + rows.offset[a], pc = p + cols.offset[b];
            if (pr >= PH || pc >= PW) {
              ADD_FAILURE() << "phase window past the phase convolution";
              return {};
            }
            double acc = 0;
            for (int64_t c = 0; c < C; ++c)
              for (int64_t r = 0; r < R; ++r)
                for (int64_t t = 0; t < S; ++t) {
                  const int64_t yr = pr - rows.padBefore + r,
                                yc = pc - cols.padBefore + t;
                  if (yr < 0 || yr >= H || yc < 0 || yc >= W)
                    continue;
                  const int64_t ko = (a * s + b) * O + o;
                  acc += double(k[size_t(((ko * C + c) * R + r) * S + t)]) *
                         double(y[size_t((c * H + yr) * W + yc)]);
                }
            out[size_t((o * s * H + s * q + a) * s * W + s * p + b)] = acc;
          }
  return out;
}

} // namespace

// The FPN case worked out by hand (docs/passes.md, fold-upsampled-merge):
// a 3-tap kernel with pads 1 over a 2x upsampling. Even outputs read input
// rows q - 1 (tap 0) and q (taps 1 + 2); odd outputs rows q (taps 0 + 1)
// and q + 1 (tap 2): a 2-tap window with pads 1 / 1, the odd phase one row
// further down.
TEST(SubPixel, ThreeTapsOverTwiceUpsampledTakeTwoTapWindows) {
  SubPixelAxis ax;
  ASSERT_TRUE(planSubPixelAxis(3, 1, 1, 2, ax));
  EXPECT_EQ(ax.window, 2);
  EXPECT_EQ(ax.padBefore, 1);
  EXPECT_EQ(ax.padAfter, 1);
  EXPECT_EQ(ax.offset, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(ax.tapPos[0], (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(ax.tapPos[1], (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(ax.phaseOutSize(80), 81);

  // One input and output channel, w = 1..9: phase (0, 0) = [[1, 2+3],
  // [4+7, 5+6+8+9]], phase (1, 1) = [[1+2+4+5, 3+6], [7+8, 9]].
  std::vector<float> w = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  std::vector<float> k = subPixelKernels(w, 1, 1, 3, 3, ax, ax);
  ASSERT_EQ(k.size(), 16u);
  EXPECT_EQ(std::vector<float>(k.begin(), k.begin() + 4),
            (std::vector<float>{1, 5, 11, 28}));
  EXPECT_EQ(std::vector<float>(k.begin() + 12, k.end()),
            (std::vector<float>{12, 9, 15, 9}));
}

TEST(SubPixel, PhasesEqualTheConvolutionOfTheUpsampledMap) {
  struct Case {
    int64_t k, pb, pa, s;
  };
  for (Case c : {Case{3, 1, 1, 2}, Case{1, 0, 0, 2}, Case{5, 2, 2, 2},
                 Case{3, 1, 1, 3}, Case{2, 0, 1, 2}, Case{4, 2, 1, 2},
                 Case{3, 0, 2, 2}, Case{7, 3, 3, 4}}) {
    SCOPED_TRACE("k " + std::to_string(c.k) + " pads " + std::to_string(c.pb) +
                 "/" + std::to_string(c.pa) + " s " + std::to_string(c.s));
    SubPixelAxis ax;
    ASSERT_TRUE(planSubPixelAxis(c.k, c.pb, c.pa, c.s, ax));
    const int64_t C = 3, O = 2, H = 5, W = 4;
    std::vector<float> y = randomData(size_t(C * H * W), 1);
    std::vector<float> w = randomData(size_t(O * C * c.k * c.k), 2);
    std::vector<double> ref =
        convOfUpsampled(y, C, H, W, w, O, c.k, c.k, c.pb, c.pb, c.s);
    std::vector<double> got = viaPhases(y, C, H, W, w, O, c.k, c.k, ax, ax);
    ASSERT_EQ(ref.size(), got.size());
    for (size_t i = 0; i < ref.size(); ++i)
      ASSERT_NEAR(ref[i], got[i], 1e-5) << "element " << i;
  }
}

TEST(SubPixel, RejectsConvolutionsThatChangeTheSize) {
  SubPixelAxis ax;
  EXPECT_FALSE(planSubPixelAxis(3, 0, 0, 2, ax)); // valid conv shrinks
  EXPECT_FALSE(planSubPixelAxis(3, 2, 2, 2, ax)); // grows
  EXPECT_FALSE(planSubPixelAxis(3, 1, 1, 0, ax));
  EXPECT_FALSE(planSubPixelAxis(0, 0, -1, 2, ax));
}

TEST(SubPixel, ComposedWeightsEqualTheTwoConvolutions) {
  const int64_t O = 3, M = 4, C = 2, K = 3;
  std::vector<float> wb = randomData(size_t(O * M * K * K), 3);
  std::vector<float> wa = randomData(size_t(M * C), 4);
  std::vector<float> wc = composeAfterPointwise(wb, wa, O, M, C, K, K);
  for (int64_t o = 0; o < O; ++o)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t t = 0; t < K * K; ++t) {
        double ref = 0;
        for (int64_t m = 0; m < M; ++m)
          ref += double(wb[size_t((o * M + m) * K * K + t)]) *
                 double(wa[size_t(m * C + c)]);
        EXPECT_NEAR(wc[size_t((o * C + c) * K * K + t)], ref, 1e-6);
      }
}
