//===- PadWindow.h - Zero padding inside a convolution's window -*- C++ -*-===//
//
// conv-padding=window (docs/passes.md, graph.conv2d): the implicit-GEMM
// convolution reads its image tiles from the unpadded input. A tile of one
// K chunk (kernel positions x a channel range) and one pixel box (output
// rows x columns) holds, per kernel position, a rectangle of pixels whose
// window lies inside the input and a border whose window reads padding.
// The rectangle is one DMA clipped to the valid input rows and columns; the
// border is written with zeros in storage by DMAs that broadcast one zeroed
// f32 of DRAM (all source strides 0). Every load of the tile writes both, so
// a ping-pong half that held another tile holds the right zeros again.
//
// Pure C++ (no MLIR), so the geometry is unit-tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_PADWINDOW_H
#define ACCEL_CODEGEN_PADWINDOW_H

#include "accel/Codegen/Kernels.h"
#include <cstdint>
#include <vector>

namespace accel::codegen {

/// One image tile of a padded convolution read in the window.
struct PadWindowTile {
  /// Byte address of the chunk's first channel plane (unpadded H x W
  /// planes, consecutive channels at the plane stride H * W).
  uint64_t planes = 0;
  /// Byte address of a zeroed f32 in DRAM that nothing writes.
  uint64_t zeros = 0;
  int64_t H = 0, W = 0;       ///< input plane
  int64_t padT = 0, padL = 0; ///< padding before the first row / column
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  /// The chunk: kernel rows [kh, kh + nkh) x columns [kw, kw + nkw),
  /// channels [0, cc) counted from `planes`.
  int64_t kh = 0, nkh = 1, kw = 0, nkw = 1, cc = 1;
  /// The pixel box: output rows [oh0, oh0 + ohc) x columns [ow0, ow0 + owc).
  int64_t oh0 = 0, ohc = 1, ow0 = 0, owc = 1;
  /// Storage strides (elements) of the tile: per kernel position of the
  /// chunk (positions row-major), per channel, per pixel of the box (pixels
  /// row-major: pixel (i, j) is pixel i * owc + j).
  int64_t posStride = 0, chanStride = 0, pixStride = 0;
};

/// Whether any pixel of the tile reads padding (else the tile is the one
/// box of the unpadded input that an unpadded convolution would load).
bool padWindowClips(const PadWindowTile &t);

/// The DMAs that load the tile: per kernel position the clipped input box
/// and the zero runs of its border (pieces of equal shape whose offsets
/// step evenly merged into one DMA while the box has a free dimension).
/// Together they write every element of the tile exactly once.
std::vector<TilePiece> padWindowPieces(const PadWindowTile &t);

} // namespace accel::codegen

#endif
