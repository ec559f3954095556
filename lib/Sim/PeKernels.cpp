//===- PeKernels.cpp - PE datapath kernels --------------------------------===//
#include "PeKernels.h"
#include "MacKernels.h"
#include "accel/Sim/Numerics.h"
#include <algorithm>
#include <cmath>

namespace accel {
namespace sim {

void macDense(const float *A, const float *W, float *C, const MacGeom &g,
              DType accT) {
  if (accT == DType::F32)
    return macDenseF32(A, W, C, g, hostMacIsa()); // bit-identical, faster
  macDenseReference(A, W, C, g, accT);
}

void macDenseReference(const float *A, const float *W, float *C,
                       const MacGeom &g, DType accT) {
  const uint64_t N = g.N;
  for (uint64_t i = 0; i < g.R; ++i) {
    float *__restrict crow = C + i * g.cStride();
    const float *arow = A + i * g.pitch + g.base;
    for (uint64_t k = 0; k < g.K; ++k) {
      const float a = arow[k];
      const float *__restrict wrow = W + k * N;
      if (accT == DType::F32) {
        for (uint64_t j = 0; j < N; ++j)
          crow[j] += a * wrow[j];
      } else { // narrow accumulator: round after every add
        for (uint64_t j = 0; j < N; ++j)
          crow[j] = roundTo(accT, crow[j] + a * wrow[j]);
      }
    }
  }
}

uint64_t macSparse(const float *A, const std::vector<SparsePair> &pairs,
                   float *C, const MacGeom &g, DType accT) {
  const uint64_t N = g.N;
  std::vector<uint32_t> ks(pairs.size()), ns(pairs.size());
  for (size_t p = 0; p < pairs.size(); ++p) {
    ks[p] = uint32_t(pairs[p].index / N);
    ns[p] = uint32_t(pairs[p].index % N);
  }
  uint64_t effective = 0;
  for (uint64_t i = 0; i < g.R; ++i) {
    const uint64_t rowBase = i * g.pitch + g.base;
    float *crow = C + i * g.cStride();
    for (size_t p = 0; p < pairs.size(); ++p) {
      const uint64_t ai = rowBase + ks[p];
      if (!(A[ai] != 0.0f))
        continue; // index compare: zero activation, no MAC
      ++effective;
      float &c = crow[ns[p]];
      c = accT == DType::F32 ? c + A[ai] * pairs[p].value
                             : roundTo(accT, c + A[ai] * pairs[p].value);
    }
  }
  return effective;
}

void sfuUnaryRow(SfuFunc f, const float *in, float *out, uint64_t n,
                 float imm) {
  switch (f) {
  case SfuFunc::Relu:
    for (uint64_t i = 0; i < n; ++i)
      out[i] = !(in[i] <= 0) ? in[i] : 0.0f;
    return;
  case SfuFunc::Scale:
    for (uint64_t i = 0; i < n; ++i)
      out[i] = in[i] * imm;
    return;
  case SfuFunc::AddImm:
    for (uint64_t i = 0; i < n; ++i)
      out[i] = in[i] + imm;
    return;
  case SfuFunc::MaxImm:
    for (uint64_t i = 0; i < n; ++i)
      out[i] = std::isnan(in[i]) ? in[i] : std::max(in[i], imm);
    return;
  case SfuFunc::MinImm:
    for (uint64_t i = 0; i < n; ++i)
      out[i] = std::isnan(in[i]) ? in[i] : std::min(in[i], imm);
    return;
  case SfuFunc::HardSwish:
    for (uint64_t i = 0; i < n; ++i) {
      const float x = in[i];
      out[i] = std::isnan(x)
                   ? x
                   : x * std::min(1.0f, std::max(0.0f, x / 6.0f + 0.5f));
    }
    return;
  default:
    for (uint64_t i = 0; i < n; ++i)
      out[i] = sfuUnary(f, in[i], imm);
  }
}

namespace {
/// Minimal pushes so that every PE's load is <= T; false if impossible.
bool feasible(const std::vector<uint64_t> &work, uint64_t T, uint64_t &moved) {
  moved = 0;
  uint64_t in = 0; // work received from the right neighbour
  for (size_t p = work.size(); p-- > 0;) {
    if (in > T)
      return false; // received work alone exceeds T (it cannot move on)
    uint64_t load = work[p] + in;
    uint64_t push = load > T ? load - T : 0;
    if (p == 0 && push)
      return false;
    moved += push;
    in = push;
  }
  return true;
}
} // namespace

uint64_t balancedMax(const std::vector<uint64_t> &work, uint64_t &moved) {
  uint64_t hi = 0, total = 0;
  for (uint64_t w : work) {
    hi = std::max(hi, w);
    total += w;
  }
  moved = 0;
  if (work.empty() || hi == 0)
    return hi;
  uint64_t lo = (total + work.size() - 1) / work.size(); // perfect balance
  // Invariant: hi is feasible (no pushes at all); lo - 1 is not.
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2, m;
    if (feasible(work, mid, m))
      hi = mid;
    else
      lo = mid + 1;
  }
  feasible(work, hi, moved);
  return hi;
}

} // namespace sim
} // namespace accel
