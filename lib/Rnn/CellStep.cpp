//===- CellStep.cpp - One RNN time step on the packed matrices ------------===//
#include "accel/Rnn/CellStep.h"

#include <cmath>

using namespace accel;
using namespace accel::rnn;

namespace {

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

std::vector<float> concat(const float *a, int64_t na, const float *b,
                          int64_t nb) {
  std::vector<float> v(a, a + na);
  v.insert(v.end(), b, b + nb);
  return v;
}

} // namespace

std::vector<float> rnn::lstmStepMerged(const std::vector<float> &merged,
                                       int64_t H, int64_t lx, const float *x,
                                       const float *h, std::vector<float> &c,
                                       const float *Wb, const float *Rb) {
  const int64_t cols = lx + H;
  std::vector<float> xh = concat(x, lx, h, H), y(static_cast<size_t>(4 * H));
  matVecColumns(merged.data(), 4 * H, cols, 0, cols, xh.data(), y.data());
  // Packed row 4j + g is gate g (ONNX i, o, f, c) of hidden unit j.
  auto gate = [&](int64_t g, int64_t j) {
    return y[4 * j + g] + Wb[g * H + j] + Rb[g * H + j];
  };
  std::vector<float> out(static_cast<size_t>(H));
  for (int64_t j = 0; j < H; ++j) {
    float i = sigmoid(gate(0, j)), o = sigmoid(gate(1, j));
    float f = sigmoid(gate(2, j)), g = std::tanh(gate(3, j));
    c[j] = f * c[j] + i * g;
    out[j] = o * std::tanh(c[j]);
  }
  return out;
}

std::vector<float> rnn::gruStepPhases(const GruPhases &p, int64_t H, int64_t lx,
                                      const float *x, const float *h,
                                      const float *Wb, const float *Rb,
                                      bool linearBeforeReset) {
  const int64_t cols = lx + H;
  // Phase 1: z and r from one merged product over [x | h].
  std::vector<float> xh = concat(x, lx, h, H), y(static_cast<size_t>(2 * H));
  matVecColumns(p.zr.data(), 2 * H, cols, 0, cols, xh.data(), y.data());
  std::vector<float> z(static_cast<size_t>(H)), r(static_cast<size_t>(H));
  for (int64_t j = 0; j < H; ++j) {
    z[j] = sigmoid(y[2 * j] + Wb[j] + Rb[j]);
    r[j] = sigmoid(y[2 * j + 1] + Wb[H + j] + Rb[H + j]);
  }
  // Phase 2: the candidate. Its x columns do not depend on r.
  std::vector<float> sx(static_cast<size_t>(H)), sh(static_cast<size_t>(H)),
      hin(h, h + H);
  if (!linearBeforeReset)
    for (int64_t j = 0; j < H; ++j)
      hin[j] = r[j] * h[j];
  matVecColumns(p.candidate.data(), H, cols, 0, lx, x, sx.data());
  matVecColumns(p.candidate.data(), H, cols, lx, cols, hin.data(), sh.data());
  std::vector<float> out(static_cast<size_t>(H));
  for (int64_t j = 0; j < H; ++j) {
    const float rh = sh[j] + Rb[2 * H + j];
    const float pre =
        sx[j] + Wb[2 * H + j] + (linearBeforeReset ? r[j] * rh : rh);
    out[j] = (1 - z[j]) * std::tanh(pre) + z[j] * h[j];
  }
  return out;
}
