//===- Crc32.cpp - The binary's checksum ----------------------------------===//
//
// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) over the whole
// binary after the header: hundreds of MB for real networks (the weights),
// so it is computed 64 bytes per step with carry-less multiplication where
// the CPU has it (x86-64 PCLMULQDQ) and 8 bytes per step (slicing by 8)
// elsewhere and for the tail. Every path gives the same value
// (BinaryTest.Crc32MatchesTheBytewiseDefinition).
//
//===----------------------------------------------------------------------===//
#include "accel/Target/Binary.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ACCEL_CRC32_PCLMUL 1
#include <immintrin.h>
#endif

namespace accel {
namespace {

/// table[k][b]: the CRC of byte b followed by k zero bytes, so 8 input bytes
/// take 8 look-ups that do not depend on each other.
struct Crc32Tables {
  uint32_t t[8][256];
  Crc32Tables() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i)
      for (int k = 1; k < 8; ++k)
        t[k][i] = t[0][t[k - 1][i] & 0xFF] ^ (t[k - 1][i] >> 8);
  }
};

/// Continues the running (not yet inverted) CRC `c` over `size` bytes.
uint32_t crcSliceBy8(uint32_t c, const uint8_t *data, size_t size) {
  static const Crc32Tables tables;
  const auto &t = tables.t;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    // Little-endian words assembled byte by byte: independent of the host.
    uint32_t lo =
        c ^ (uint32_t(data[i]) | uint32_t(data[i + 1]) << 8 |
             uint32_t(data[i + 2]) << 16 | uint32_t(data[i + 3]) << 24);
    c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^
        t[4][lo >> 24] ^ t[3][data[i + 4]] ^ t[2][data[i + 5]] ^
        t[1][data[i + 6]] ^ t[0][data[i + 7]];
  }
  for (; i < size; ++i)
    c = t[0][(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c;
}

#ifdef ACCEL_CRC32_PCLMUL
// Folding with carry-less multiplication (Gopal et al., "Fast CRC
// computation for generic polynomials using PCLMULQDQ instruction", Intel,
// 2009): a 128-bit remainder is carried forward by multiplying its halves
// by x^(distance +- 32) mod P and adding the data that far ahead. The
// constants are those powers of x for the reflected polynomial (P' and
// mu for the final Barrett reduction).
constexpr long long kFold512Lo = 0x154442bd4, kFold512Hi = 0x1c6e41596;
constexpr long long kFold128Lo = 0x1751997d0, kFold128Hi = 0x0ccaa009e;
constexpr long long kFold64 = 0x163cd6124;
constexpr long long kPoly = 0x1db710641, kMu = 0x1f7011641;

inline __m128i load16(const uint8_t *p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
}

/// x carried over the distance `k` encodes, plus `next`.
__attribute__((target("pclmul,sse2"))) inline __m128i
foldInto(__m128i x, __m128i k, __m128i next) {
  return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
                                     _mm_clmulepi64_si128(x, k, 0x11)),
                       next);
}

/// Continues the running CRC `c` over `size` bytes, a multiple of 16 and at
/// least 64: four 128-bit lanes folded 64 bytes at a time, then one lane,
/// then reduced to 32 bits.
__attribute__((target("pclmul,sse2"))) uint32_t crcPclmul(uint32_t c,
                                                          const uint8_t *p,
                                                          size_t size) {
  const __m128i fold512 = _mm_set_epi64x(kFold512Hi, kFold512Lo);
  const __m128i fold128 = _mm_set_epi64x(kFold128Hi, kFold128Lo);
  __m128i x0 = _mm_xor_si128(load16(p), _mm_cvtsi32_si128(int(c)));
  __m128i x1 = load16(p + 16), x2 = load16(p + 32), x3 = load16(p + 48);
  for (p += 64, size -= 64; size >= 64; p += 64, size -= 64) {
    x0 = foldInto(x0, fold512, load16(p));
    x1 = foldInto(x1, fold512, load16(p + 16));
    x2 = foldInto(x2, fold512, load16(p + 32));
    x3 = foldInto(x3, fold512, load16(p + 48));
  }
  __m128i x =
      foldInto(foldInto(foldInto(x0, fold128, x1), fold128, x2), fold128, x3);
  for (; size >= 16; p += 16, size -= 16)
    x = foldInto(x, fold128, load16(p));
  // 128 -> 96 -> 64 bits, then Barrett to 32.
  const __m128i low32 = _mm_set_epi32(0, ~0, 0, ~0);
  x = _mm_xor_si128(_mm_srli_si128(x, 8),
                    _mm_clmulepi64_si128(x, fold128, 0x10));
  x = _mm_xor_si128(_mm_srli_si128(x, 4),
                    _mm_clmulepi64_si128(_mm_and_si128(x, low32),
                                         _mm_set_epi64x(0, kFold64), 0x00));
  const __m128i barrett = _mm_set_epi64x(kMu, kPoly);
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x, low32), barrett, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), barrett, 0x00);
  return uint32_t(_mm_cvtsi128_si32(_mm_srli_si128(_mm_xor_si128(x, t), 4)));
}
#endif

} // namespace

uint32_t crc32(const uint8_t *data, size_t size) {
  return crc32Update(0, data, size);
}

uint32_t crc32Update(uint32_t crc, const uint8_t *data, size_t size) {
  uint32_t c = crc ^ 0xFFFFFFFFu;
#ifdef ACCEL_CRC32_PCLMUL
  static const bool pclmul = __builtin_cpu_supports("pclmul");
  if (pclmul && size >= 64) {
    size_t n = size & ~size_t(15);
    c = crcPclmul(c, data, n);
    data += n;
    size -= n;
  }
#endif
  return crcSliceBy8(c, data, size) ^ 0xFFFFFFFFu;
}

} // namespace accel
