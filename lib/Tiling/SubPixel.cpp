//===- SubPixel.cpp - A convolution of a nearest upsampling, per phase ----===//

#include "accel/Tiling/SubPixel.h"

#include <algorithm>

namespace accel::tiling {

namespace {
/// floor(x / s) for s > 0.
int64_t floorDiv(int64_t x, int64_t s) {
  return x >= 0 ? x / s : -((-x + s - 1) / s);
}
} // namespace

bool planSubPixelAxis(int64_t kernel, int64_t padBefore, int64_t padAfter,
                      int64_t factor, SubPixelAxis &axis) {
  if (kernel < 1 || factor < 1 || padBefore < 0 || padAfter < 0 ||
      padBefore + padAfter != kernel - 1)
    return false;
  axis = SubPixelAxis{};
  axis.factor = factor;
  // Output s q + a, tap t reads upsampled row s q + a - padBefore + t,
  // i.e. input row q + floor((a - padBefore + t) / s).
  std::vector<int64_t> lo(static_cast<size_t>(factor), 0),
      hi(static_cast<size_t>(factor), 0);
  for (int64_t a = 0; a < factor; ++a) {
    lo[a] = floorDiv(a - padBefore, factor);
    hi[a] = floorDiv(a - padBefore + kernel - 1, factor);
    axis.window = std::max(axis.window, hi[a] - lo[a] + 1);
  }
  // Window position r of phase-conv output row j reads input row
  // j - padBefore + r; phase a's output q is row q + offset[a].
  axis.padBefore = -*std::min_element(lo.begin(), lo.end());
  int64_t lastOffset = 0;
  for (int64_t a = 0; a < factor; ++a) {
    axis.offset.push_back(lo[a] + axis.padBefore);
    lastOffset = std::max(lastOffset, axis.offset.back());
    std::vector<int64_t> pos;
    for (int64_t t = 0; t < kernel; ++t)
      pos.push_back(floorDiv(a - padBefore + t, factor) - lo[a]);
    axis.tapPos.push_back(std::move(pos));
  }
  // Enough output rows for the phase with the largest offset.
  axis.padAfter =
      std::max<int64_t>(0, lastOffset + axis.window - 1 - axis.padBefore);
  return true;
}

std::vector<float> subPixelKernels(const std::vector<float> &w, int64_t O,
                                   int64_t C, int64_t KH, int64_t KW,
                                   const SubPixelAxis &rows,
                                   const SubPixelAxis &cols) {
  const int64_t sh = rows.factor, sw = cols.factor;
  const int64_t R = rows.window, S = cols.window;
  std::vector<double> acc(size_t(sh * sw * O * C * R * S), 0.0);
  for (int64_t a = 0; a < sh; ++a)
    for (int64_t b = 0; b < sw; ++b)
      for (int64_t o = 0; o < O; ++o)
        for (int64_t c = 0; c < C; ++c) {
          const int64_t out = ((a * sw + b) * O + o) * C + c;
          for (int64_t i = 0; i < KH; ++i)
            for (int64_t j = 0; j < KW; ++j) {
              const int64_t r = rows.tapPos[a][i], s = cols.tapPos[b][j];
              acc[size_t((out * R + r) * S + s)] +=
                  double(w[size_t(((o * C + c) * KH + i) * KW + j)]);
            }
        }
  return std::vector<float>(acc.begin(), acc.end());
}

std::vector<float> composeAfterPointwise(const std::vector<float> &wb,
                                         const std::vector<float> &wa,
                                         int64_t O, int64_t M, int64_t C,
                                         int64_t KH, int64_t KW) {
  const int64_t taps = KH * KW;
  std::vector<float> out(size_t(O * C * taps));
  std::vector<double> acc(size_t(C * taps));
  for (int64_t o = 0; o < O; ++o) {
    std::fill(acc.begin(), acc.end(), 0.0);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t c = 0; c < C; ++c) {
        const double x = double(wa[size_t(m * C + c)]);
        if (x == 0.0)
          continue;
        const float *row = &wb[size_t((o * M + m) * taps)];
        for (int64_t t = 0; t < taps; ++t)
          acc[size_t(c * taps + t)] += double(row[t]) * x;
      }
    std::copy(acc.begin(), acc.end(), out.begin() + o * C * taps);
  }
  return out;
}

} // namespace accel::tiling
