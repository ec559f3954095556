//===- SparseWeightTiles.h - Sparse weight-queue tiles of a layer -*- C++ -*-=//
//
// Internal to lib/Codegen: encodes the weight-queue (B) tiles a GEMM kernel
// loads as LD sparse_weights lists (accel/Target/SparseWeights.h), one list
// per accumulation group, and places them in DRAM. Shared by the dealt
// (GemmKernel.cpp) and the mapped (MappedGemm.cpp) kernels.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_CODEGEN_SPARSEWEIGHTTILES_H
#define ACCEL_LIB_CODEGEN_SPARSEWEIGHTTILES_H

#include "GemmCommon.h"
#include <memory>
#include <string>
#include <vector>

namespace accel::codegen::detail {

/// The lists of one (K chunk, N tile) B tile: all groups back to back, DMA'd
/// 1-D into the tile's B region.
struct SparseBTile {
  uint64_t dram = 0; ///< set by placeSparseTiles
  bool placed = false;
  std::vector<uint8_t> bytes;      ///< serialised pairs of every group
  std::vector<SparseGroup> groups; ///< one per accumulation group
};

/// Every B tile of a set of problems, [problem][k * nTiles + n]. Tiles
/// that read the same DRAM box (problems sharing a weight matrix: batches,
/// convolution row pieces) share one encoding and one DRAM segment.
struct SparseLayerTiles {
  std::vector<std::vector<std::shared_ptr<SparseBTile>>> tiles;
  std::vector<size_t> kChunkCounts; ///< K chunks of each problem
  int64_t zeros = 0, total = 0;     ///< over the distinct boxes
  size_t kChunks(size_t problem) const { return kChunkCounts.at(problem); }
  const SparseBTile &at(size_t problem, size_t k, size_t n) const;
};

/// Encodes the B tiles of `problems` for tiling `t` (groups of `groupCols`
/// columns, `groups` of them; a group past a tile's edge gets an empty
/// 1-column list). Returns false with `reason` when an element is not a
/// compile-time constant or a list does not fit the weight queue / the
/// tile's B region (t.kc x t.nc floats).
bool encodeSparseTiles(const HardwareDesc &hw,
                       const std::vector<GemmTiles> &problems,
                       const GemmTiling &t, int64_t groupCols, int groups,
                       const SparseWeightSource &src, SparseLayerTiles &out,
                       std::string &reason);

/// Places every tile's bytes in DRAM (SparseWeightSource::place).
void placeSparseTiles(SparseLayerTiles &layer, const SparseWeightSource &src);

/// The 1-D DRAM box of a placed tile (f32 words).
DramBox sparseTileBox(const SparseBTile &tile);

} // namespace accel::codegen::detail

#endif
