//===- Depthwise.h - Depthwise convolution in the SW queue mode -*- C++ -*-===//
//
// Depthwise convolution (groups == input channels == output channels) as the
// machine defines it for the sliding-window (SW) weight-queue mode: weights
// and activations swapped. The input buffer holds the filter taps, the weight
// queue a window of activations; consecutive output rows slide the queue
// window forward so only the new input rows are fetched (docs/depthwise.md).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_DEPTHWISE_H
#define ACCEL_CODEGEN_DEPTHWISE_H

#include "accel/Codegen/Kernels.h"
#include <cstdint>
#include <string>

namespace accel::codegen {

/// One depthwise layer over `planes` = N * C channel planes (plane p uses
/// the taps and bias of channel p % C). All DRAM tensors dense f32.
/// x: input [planes][H][W]; w: taps [C][KH][KW]; bias: [C]; out: output
/// [planes][OH][OW].
struct DepthwiseLayer : ConvLayerBase {
  int64_t planes = 0, C = 0;
  /// The stored (unpadded) plane and the padding before it: x holds
  /// [planes][H][W]; padded row r / column c is x[r - padT][c - padL] or 0.
  /// H = Hp, W = Wp, padT = padL = 0 for an input that is already padded.
  int64_t H = 0, W = 0, padT = 0, padL = 0;
  /// DRAM holding at least DepthwisePlan::zeroElems zero floats (the
  /// zero padding of the per-PE tap vectors).
  uint64_t zeros = 0;
  /// Unary steps of a fused epilogue after `func`, applied to each output
  /// band in storage before its DMA store (depthwisePostFits).
  std::vector<EpilogueStep> post;
  /// The MAC's sfu bit with a fused function (sfu-mode=chained): the
  /// accumulators feed the SFU, no decoupled pass on the store.
  bool sfuChained = true;
};

/// Whether a whole small plane may pack several output rows per PE into
/// the queue's columns (DepthwisePlan::laneRows): never; where the
/// estimate is lower, the layer is not DRAM-bound and every cluster has
/// enough planes; wherever it fits.
enum class LaneRows { Off, Auto, On };

/// How the kernel tiles a layer (planDepthwise).
struct DepthwisePlan {
  int64_t K = 0;    ///< taps per output (with dilation gaps): ((KH-1)dh+1)KW
  int64_t a = 0;    ///< expanded input rows per output row: sh * KW
  int64_t G = 1;    ///< output rows per MAC (one per PE)
  int64_t Kbig = 0; ///< MAC depth / queue rows: (G-1)*a + K
  int64_t owc = 0;  ///< output columns per tile (queue columns)
  int64_t bandRows = 0;  ///< output rows per tile
  int64_t zeroElems = 0; ///< floats of the tap region: 2*(G-1)*a + K
  /// Channel planes per tile (> 1 only when a whole plane is one band and
  /// one column chunk: small late layers share the DMA latency).
  int64_t planesPerTile = 1;
  int64_t tiles = 0; ///< plane groups x bands x column chunks
  /// Queue rows re-used by a slide (Kbig - G*a; 0 = no overlap, every
  /// window is a full load).
  int64_t slideKeep = 0;
  /// Output rows per PE per MAC. 1: the queue's columns are one output
  /// row's owc columns. > 1 (small whole planes, owc = OW, one MAC group
  /// per plane): the columns hold laneRows output rows side by side, so
  /// PE q's column block r is output row r * G + q and one MAC covers
  /// G * laneRows rows (docs/depthwise.md, "Small planes").
  int64_t laneRows = 1;
  /// Output rows a tile's band covers in storage: bandRows, or
  /// G * laneRows (>= OH; the rows past OH are computed, not stored).
  int64_t coveredRows() const { return laneRows > 1 ? G * laneRows : bandRows; }
};

/// Chooses G, the column chunk and the row band for `l` on `hw` (the queue
/// must hold Kbig x owc floats, one acc buffer owc floats, a storage half
/// the expanded band, the taps, the bias and the output band), and under
/// `laneRows` whether a whole small plane packs laneRows > 1 output rows
/// per PE into the columns. False with `err` when not even one output row
/// of one column fits.
bool planDepthwise(const HardwareDesc &hw, const DepthwiseLayer &l,
                   DepthwisePlan &plan, std::string &err,
                   LaneRows laneRows = LaneRows::Auto);

/// Whether the kernel can apply `l.post` to its output bands in place (no
/// residual step; a band's rows split over the PEs fit an input buffer; a
/// third instruction buffer).
bool depthwisePostFits(const HardwareDesc &hw, const DepthwiseLayer &l,
                       const DepthwisePlan &plan);

/// Emits the layer with plan `plan` (from planDepthwise): each cluster
/// takes a contiguous run of tiles (planes, then bands); per tile a DMA
/// loads the raw band of the input planes, local copies expand it by kernel
/// column (row (h, kw) holds x[h][ow*sw + kw*dw] for the tile's output
/// columns), zero boxes fill the padding (once per storage half while the
/// tile geometry repeats), one DMA loads the taps and one the bias; one
/// EXECUTE loads the per-PE shifted tap vectors (PE q: q*a
/// zeros, the taps, (G-1-q)*a zeros); one EXECUTE per group of G output
/// rows runs LD psums (bias), LD weights (SW, pipeline 2: the scalar unit
/// slides the window by G*a rows), MAC (depth Kbig) and ST acc (pipeline 2)
/// with shift + last. Storage halves are ping-ponged with DMA tags 0/1
/// (loads) and 2/3 (stores).
void emitDepthwiseLayer(StreamBuilder &sb, const DepthwiseLayer &l,
                        const DepthwisePlan &plan);

} // namespace accel::codegen

#endif
