//===- MacKernels.h - Register-blocked host kernels of the dense MAC -----===//
//
// The functional MAC of a whole tile (R x K activations times K x N weights)
// on the host's vector unit. Every accumulator element gets exactly the
// operations of the reference loop (macDenseReference, PeKernels.cpp) in the
// same order: for k ascending, the product a * w rounded to f32, then the sum
// rounded to f32 (no fused multiply-add, no reassociation). The kernels only
// keep a block of accumulators in registers across k instead of reloading
// them, so their results are bit-identical to the reference loop.
// docs/simulator.md ("Simulator speed") describes them.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_MACKERNELS_H
#define ACCEL_LIB_SIM_MACKERNELS_H

#include "PeKernels.h"

namespace accel {
namespace sim {

/// The instruction sets the dense f32 MAC can run on.
enum class MacIsa { Scalar, Avx2, Avx512 };

/// The best instruction set this host supports (checked once).
MacIsa hostMacIsa();

/// acc[i][n] += sum_k A[i*pitch + base + k] * W[k*N + n], k ascending, f32
/// accumulation, on instruction set `isa` (which the host must support).
/// Bit-identical to macDenseReference(..., DType::F32).
void macDenseF32(const float *A, const float *W, float *C, const MacGeom &g,
                 MacIsa isa);

} // namespace sim
} // namespace accel

#endif
