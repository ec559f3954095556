//===- ResidualView.h - A fused residual read through a view ----*- C++ -*-===//
//
// fuse-layers fuses an add whose other operand is broadcast into the
// producer's result (the nearest upsampling of a feature pyramid's
// top-down path, read as addressing: docs/operators.md "Resize") into the
// producer's epilogue (docs/passes.md, "fuse-layers"). The residual tile
// of a C tile is then not the C tile's box moved by a constant: element i
// of the output (row-major) reads the residual at
// base + sum_d index_d(i) * strides[d] over the view's shape, with zero
// strides along the repeated dimensions. viewTilePieces cuts the C tile
// into the few DMAs (at most 4-D boxes with zero strides) that load it.
//
// Pure C++ (no MLIR), so the decomposition is unit-tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_RESIDUALVIEW_H
#define ACCEL_CODEGEN_RESIDUALVIEW_H

#include "accel/Codegen/Kernels.h"
#include <cstdint>
#include <vector>

namespace accel::codegen {

// ResidualView (the residual as a view over the output's elements) is
// declared in Kernels.h, beside GemmEpilogue which holds it.

/// Element offset from `v.base` of the residual element that output element
/// `index` (row-major over v.shape) reads.
int64_t residualOffset(const ResidualView &v, int64_t index);

/// The DMAs that load the residual of the C tile `cTile` (a box over the
/// output at v.output, strides in elements) into a dense storage tile of
/// row stride `rowStride` elements (TilePiece offsets in elements from the
/// tile's start). Element e of the tile gets the residual element output
/// element e reads, each written exactly once. Pieces of equal shape whose
/// offsets step evenly are merged into one box of up to four dimensions.
std::vector<TilePiece> viewTilePieces(const DramBox &cTile, int64_t rowStride,
                                      const ResidualView &v);

/// How many output elements read each residual element: the product of the
/// view's extents along its zero strides (1: no repeats).
int64_t repeatFactor(const ResidualView &v);

/// A residual tile's loads with the repeats moved on chip. A piece that
/// reads residual elements several times (a zero stride of extent > 1:
/// the nearest upsampling of a feature pyramid) is loaded once, without its
/// repeated dimensions, into a staging region (`compact`: offsets in
/// elements from the staging region's start, dense strides there), and a
/// local copy (`expand`: `src` strides over the staging region, 0 along the
/// repeats, `src.base` its element offset there; `offset` and `suStrides`
/// the piece's own in the tile) writes it into the tile. DRAM then moves
/// each residual element once per piece instead of once per output element
/// that reads it. Pieces without repeats stay in `direct`.
struct StagedResidual {
  std::vector<TilePiece> direct, compact, expand;
  int64_t stagingElems = 0;
};
StagedResidual stageRepeatedReads(const std::vector<TilePiece> &pieces);

} // namespace accel::codegen

#endif
