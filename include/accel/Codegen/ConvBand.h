//===- ConvBand.h - Input bands of the implicit-GEMM convolution -*- C++
//-*-===//
//
// conv-bands (docs/mapping.md, "Convolution input bands"): instead of one
// DRAM DMA per (K chunk, pixel box) image tile, which reads the input once
// per kernel position, a cluster loads the rows of the input that a pixel
// box's windows touch (all kernel rows' halo, one channel range) into a
// storage region once (the band) and forms the image tile of every kernel
// position of that channel range from it with a storage-to-storage
// local_copy DMA. The band holds the padded input (zeros where the window
// reads padding), so every tile is one strided box of it.
//
// Pure C++ (no MLIR): the geometry is unit-tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_CONVBAND_H
#define ACCEL_CODEGEN_CONVBAND_H

#include "accel/Codegen/Kernels.h"
#include <cstdint>
#include <vector>

namespace accel::codegen {

/// The window of a convolution over its padded input plane.
struct ConvWindow {
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
};

/// A band: channels x rows x cols of the padded input, dense in storage
/// (channel planes of rows * cols elements, rows of cols elements).
struct BandLayout {
  int64_t r0 = 0, c0 = 0; ///< padded input row / column of element (0, 0)
  int64_t rows = 1, cols = 1, channels = 1;
  int64_t elems() const { return channels * rows * cols; }
};

/// The band a pixel box (output rows [oh0, oh0 + ohc) x columns [ow0, ow0 +
/// owc)) needs for the kernel rows [khLo, khHi] and columns [kwLo, kwHi]
/// (inclusive) of `channels` channels.
BandLayout convBandLayout(const ConvWindow &w, int64_t oh0, int64_t ohc,
                          int64_t ow0, int64_t owc, int64_t khLo, int64_t khHi,
                          int64_t kwLo, int64_t kwHi, int64_t channels);

/// The image tile of a K chunk (kernel rows [kh, kh + nkh) x columns [kw,
/// kw + nkw), counted from the band's khLo / kwLo; channels [c, c + cc)
/// counted from the band's first channel)
/// and the band's pixel box (ohc x owc pixels) as a box over the band:
/// `base` is the element offset in the band, strides in elements; the
/// dimensions are those of the DRAM image box (kernel rows, kernel columns,
/// channels, extent-1 dimensions left out, as the tile's rows; output rows
/// when ohc > 1, output columns as its columns).
DramBox convBandTile(const ConvWindow &w, const BandLayout &b, int64_t kh,
                     int64_t nkh, int64_t kw, int64_t nkw, int64_t c,
                     int64_t cc, int64_t ohc, int64_t owc);

/// Pixel boxes as blocks of `rows` output rows x `cols` output columns
/// (the last block of a row / column of blocks smaller).
struct BandBlock {
  int64_t rows = 1, cols = 1;
};

/// The pixel block for the whole output rows of a region (`outRows` rows of
/// `OW` pixels) of a convolution with input bands: at most `nc` pixels per
/// block, rows of at least `minCols` pixels (or whole rows), no more blocks
/// than pieces of rows / blocks of whole rows take (what the GEMM's N
/// tiles were without blocks: `rowTiles`), and of those the fewest band
/// elements per channel summed over the blocks (the band of a block is its
/// windows' rows x columns: kernel rows `KH` / columns `KW` with the
/// window `w`). Ties: fewer blocks, then wider ones. docs/mapping.md,
/// "Pixel blocks of the bands".
BandBlock chooseBandBlock(const ConvWindow &w, int64_t KH, int64_t KW,
                          int64_t outRows, int64_t OW, int64_t nc,
                          int64_t minCols, int64_t rowTiles);

/// Σ band elements per channel of the blocks of `b` over `outRows` x `OW`
/// output pixels, and their count (chooseBandBlock's measure).
struct BandBlockCost {
  int64_t bandElems = 0, blocks = 0;
};
BandBlockCost bandBlockCost(const ConvWindow &w, int64_t KH, int64_t KW,
                            int64_t outRows, int64_t OW, BandBlock b);

/// A pixel box: output rows [oh0, oh0 + ohc) x columns [ow0, ow0 + owc).
struct PixelBox {
  int64_t oh0 = 0, ohc = 1, ow0 = 0, owc = 1;
};

/// Band groups (docs/mapping.md, "Band groups"): consecutive pixel boxes
/// that share one band, the band of the smallest box holding them all.
struct BandGroups {
  std::vector<size_t> groupOf; ///< per pixel box: its group
  std::vector<PixelBox> box;   ///< per group: the union of its boxes
};

/// Groups `boxes` in their order: a box joins the group before it while the
/// band of the group's union (kernel rows [khLo, khHi], columns [kwLo,
/// kwHi], `channels` channels) holds at most `maxElems` elements; with
/// `maxElems` <= 0, or a box whose own band is larger, a box is a group
/// alone.
BandGroups groupBandBoxes(const ConvWindow &w,
                          const std::vector<PixelBox> &boxes, int64_t khLo,
                          int64_t khHi, int64_t kwLo, int64_t kwHi,
                          int64_t channels, int64_t maxElems);

/// The element offset of `box`'s band origin in the band of `group` (a
/// box inside it): its first window row / column, same channel.
int64_t bandOffsetInGroup(const ConvWindow &w, const BandLayout &group,
                          const PixelBox &groupBox, const PixelBox &box);

} // namespace accel::codegen

#endif
