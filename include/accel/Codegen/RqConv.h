//===- RqConv.h - Regular convolution on the rotating (RQ) queue -*- C++
//-*-===//
//
// A regular (groups == 1) convolution the way the machine describes SpConv:
// the weight queue holds all T = KH*KW kernel taps' weights of a block of
// input x output channels (T x cib x cob, loaded once), the MAC runs with
// the loop-back (`repeat` = T, `queue_mode` = RQ) and the type-2 scalar unit
// advances the index-compare base by one tap's activation offset per
// iteration. Activations (channel-innermost rows of the input) sit in the
// input buffers, one output row per PE (docs/depthwise.md, "Regular
// convolutions with RQ").
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CODEGEN_RQCONV_H
#define ACCEL_CODEGEN_RQCONV_H

#include "accel/Codegen/Kernels.h"
#include <cstdint>
#include <string>

namespace accel::codegen {

/// One groups == 1 convolution. The input is read through `x` with element
/// (n, c, h, w) of the **padded** input at x + 4*(n*xsN + c*xsC + h*xsH +
/// w*xsW) (the caller provides a zeroed padded copy when there is padding).
/// w: weights [Cout][Cin][KH][KW]; bias: [Cout]; out: [N][Cout][OH][OW].
struct RqConvLayer : ConvLayerBase {
  int64_t N = 0, Cin = 0, Cout = 0;
  int64_t xsN = 0, xsC = 0, xsH = 0, xsW = 1;
};

/// How the kernel tiles a layer (planRqConv).
struct RqConvPlan {
  int64_t T = 0;         ///< kernel taps KH*KW
  bool compact = true;   ///< dw == 1: row units are input columns (KH-fold
                         ///< expansion); else output column x kernel column
                         ///< (T-fold expansion, im2col)
  int64_t cob = 0;       ///< output channels per block (queue columns)
  int64_t cib = 0;       ///< input channels per block (MAC depth)
  int64_t owc = 0;       ///< output columns per tile (MAC rows per PE)
  int64_t rowFloats = 0; ///< floats of one expanded input row (LD acts cols)
  int64_t rowPitch = 0; ///< storage floats between expanded rows (>= rowFloats)
  int64_t macPitch = 0; ///< MAC row pitch (floats between output columns)
  int64_t coBlocks = 0, ciBlocks = 0;
  int64_t tiles = 0;    ///< work units: N x co blocks x row groups x col chunks
  double estCycles = 0; ///< the planner's estimate
};

/// Chooses the blocks for `l` on `hw`: T*cib*cob floats must fit the weight
/// queue, owc*cob one accumulation buffer, an expanded row the input buffer,
/// and the weights of one output block plus two ping-pong halves (P
/// expanded rows and the P x owc x cob outputs) the storage unit. False
/// with `err` when nothing fits (the caller falls back to the GEMM path).
bool planRqConv(const HardwareDesc &hw, const RqConvLayer &l, RqConvPlan &plan,
                std::string &err);

/// Emits the layer with `plan`. Work units (image, output channel block,
/// group of P output rows, output column chunk) are split into contiguous
/// ranges over the clusters (the weights of an output block are DMA'd into
/// storage once per range). Per unit: one DMA of the P expanded rows
/// (ping-pong halves), EXECUTE LD acts (PE p gets output row oh0+p), an
/// optional LD psums (bias), and per input-channel block one EXECUTE of
/// LD weights (RQ: not refetched while the block stays), MAC (RQ, repeat T,
/// pipeline 2, step = one tap) and ST acc (last block, with shift).
void emitRqConvLayer(StreamBuilder &sb, const RqConvLayer &l,
                     const RqConvPlan &plan);

} // namespace accel::codegen

#endif
