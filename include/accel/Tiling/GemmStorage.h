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
/// bias, which LD psums broadcasts along the columns), mc floats.
struct GemmStorage {
  int64_t half = 0;   ///< one ping-pong half
  int64_t shared = 0; ///< the shared C (+ init) region, 0 without sharedC
  int64_t total() const { return 2 * half + shared; }
};

inline GemmStorage gemmStorage(int64_t mc, int64_t kc, int64_t nc, bool init,
                               bool sharedC, bool rowInit = false) {
  const int64_t c = (mc * nc + (init ? (rowInit ? mc : mc * nc) : 0)) * 4;
  GemmStorage s;
  s.half = (mc * kc + kc * nc) * 4 + (sharedC ? 0 : c);
  s.shared = sharedC ? c : 0;
  return s;
}

} // namespace accel::tiling

#endif
