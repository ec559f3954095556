//===- Transpose.cpp - Eight rows of a transposing DMA at once ------------===//
//
// With AVX2 an 8 x 8 block is transposed in registers (unpack, shuffle,
// lane permute) and stored as eight 32-byte rows; the columns past the
// last whole block, and hosts without AVX2, take the element loop. Only
// bits move, so the result is the element loop's whatever the values
// (NaN payloads included).
//
//===----------------------------------------------------------------------===//
#include "Transpose.h"
#include "MacKernels.h"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ACCEL_TRANSPOSE_X86 1
#include <immintrin.h>
#endif

using namespace accel::sim;

void accel::sim::transpose8RowsReference(uint8_t *dst, int64_t dstStep,
                                         const uint8_t *const rows[8],
                                         uint64_t cols) {
  for (uint64_t c = 0; c < cols; ++c)
    for (int k = 0; k < 8; ++k)
      std::memcpy(dst + int64_t(c) * dstStep + 4 * k, rows[k] + 4 * c, 4);
}

#ifdef ACCEL_TRANSPOSE_X86
namespace {
#define ACCEL_AVX2 __attribute__((target("avx2")))

/// Eight elements of a row from element c.
ACCEL_AVX2 inline __m256 load8(const uint8_t *row, uint64_t c) {
  return _mm256_castsi256_ps(
      _mm256_loadu_si256(reinterpret_cast<const __m256i *>(row + 4 * c)));
}

/// Columns [0, cols & ~7) as 8 x 8 blocks.
ACCEL_AVX2 void blocksAvx2(uint8_t *dst, int64_t dstStep,
                           const uint8_t *const rows[8], uint64_t cols) {
  for (uint64_t c = 0; c + 8 <= cols; c += 8) {
    const __m256 a0 = load8(rows[0], c), a1 = load8(rows[1], c);
    const __m256 a2 = load8(rows[2], c), a3 = load8(rows[3], c);
    const __m256 a4 = load8(rows[4], c), a5 = load8(rows[5], c);
    const __m256 a6 = load8(rows[6], c), a7 = load8(rows[7], c);
    // Pairs of rows interleaved, then quadruples, then the 128-bit halves.
    const __m256 t0 = _mm256_unpacklo_ps(a0, a1),
                 t1 = _mm256_unpackhi_ps(a0, a1);
    const __m256 t2 = _mm256_unpacklo_ps(a2, a3),
                 t3 = _mm256_unpackhi_ps(a2, a3);
    const __m256 t4 = _mm256_unpacklo_ps(a4, a5),
                 t5 = _mm256_unpackhi_ps(a4, a5);
    const __m256 t6 = _mm256_unpacklo_ps(a6, a7),
                 t7 = _mm256_unpackhi_ps(a6, a7);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44);
    const __m256 u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44);
    const __m256 u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44);
    const __m256 u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44);
    const __m256 u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    const __m256 out[8] = {_mm256_permute2f128_ps(u0, u4, 0x20),
                           _mm256_permute2f128_ps(u1, u5, 0x20),
                           _mm256_permute2f128_ps(u2, u6, 0x20),
                           _mm256_permute2f128_ps(u3, u7, 0x20),
                           _mm256_permute2f128_ps(u0, u4, 0x31),
                           _mm256_permute2f128_ps(u1, u5, 0x31),
                           _mm256_permute2f128_ps(u2, u6, 0x31),
                           _mm256_permute2f128_ps(u3, u7, 0x31)};
    uint8_t *d = dst + int64_t(c) * dstStep;
    for (int j = 0; j < 8; ++j)
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + j * dstStep),
                          _mm256_castps_si256(out[j]));
  }
}
} // namespace
#endif

void accel::sim::transpose8Rows(uint8_t *dst, int64_t dstStep,
                                const uint8_t *const rows[8], uint64_t cols) {
  uint64_t done = 0;
#ifdef ACCEL_TRANSPOSE_X86
  static const bool avx2 = hostMacIsa() != MacIsa::Scalar;
  if (avx2) {
    blocksAvx2(dst, dstStep, rows, cols);
    done = cols & ~uint64_t(7);
  }
#endif
  const uint8_t *rest[8];
  for (int k = 0; k < 8; ++k)
    rest[k] = rows[k] + 4 * done;
  transpose8RowsReference(dst + int64_t(done) * dstStep, dstStep, rest,
                          cols - done);
}
