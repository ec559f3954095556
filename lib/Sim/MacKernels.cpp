//===- MacKernels.cpp - Register-blocked host kernels of the dense MAC ----===//
//
// Compiled with -ffp-contract=off (lib/Sim/CMakeLists.txt): a multiply and
// the add after it must stay two roundings, as in the reference loop. The
// vector kernels are built for their instruction set with function target
// attributes and chosen at run time, so the binary still runs on any x86-64.
//
//===----------------------------------------------------------------------===//
#include "MacKernels.h"

#include <algorithm>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ACCEL_MAC_X86 1
#include <immintrin.h>
#endif

namespace accel {
namespace sim {

namespace {

/// The reference loop's f32 case (any host).
void macScalar(const float *A, const float *W, float *C, const MacGeom &g) {
  const uint64_t N = g.N;
  for (uint64_t i = 0; i < g.R; ++i) {
    float *__restrict crow = C + i * g.cStride();
    const float *arow = A + i * g.pitch + g.base;
    for (uint64_t k = 0; k < g.K; ++k) {
      const float a = arow[k];
      const float *__restrict wrow = W + k * N;
      for (uint64_t j = 0; j < N; ++j)
        crow[j] += a * wrow[j];
    }
  }
}

#ifdef ACCEL_MAC_X86

// --- AVX-512: blocks of RB rows x NV vectors of 16 columns; the last column
// block is masked. A points at the block's first activation (row i0, column
// base), W and C at its first column.

template <int RB, int NV>
__attribute__((target("avx512f"))) inline void
blockAvx512(const float *A, uint64_t pitch, const float *W, uint64_t N,
            uint64_t K, float *C, uint64_t ldc, const __mmask16 *m) {
  __m512 c[RB][NV];
#pragma GCC unroll 8
  for (int r = 0; r < RB; ++r)
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v)
      c[r][v] = _mm512_maskz_loadu_ps(m[v], C + r * ldc + 16 * v);
  for (uint64_t k = 0; k < K; ++k) {
    const float *w = W + k * N;
    __m512 wv[NV];
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v)
      wv[v] = _mm512_maskz_loadu_ps(m[v], w + 16 * v);
#pragma GCC unroll 8
    for (int r = 0; r < RB; ++r) {
      const __m512 a = _mm512_set1_ps(A[r * pitch + k]);
#pragma GCC unroll 2
      for (int v = 0; v < NV; ++v)
        c[r][v] = _mm512_add_ps(c[r][v], _mm512_mul_ps(a, wv[v]));
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < RB; ++r)
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v)
      _mm512_mask_storeu_ps(C + r * ldc + 16 * v, m[v], c[r][v]);
}

template <int NV>
__attribute__((target("avx512f"))) void
rowsAvx512(const float *A, const float *W, float *C, const MacGeom &g,
           uint64_t j0, const __mmask16 *m) {
  const uint64_t N = g.N, K = g.K, P = g.pitch, L = g.cStride();
  const float *a = A + g.base;
  uint64_t i = 0;
  for (; i + 8 <= g.R; i += 8)
    blockAvx512<8, NV>(a + i * P, P, W + j0, N, K, C + i * L + j0, L, m);
  for (; i + 4 <= g.R; i += 4)
    blockAvx512<4, NV>(a + i * P, P, W + j0, N, K, C + i * L + j0, L, m);
  for (; i < g.R; ++i)
    blockAvx512<1, NV>(a + i * P, P, W + j0, N, K, C + i * L + j0, L, m);
}

__attribute__((target("avx512f"))) void
macAvx512(const float *A, const float *W, float *C, const MacGeom &g) {
  auto mask = [](uint64_t n) -> __mmask16 {
    return n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
  };
  for (uint64_t j0 = 0; j0 < g.N; j0 += 32) {
    const uint64_t nj = std::min<uint64_t>(32, g.N - j0);
    const __mmask16 m[2] = {mask(nj), mask(nj > 16 ? nj - 16 : 0)};
    if (nj > 16)
      rowsAvx512<2>(A, W, C, g, j0, m);
    else
      rowsAvx512<1>(A, W, C, g, j0, m);
  }
}

// --- AVX2: blocks of RB rows x NV vectors of 8 columns, masked loads and
// stores on the last column block.

template <int RB, int NV>
__attribute__((target("avx2"))) inline void
blockAvx2(const float *A, uint64_t pitch, const float *W, uint64_t N,
          uint64_t K, float *C, uint64_t ldc, const __m256i *m) {
  __m256 c[RB][NV];
#pragma GCC unroll 4
  for (int r = 0; r < RB; ++r)
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v)
      c[r][v] = _mm256_maskload_ps(C + r * ldc + 8 * v, m[v]);
  for (uint64_t k = 0; k < K; ++k) {
    const float *w = W + k * N;
    __m256 wv[NV];
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v)
      wv[v] = _mm256_maskload_ps(w + 8 * v, m[v]);
#pragma GCC unroll 4
    for (int r = 0; r < RB; ++r) {
      const __m256 a = _mm256_set1_ps(A[r * pitch + k]);
#pragma GCC unroll 2
      for (int v = 0; v < NV; ++v)
        c[r][v] = _mm256_add_ps(c[r][v], _mm256_mul_ps(a, wv[v]));
    }
  }
#pragma GCC unroll 4
  for (int r = 0; r < RB; ++r)
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v)
      _mm256_maskstore_ps(C + r * ldc + 8 * v, m[v], c[r][v]);
}

template <int NV>
__attribute__((target("avx2"))) void rowsAvx2(const float *A, const float *W,
                                              float *C, const MacGeom &g,
                                              uint64_t j0, const __m256i *m) {
  const uint64_t N = g.N, K = g.K, P = g.pitch, L = g.cStride();
  const float *a = A + g.base;
  uint64_t i = 0;
  for (; i + 4 <= g.R; i += 4)
    blockAvx2<4, NV>(a + i * P, P, W + j0, N, K, C + i * L + j0, L, m);
  for (; i < g.R; ++i)
    blockAvx2<1, NV>(a + i * P, P, W + j0, N, K, C + i * L + j0, L, m);
}

__attribute__((target("avx2"))) void macAvx2(const float *A, const float *W,
                                             float *C, const MacGeom &g) {
  // mask(n) = the first n lanes (n <= 8): a window into this table.
  static const int32_t ones[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
                                   0,  0,  0,  0,  0,  0,  0,  0};
  for (uint64_t j0 = 0; j0 < g.N; j0 += 16) {
    const uint64_t nj = std::min<uint64_t>(16, g.N - j0);
    const uint64_t n1 = nj > 8 ? nj - 8 : 0;
    const __m256i m[2] = {
        _mm256_loadu_si256(
            (const __m256i *)(ones + 8 - std::min<uint64_t>(nj, 8))),
        _mm256_loadu_si256((const __m256i *)(ones + 8 - n1))};
    if (nj > 8)
      rowsAvx2<2>(A, W, C, g, j0, m);
    else
      rowsAvx2<1>(A, W, C, g, j0, m);
  }
}

#endif // ACCEL_MAC_X86

} // namespace

MacIsa hostMacIsa() {
#ifdef ACCEL_MAC_X86
  static const MacIsa isa = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
      return MacIsa::Avx512;
    if (__builtin_cpu_supports("avx2"))
      return MacIsa::Avx2;
    return MacIsa::Scalar;
  }();
  return isa;
#else
  return MacIsa::Scalar;
#endif
}

void macDenseF32(const float *A, const float *W, float *C, const MacGeom &g,
                 MacIsa isa) {
  if (g.R == 0 || g.N == 0)
    return;
  switch (isa) {
#ifdef ACCEL_MAC_X86
  case MacIsa::Avx512:
    return macAvx512(A, W, C, g);
  case MacIsa::Avx2:
    return macAvx2(A, W, C, g);
#endif
  default:
    return macScalar(A, W, C, g);
  }
}

} // namespace sim
} // namespace accel
