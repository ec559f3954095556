//===- GemmStorage.h - Storage layout of the GEMM kernels -------*- C++ -*-===//
//
// One rule for how much of a cluster's storage unit the GEMM kernels
// (lib/Codegen/GemmKernel.cpp, MappedGemm.cpp) use, shared with the models
// that price them (machineCycles, the array-mapping cost model).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TILING_GEMMSTORAGE_H
#define ACCEL_TILING_GEMMSTORAGE_H

#include <cstdint>

namespace accel::tiling {

/// f32 bytes of the layout: each of the two ping-pong halves holds the A
/// tile (mc x kc) and the B tile (kc x nc); the C tile (mc x nc, plus an
/// init tile of the same size with `init`) is in each half, or with
/// `sharedC` (split-K: C is written once per partition) once after both.
/// `rowInit`: the init region holds one value per row (a convolution's
/// bias) and a 1.0, mc + 1 floats (rounded up to 16): the kernel adds the bias
/// with a depth-1 MAC of the values by a row of ones (the 1.0 broadcast by LD
/// weights; codegen biasMacSlot), or LD psums broadcasts the values along the
/// columns.
struct GemmStorage {
  int64_t half = 0;   ///< one ping-pong half
  int64_t shared = 0; ///< the shared C (+ init) region, 0 without sharedC
  int64_t total() const { return 2 * half + shared; }
};

inline GemmStorage gemmStorage(int64_t mc, int64_t kc, int64_t nc, bool init,
                               bool sharedC, bool rowInit = false) {
  // A per-row region rounded to 64 bytes, so that it keeps the halves'
  // alignment.
  const int64_t rowRegion = (mc + 1 + 15) / 16 * 16;
  const int64_t c =
      (mc * nc + (init ? (rowInit ? rowRegion : mc * nc) : 0)) * 4;
  GemmStorage s;
  s.half = (mc * kc + kc * nc) * 4 + (sharedC ? 0 : c);
  s.shared = sharedC ? c : 0;
  return s;
}

/// The input-buffer slot of a depth-1 bias MAC's values (peRows floats per
/// PE): the first slot past the A tile (peRows x kc floats from slot
/// `actsSlot`), or -1 when it does not fit the buffer of `bufferBytes`
/// (16 slots); the kernel then broadcasts the bias with LD psums.
inline int biasMacSlot(int64_t bufferBytes, int64_t peRows, int64_t kc,
                       int64_t actsSlot = 0) {
  const int64_t slotBytes = bufferBytes / 16;
  if (slotBytes <= 0)
    return -1;
  const int64_t end = actsSlot * slotBytes + peRows * kc * 4;
  const int64_t slot = (end + slotBytes - 1) / slotBytes;
  return slot < 16 && slot * slotBytes + peRows * 4 <= bufferBytes ? int(slot)
                                                                   : -1;
}

} // namespace accel::tiling

#endif
