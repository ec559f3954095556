//===- Pool.h - Max / average pooling over input bands ----------*- C++ -*-===//
//
// 2-D pooling (graph.pool2d) as one layer: each tile DMAs a band of one
// input plane into a storage half once (the padding filled in storage from
// a one-float DRAM constant), then the PEs combine the kernel's taps as
// strided LDs of that band (column stride = the pooling stride) with SPU
// max / add, and the result band goes back to DRAM. Every input element
// crosses the memory channels once (the per-tap SFU layers read it once
// per tap and re-read and re-write the output as well: docs/passes.md,
// graph.pool2d).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_POOL_H
#define ACCEL_CODEGEN_POOL_H

#include "accel/Codegen/Kernels.h"
#include <cstdint>
#include <string>

namespace accel::codegen {

/// One pooling layer over `planes` = N * C channel planes, all DRAM tensors
/// dense f32: x [planes][H][W], out [planes][OH][OW].
struct PoolLayer {
  int64_t planes = 0, H = 0, W = 0, OH = 0, OW = 0;
  int64_t KH = 1, KW = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t padT = 0, padL = 0; ///< padding before row 0 / column 0
  bool isMax = true;          ///< max, else average
  uint64_t x = 0, out = 0;
  /// DRAM address of one float: the padding value (-inf for max, 0 for
  /// average), broadcast by the fill DMAs.
  uint64_t padValue = 0;
  /// Average only: DRAM [OH][OW] map of 1 / (elements counted per window).
  uint64_t invCount = 0;
};

/// How emitPoolLayer tiles a layer (planPool).
struct PoolPlan {
  int64_t Wn = 0;       ///< floats per band row: padded width of every window
  int64_t bandRows = 0; ///< output rows per tile and plane
  /// Storage rows per plane: (bandRows-1)*sh + window span, or OH*sh when
  /// several planes share a tile (their bands are then a fixed pitch apart)
  int64_t inRows = 0;
  /// Channel planes per tile (> 1 only for whole planes whose windows do not
  /// overlap vertically, e.g. 2x2 stride 2: small planes share a DMA)
  int64_t planesPerTile = 1;
  int64_t peRows =
      0;             ///< output rows per PE: ceil(planesPerTile*bandRows / PEs)
  int64_t tiles = 0; ///< plane groups x bands
};

/// Instructions of the per-tile sequence: LD the first tap, LD + SPU per
/// further tap, LD + SPU of the 1/count map (average), ST.
int64_t poolInstructions(const PoolLayer &l);

/// Chooses the band (a storage half holds the input band, the output band
/// and, for average, the 1/count band; a PE's share of a band fits its
/// input-buffer operand; every cluster gets two tiles when the layer has
/// rows enough). False with `err` when the kernel cannot run the layer (too
/// many taps for an instruction buffer, or not one output row fits).
bool planPool(const HardwareDesc &hw, const PoolLayer &l, PoolPlan &plan,
              std::string &err);

/// Emits the layer with plan `plan`: tiles (a band of one plane, or several
/// whole planes) dealt
/// round-robin over the clusters, storage halves ping-ponged with DMA tags
/// 0/1 (loads) and 2/3 (stores), one EXECUTE per tile.
void emitPoolLayer(StreamBuilder &sb, const PoolLayer &l, const PoolPlan &plan);

} // namespace accel::codegen

#endif
