//===- LayerProgram.h - GEMM layer programs built with the Program API ----===//
//
// accel-sim-bench builds its programs directly (no compiler): one cluster
// computes C[M x N] = A[M x K] * W[K x N] tile by tile. Per (m, n, k) tile:
// DMA the A tile (Mt x Kt) and the W tile (dense Kt x Nt, or its sparse
// (value, index) list) into the storage unit, EXECUTE one configured buffer
// (LD acts, LD weights / sparse_weights, MAC, ST acc), and after the last k
// tile (EXECUTE shift last) DMA the C tile back. No double buffering: the
// PE-array cycles (sum of EXECUTE durations) isolate the compute.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TOOLS_SIMBENCH_LAYERPROGRAM_H
#define ACCEL_TOOLS_SIMBENCH_LAYERPROGRAM_H

#include "accel/Sim/Simulator.h"
#include <string>
#include <vector>

namespace accel::bench {

struct Layer {
  std::string name;
  uint32_t M, K, N;    ///< GEMM shape
  uint32_t Mt, Kt, Nt; ///< tile shape (must divide M, K, N)
};

struct LayerOptions {
  bool sparseWeights = false;       ///< LD sparse_weights (index compare)
  bool loadBalance = false;         ///< MAC bit 3
  bool sfuChained = true;           ///< MAC bit 4 (else decoupled SFU)
  SfuFunc epilogue = SfuFunc::None; ///< ST acc function
};

/// Builds the program; `W` is K x N row-major. Returns false with `err` if a
/// tile does not fit the hardware.
bool buildLayerProgram(const HardwareDesc &hw, const Layer &l,
                       const std::vector<float> &W, const LayerOptions &o,
                       Program &p, std::string &err);

} // namespace accel::bench

#endif
