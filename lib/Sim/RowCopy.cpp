//===- RowCopy.cpp - The rows of a DMA box between host pointers ----------===//
//
// Rows of up to 128 bytes are moved with one or two AVX-512 byte-masked
// loads, then the stores: a masked-off byte is neither read (no fault) nor
// written, and the whole row is in registers before any byte of it is
// stored, so an overlapping source and destination give memmove's result.
// The instruction set is chosen at run time (the MAC kernels' choice,
// hostMacIsa, plus AVX-512 BW for byte masks); elsewhere each row is a
// memmove.
//
//===----------------------------------------------------------------------===//
#include "RowCopy.h"
#include "MacKernels.h"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ACCEL_ROWCOPY_X86 1
#include <immintrin.h>
#endif

using namespace accel::sim;

namespace {

/// The loop nest, with `row(dst, src)` moving one row.
template <typename Row>
__attribute__((always_inline)) inline void
forEachRow(uint8_t *dst, const int64_t dstStep[3], const uint8_t *src,
           const int64_t srcStep[3], const uint64_t shape[3], Row row) {
  // Locals: the rows' stores may alias the arrays as far as the compiler
  // knows, which would reload the steps every row.
  const int64_t d0 = dstStep[0], d1s = dstStep[1], d2 = dstStep[2];
  const int64_t s0 = srcStep[0], s1s = srcStep[1], s2 = srcStep[2];
  const uint64_t n0 = shape[0], n1 = shape[1], n2 = shape[2];
  for (uint64_t i0 = 0; i0 < n0; ++i0, dst += d0, src += s0) {
    uint8_t *d1 = dst;
    const uint8_t *s1 = src;
    for (uint64_t i1 = 0; i1 < n1; ++i1, d1 += d1s, s1 += s1s) {
      uint8_t *d = d1;
      const uint8_t *s = s1;
      for (uint64_t i2 = 0; i2 < n2; ++i2, d += d2, s += s2)
        row(d, s);
    }
  }
}

#ifdef ACCEL_ROWCOPY_X86
bool hostHasByteMasks() {
  static const bool has = [] {
    __builtin_cpu_init();
    return hostMacIsa() == MacIsa::Avx512 && __builtin_cpu_supports("avx512bw");
  }();
  return has;
}

#define ACCEL_AVX512BW __attribute__((target("avx512f,avx512bw")))

/// The mask of the first n bytes of a 64-byte vector, 0 < n <= 64.
inline __mmask64 lowBytes(size_t n) {
  return n >= 64 ? ~__mmask64(0) : (__mmask64(1) << n) - 1;
}

/// A row of at most 64 bytes.
struct OneVector {
  __mmask64 m;
  ACCEL_AVX512BW void operator()(uint8_t *d, const uint8_t *s) const {
    __m512i v = _mm512_maskz_loadu_epi8(m, s);
    _mm512_mask_storeu_epi8(d, m, v);
  }
};
/// A row of 65 to 128 bytes: both halves loaded before either is stored.
struct TwoVectors {
  __mmask64 m; ///< of the second half
  ACCEL_AVX512BW void operator()(uint8_t *d, const uint8_t *s) const {
    __m512i lo = _mm512_loadu_si512(s);
    __m512i hi = _mm512_maskz_loadu_epi8(m, s + 64);
    _mm512_storeu_si512(d, lo);
    _mm512_mask_storeu_epi8(d + 64, m, hi);
  }
};

template <typename Row>
ACCEL_AVX512BW void rowsAvx512(uint8_t *dst, const int64_t dstStep[3],
                               const uint8_t *src, const int64_t srcStep[3],
                               const uint64_t shape[3], Row row) {
  forEachRow(dst, dstStep, src, srcStep, shape, row);
}

void copyRowsShort(uint8_t *dst, const int64_t dstStep[3], const uint8_t *src,
                   const int64_t srcStep[3], const uint64_t shape[3],
                   size_t rowBytes) {
  if (rowBytes <= 64)
    rowsAvx512(dst, dstStep, src, srcStep, shape,
               OneVector{lowBytes(rowBytes)});
  else
    rowsAvx512(dst, dstStep, src, srcStep, shape,
               TwoVectors{lowBytes(rowBytes - 64)});
}
#endif

#ifdef ACCEL_ROWCOPY_X86
/// Sixteen words at a time: two source vectors, their even lanes by one
/// permute. The last block's loads are masked to the words it needs.
__attribute__((target("avx512f"))) void
everySecondWordAvx512(float *dst, const float *src, uint64_t n) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                         22, 24, 26, 28, 30);
  uint64_t i = 0;
  // A full block reads up to src[2 i + 31], which the next block needs
  // anyway (src[2 (i + 16)] lies beyond it): only the last block is masked.
  for (; i + 16 < n; i += 16) {
    const __m512 lo = _mm512_loadu_ps(src + 2 * i);
    const __m512 hi = _mm512_loadu_ps(src + 2 * i + 16);
    _mm512_storeu_ps(dst + i, _mm512_permutex2var_ps(lo, even, hi));
  }
  const uint64_t r = n - i, words = 2 * r - 1; // 1 <= r <= 16
  auto low = [](uint64_t k) -> __mmask16 {
    return k >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << k) - 1);
  };
  const __m512 lo = _mm512_maskz_loadu_ps(low(words), src + 2 * i);
  const __m512 hi =
      _mm512_maskz_loadu_ps(low(words > 16 ? words - 16 : 0), src + 2 * i + 16);
  _mm512_mask_storeu_ps(dst + i, low(r), _mm512_permutex2var_ps(lo, even, hi));
}
#endif

} // namespace

bool accel::sim::copyEverySecondWord(uint8_t *dst, const uint8_t *src,
                                     uint64_t n) {
#ifdef ACCEL_ROWCOPY_X86
  if (n == 0 || hostMacIsa() != MacIsa::Avx512)
    return false;
  // Disjoint ranges only: the element-wise copy's order would matter.
  const uintptr_t s = reinterpret_cast<uintptr_t>(src),
                  d = reinterpret_cast<uintptr_t>(dst);
  if (s < d + 4 * n && d < s + 8 * (n - 1) + 4)
    return false;
  everySecondWordAvx512(reinterpret_cast<float *>(dst),
                        reinterpret_cast<const float *>(src), n);
  return true;
#else
  (void)dst;
  (void)src;
  (void)n;
  return false;
#endif
}

void accel::sim::copyRowsReference(uint8_t *dst, const int64_t dstStep[3],
                                   const uint8_t *src, const int64_t srcStep[3],
                                   const uint64_t shape[3], size_t rowBytes) {
  forEachRow(dst, dstStep, src, srcStep, shape,
             [rowBytes](uint8_t *d, const uint8_t *s) {
               std::memmove(d, s, rowBytes);
             });
}

void accel::sim::copyRows(uint8_t *dst, const int64_t dstStep[3],
                          const uint8_t *src, const int64_t srcStep[3],
                          const uint64_t shape[3], size_t rowBytes) {
#ifdef ACCEL_ROWCOPY_X86
  if (rowBytes != 0 && rowBytes <= 128 && hostHasByteMasks())
    return copyRowsShort(dst, dstStep, src, srcStep, shape, rowBytes);
#endif
  copyRowsReference(dst, dstStep, src, srcStep, shape, rowBytes);
}
