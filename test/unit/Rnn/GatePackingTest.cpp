//===- GatePackingTest.cpp - Merged gate matrices and packed cell steps ---===//
#include "accel/Rnn/GatePacking.h"
#include "accel/Rnn/CellStep.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace accel;
using namespace accel::rnn;

namespace {

std::vector<float> randomVec(std::mt19937 &rng, size_t n) {
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(rng);
  return v;
}

/// y = M v for a row-major [rows, cols] M (the per-gate reference).
std::vector<float> matVec(const float *M, int64_t rows, int64_t cols,
                          const float *v) {
  std::vector<float> y(size_t(rows), 0.0f);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      y[r] += M[r * cols + c] * v[c];
  return y;
}

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

void expectPackedRows(Cell cell, int64_t H, int64_t lx) {
  std::mt19937 rng(7);
  const int64_t G = gateCount(cell);
  std::vector<float> W = randomVec(rng, G * H * lx),
                     R = randomVec(rng, G * H * H);
  std::vector<float> M = packMerged(cell, H, lx, W.data(), R.data());
  ASSERT_EQ(M.size(), size_t(G * H * (lx + H)));
  for (int64_t r = 0; r < G * H; ++r) {
    const int64_t src = (r % G) * H + r / G;
    for (int64_t c = 0; c < lx; ++c)
      ASSERT_EQ(M[r * (lx + H) + c], W[src * lx + c]) << r << "," << c;
    for (int64_t c = 0; c < H; ++c)
      ASSERT_EQ(M[r * (lx + H) + lx + c], R[src * H + c]) << r << "," << c;
  }
}

} // namespace

TEST(RnnGatePacking, GateCounts) {
  EXPECT_EQ(gateCount(Cell::Rnn), 1);
  EXPECT_EQ(gateCount(Cell::Gru), 3);
  EXPECT_EQ(gateCount(Cell::Lstm), 4);
}

TEST(RnnGatePacking, RowRHoldsGateRModGRowRDivG) {
  expectPackedRows(Cell::Lstm, 5, 3);
  expectPackedRows(Cell::Gru, 4, 6);
  expectPackedRows(Cell::Rnn, 3, 2);
}

// One merged product over [x | h] equals the four per-gate W x + R h.
TEST(RnnGatePacking, MergedProductEqualsPerGateProducts) {
  std::mt19937 rng(11);
  const int64_t H = 6, lx = 5, G = 4;
  std::vector<float> W = randomVec(rng, G * H * lx),
                     R = randomVec(rng, G * H * H);
  std::vector<float> x = randomVec(rng, lx), h = randomVec(rng, H);
  std::vector<float> M = packMerged(Cell::Lstm, H, lx, W.data(), R.data());
  std::vector<float> xh = x;
  xh.insert(xh.end(), h.begin(), h.end());
  std::vector<float> y = matVec(M.data(), G * H, lx + H, xh.data());
  for (int64_t g = 0; g < G; ++g) {
    std::vector<float> wx = matVec(&W[g * H * lx], H, lx, x.data());
    std::vector<float> rh = matVec(&R[g * H * H], H, H, h.data());
    for (int64_t j = 0; j < H; ++j)
      EXPECT_NEAR(y[j * G + g], wx[j] + rh[j], 1e-5) << "gate " << g;
  }
}

// An LSTM step on the merged matrix equals ONNX's per-gate formulas.
TEST(RnnGatePacking, LstmStepMatchesOnnx) {
  std::mt19937 rng(3);
  const int64_t H = 4, lx = 3;
  std::vector<float> W = randomVec(rng, 4 * H * lx),
                     R = randomVec(rng, 4 * H * H);
  std::vector<float> Wb = randomVec(rng, 4 * H), Rb = randomVec(rng, 4 * H);
  std::vector<float> x = randomVec(rng, lx), h = randomVec(rng, H);
  std::vector<float> c = randomVec(rng, H), cRef = c;
  std::vector<float> M = packMerged(Cell::Lstm, H, lx, W.data(), R.data());
  std::vector<float> got =
      lstmStepMerged(M, H, lx, x.data(), h.data(), c, Wb.data(), Rb.data());
  auto pre = [&](int64_t g) {
    std::vector<float> a = matVec(&W[g * H * lx], H, lx, x.data());
    std::vector<float> b = matVec(&R[g * H * H], H, H, h.data());
    for (int64_t j = 0; j < H; ++j)
      a[j] += b[j] + Wb[g * H + j] + Rb[g * H + j];
    return a;
  };
  std::vector<float> i = pre(0), o = pre(1), f = pre(2), g = pre(3);
  for (int64_t j = 0; j < H; ++j) {
    cRef[j] = sigmoid(f[j]) * cRef[j] + sigmoid(i[j]) * std::tanh(g[j]);
    EXPECT_NEAR(c[j], cRef[j], 1e-5);
    EXPECT_NEAR(got[j], sigmoid(o[j]) * std::tanh(cRef[j]), 1e-5);
  }
}

TEST(RnnGatePacking, GruPhasesLayout) {
  std::mt19937 rng(5);
  const int64_t H = 3, lx = 2;
  std::vector<float> W = randomVec(rng, 3 * H * lx),
                     R = randomVec(rng, 3 * H * H);
  GruPhases p = packGru(H, lx, W.data(), R.data());
  ASSERT_EQ(p.zr.size(), size_t(2 * H * (lx + H)));
  ASSERT_EQ(p.candidate.size(), size_t(H * (lx + H)));
  for (int64_t r = 0; r < 2 * H; ++r) // z, r interleaved
    EXPECT_EQ(p.zr[r * (lx + H)], W[((r % 2) * H + r / 2) * lx]);
  for (int64_t j = 0; j < H; ++j) { // [W_h | R_h] in hidden order
    EXPECT_EQ(p.candidate[j * (lx + H)], W[(2 * H + j) * lx]);
    EXPECT_EQ(p.candidate[j * (lx + H) + lx], R[(2 * H + j) * H]);
  }
}

// A GRU step from the two phases equals ONNX's formulas, for both
// linear_before_reset semantics.
TEST(RnnGatePacking, GruStepMatchesOnnxBothResetModes) {
  std::mt19937 rng(9);
  const int64_t H = 5, lx = 4;
  std::vector<float> W = randomVec(rng, 3 * H * lx),
                     R = randomVec(rng, 3 * H * H);
  std::vector<float> Wb = randomVec(rng, 3 * H), Rb = randomVec(rng, 3 * H);
  std::vector<float> x = randomVec(rng, lx), h = randomVec(rng, H);
  GruPhases p = packGru(H, lx, W.data(), R.data());
  auto wx = [&](int64_t g) { return matVec(&W[g * H * lx], H, lx, x.data()); };
  auto rv = [&](int64_t g, const std::vector<float> &v) {
    return matVec(&R[g * H * H], H, H, v.data());
  };
  std::vector<float> z(H), r(H);
  std::vector<float> wz = wx(0), rz = rv(0, h), wr = wx(1), rr = rv(1, h);
  for (int64_t j = 0; j < H; ++j) {
    z[j] = sigmoid(wz[j] + rz[j] + Wb[j] + Rb[j]);
    r[j] = sigmoid(wr[j] + rr[j] + Wb[H + j] + Rb[H + j]);
  }
  std::vector<float> rh(H);
  for (int64_t j = 0; j < H; ++j)
    rh[j] = r[j] * h[j];
  std::vector<float> wh = wx(2), rOfRh = rv(2, rh), rOfH = rv(2, h);
  for (bool lbr : {false, true}) {
    std::vector<float> got =
        gruStepPhases(p, H, lx, x.data(), h.data(), Wb.data(), Rb.data(), lbr);
    for (int64_t j = 0; j < H; ++j) {
      // ONNX: lbr 0: ht = g(Xt Wh + (rt . Ht-1) Rh + Rbh + Wbh);
      //       lbr 1: ht = g(Xt Wh + (rt . (Ht-1 Rh + Rbh)) + Wbh).
      float pre = lbr ? wh[j] + r[j] * (rOfH[j] + Rb[2 * H + j]) + Wb[2 * H + j]
                      : wh[j] + rOfRh[j] + Rb[2 * H + j] + Wb[2 * H + j];
      float want = (1 - z[j]) * std::tanh(pre) + z[j] * h[j];
      EXPECT_NEAR(got[j], want, 1e-5) << "lbr " << lbr << " j " << j;
    }
  }
  // The two semantics really differ on these numbers.
  std::vector<float> a =
      gruStepPhases(p, H, lx, x.data(), h.data(), Wb.data(), Rb.data(), false);
  std::vector<float> b =
      gruStepPhases(p, H, lx, x.data(), h.data(), Wb.data(), Rb.data(), true);
  EXPECT_NE(a, b);
}
