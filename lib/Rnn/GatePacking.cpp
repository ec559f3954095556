//===- GatePacking.cpp - Merged, row-interleaved gate matrices ------------===//
#include "accel/Rnn/GatePacking.h"

#include <algorithm>

using namespace accel;
using namespace accel::rnn;

int64_t rnn::tailOpsPerElement(Cell c) {
  switch (c) {
  case Cell::Rnn:
    return 0;
  case Cell::Gru:
    return 3;
  case Cell::Lstm:
    return 5;
  }
  return 0;
}

int64_t rnn::gateCount(Cell c) {
  switch (c) {
  case Cell::Rnn:
    return 1;
  case Cell::Gru:
    return 3;
  case Cell::Lstm:
    return 4;
  }
  return 0;
}

namespace {

/// Interleaves gates [0, gates) of W / R (each `hidden` rows) into a merged
/// [gates*hidden, lx+hidden] matrix.
std::vector<float> interleave(int64_t gates, int64_t hidden, int64_t lx,
                              const float *W, const float *R) {
  const int64_t cols = lx + hidden;
  std::vector<float> out(static_cast<size_t>(gates * hidden * cols));
  for (int64_t r = 0; r < gates * hidden; ++r) {
    const int64_t src = (r % gates) * hidden + r / gates;
    float *row = out.data() + r * cols;
    std::copy(W + src * lx, W + (src + 1) * lx, row);
    std::copy(R + src * hidden, R + (src + 1) * hidden, row + lx);
  }
  return out;
}

} // namespace

std::vector<float> rnn::packMerged(Cell c, int64_t hidden, int64_t lx,
                                   const float *W, const float *R) {
  return interleave(gateCount(c), hidden, lx, W, R);
}

GruPhases rnn::packGru(int64_t hidden, int64_t lx, const float *W,
                       const float *R) {
  GruPhases p;
  // ONNX GRU order z, r, h: z and r are the first 2H rows of W and R.
  p.zr = interleave(2, hidden, lx, W, R);
  // The candidate is gate 2 alone; one gate interleaves to itself.
  p.candidate =
      interleave(1, hidden, lx, W + 2 * hidden * lx, R + 2 * hidden * hidden);
  return p;
}

void rnn::matVecColumns(const float *M, int64_t rows, int64_t cols, int64_t c0,
                        int64_t c1, const float *v, float *y) {
  std::fill(y, y + rows, 0.0f);
  // Column by column, as the engine does: one weight column times one input
  // element, accumulated into every row.
  for (int64_t c = c0; c < c1; ++c)
    for (int64_t r = 0; r < rows; ++r)
      y[r] += M[r * cols + c] * v[c - c0];
}
