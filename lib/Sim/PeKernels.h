//===- PeKernels.h - PE datapath kernels and the load-balancing model -----===//
//
// Host kernels of one PE's MAC (dense weight queue and sparse (value, index)
// weight queue with index compare) and the
// neighbour work-stealing model of the load-balancing MAC variant.
// docs/simulator.md ("PE: index compare, zero-skipping, load balancing") is
// the reference.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_SIM_PEKERNELS_H
#define ACCEL_LIB_SIM_PEKERNELS_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Sfu.h"
#include "accel/Target/SparseWeights.h"
#include <cstdint>
#include <vector>

namespace accel {
namespace sim {

/// One PE's MAC problem: R rows of activations with row pitch `pitch`
/// (floats); weight index k meets activation column base + k; K x N weights;
/// an R x N accumulator tile.
struct MacGeom {
  uint64_t R = 0, K = 0, N = 0, pitch = 0, base = 0;
  /// Floats from one accumulator row to the next (0: N, rows packed). The
  /// rows of several PEs' buffers in one call: SimInstructions.cpp, runMacs.
  uint64_t ldc = 0;
  uint64_t cStride() const { return ldc ? ldc : N; }
};

/// acc[i*cStride() + n] += sum_k A[i*pitch + base + k] * W[k*N + n] (k
/// ascending). A narrow accumulate type rounds after every addition. f32
/// accumulation runs on the host's vector unit (MacKernels.h), bit-identical
/// to the reference.
void macDense(const float *A, const float *W, float *C, const MacGeom &g,
              DType accT);

/// The plain loop of macDense, one element at a time: the definition the
/// fast kernels are tested against.
void macDenseReference(const float *A, const float *W, float *C,
                       const MacGeom &g, DType accT);

/// Index compare: for every row i and every weight pair (v, k*N + n) in
/// list order, the activation a = A[i*pitch + base + k] reaches the MAC only
/// if its bit of the data load unit's bitmask is 1, i.e. a != 0 (the bitmask
/// is a function of the input buffer's values, so the host reads the values
/// instead of keeping a copy of it); then acc[i][n] += a * v. Returns the
/// number of products performed (the PE's effective work).
uint64_t macSparse(const float *A, const std::vector<SparsePair> &pairs,
                   float *C, const MacGeom &g, DType accT);

/// out[i] = sfuUnary(f, in[i], imm) for i < n (in == out allowed), with the
/// common functions as plain loops the compiler vectorises (the same
/// operations as sfuUnary, so the same bits).
void sfuUnaryRow(SfuFunc f, const float *in, float *out, uint64_t n, float imm);

/// Load balancing: PE p may hand any part of its own work to its left
/// neighbour p-1 (one hop; PE 0 has no left neighbour). Returns the smallest
/// achievable maximum per-PE work and sets `moved` to the products handed
/// over in that schedule (the minimal pushes, computed right to left).
uint64_t balancedMax(const std::vector<uint64_t> &work, uint64_t &moved);

} // namespace sim
} // namespace accel

#endif
